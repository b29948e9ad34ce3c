import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The webhook endpoint state machine, as data. The spec names no endpoint states; these are
 * decided here (docs/webhooks.md, "Endpoint states"):
 *
 * 1. ENABLED: deliveries are made. SUSPENDED: the platform stopped delivering after
 *    {@link SUSPEND_AFTER_FAILED_DELIVERIES} consecutive deliveries ended without success
 *    (EXHAUSTED or FAILED); no delivery is created or attempted, replay and test are refused.
 *    DELETED: gone; every read and command answers 404 (the stream stays for the audit).
 * 2. `reenable` (the partner, `POST /webhook-endpoints/{id}/enable`) is the only way out of
 *    SUSPENDED. Deliveries that were still PENDING resume; events of the suspension are not
 *    delivered (they are in `GET /events`).
 * 3. `update` (PATCH) and `rotate_secret` are allowed while SUSPENDED: a partner fixes its
 *    receiver before it re-enables the endpoint.
 * 4. The partner's primary endpoint follows `webhook_url` of the partner configuration:
 *    `create_primary` (also after a clear: the endpoint comes back with a new secret),
 *    `repoint_primary`, `remove_primary`. A partner may not delete it or change its `url` here.
 *
 * A (state, action) pair outside the table is 409 `invalid_state_transition`; rule checks run
 * only after the move is allowed.
 */
export const WEBHOOK_ENDPOINT_STATES = ['ENABLED', 'SUSPENDED', 'DELETED'] as const;
export type WebhookEndpointState = (typeof WEBHOOK_ENDPOINT_STATES)[number];

/** The "state" of an endpoint whose stream is empty. */
export const NO_ENDPOINT = 'NONE';
export type WebhookEndpointStateOrNone = WebhookEndpointState | typeof NO_ENDPOINT;

const UNCHANGED = 'UNCHANGED';

interface Rule {
  from: readonly WebhookEndpointStateOrNone[];
  to: WebhookEndpointState | typeof UNCHANGED;
}

export const WEBHOOK_ENDPOINT_TRANSITIONS = {
  create: { from: [NO_ENDPOINT], to: 'ENABLED' },
  update: { from: ['ENABLED', 'SUSPENDED'], to: UNCHANGED },
  rotate_secret: { from: ['ENABLED', 'SUSPENDED'], to: UNCHANGED },
  suspend: { from: ['ENABLED'], to: 'SUSPENDED' },
  reenable: { from: ['SUSPENDED'], to: 'ENABLED' },
  delete: { from: ['ENABLED', 'SUSPENDED'], to: 'DELETED' },
  replay: { from: ['ENABLED'], to: UNCHANGED },
  send_test: { from: ['ENABLED'], to: UNCHANGED },
  create_primary: { from: [NO_ENDPOINT, 'DELETED'], to: 'ENABLED' },
  repoint_primary: { from: ['ENABLED', 'SUSPENDED'], to: UNCHANGED },
  remove_primary: { from: ['ENABLED', 'SUSPENDED'], to: 'DELETED' },
} as const satisfies Record<string, Rule>;

export type WebhookEndpointAction = keyof typeof WEBHOOK_ENDPOINT_TRANSITIONS;

export const WEBHOOK_ENDPOINT_ACTIONS = Object.keys(WEBHOOK_ENDPOINT_TRANSITIONS) as WebhookEndpointAction[];

export function canTransition(from: WebhookEndpointStateOrNone, action: WebhookEndpointAction): boolean {
  return (WEBHOOK_ENDPOINT_TRANSITIONS[action].from as readonly string[]).includes(from);
}

/** The state after `action`, or 409 `invalid_state_transition`. */
export function nextEndpointState(
  from: WebhookEndpointStateOrNone,
  action: WebhookEndpointAction,
): WebhookEndpointState {
  if (!canTransition(from, action)) throw new InvalidStateTransition('webhook_endpoint', from, action);
  const to: WebhookEndpointState | typeof UNCHANGED = WEBHOOK_ENDPOINT_TRANSITIONS[action].to;
  return to === UNCHANGED ? (from as WebhookEndpointState) : to;
}

/** Consecutive deliveries ending EXHAUSTED or FAILED after which the platform suspends an endpoint. */
export const SUSPEND_AFTER_FAILED_DELIVERIES = 10;

/** Spec rule 9: replays per endpoint within {@link REPLAY_WINDOW_MS}. */
export const REPLAY_LIMIT = 100;
export const REPLAY_WINDOW_MS = 60 * 60 * 1000;

/** After a rotation the old secret keeps signing (next to the new one) this long. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The per-event-type limit of `GET /webhook-metadata`: endpoints (besides the primary) per type. */
export const MAX_ENDPOINTS_PER_EVENT_TYPE = 10;
