import type { SealedSecret, WebhookEndpointEvent } from './webhook-endpoint-events';
import { REPLAY_LIMIT, type WebhookEndpointState } from './webhook-endpoint-states';

/** The endpoint as its events make it: plain JSON (the read model keeps it as a snapshot). */
export interface WebhookEndpoint {
  id: string;
  partnerId: string;
  url: string;
  /** null: every subscribable type. */
  enabledEvents: string[] | null;
  primary: boolean;
  state: WebhookEndpointState;
  secret: SealedSecret;
  /** The secret before the last rotation, still signing until `expiresAt`. */
  previousSecret: (SealedSecret & { expiresAt: string }) | null;
  /** Times of the latest replays (at most the limit's worth), oldest first. */
  replays: string[];
  /** The partner stream revision of the last `webhook_url` change applied (primary only). */
  primaryRevision: string | null;
  createdAt: string;
  updatedAt: string;
  /** Number of events applied: the `version` field of the API. */
  version: number;
}

export type WebhookEndpointOrNone = WebhookEndpoint | null;

export const initialState = (): WebhookEndpointOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(endpoint: WebhookEndpointOrNone, event: WebhookEndpointEvent): WebhookEndpointOrNone {
  if (event.type === 'WebhookEndpointCreated') {
    const d = event.data;
    return {
      id: d.endpointId,
      partnerId: d.partnerId,
      url: d.url,
      enabledEvents: d.enabledEvents,
      primary: d.primary,
      state: 'ENABLED',
      secret: d.secret,
      previousSecret: null,
      replays: [],
      // A primary endpoint created again after a clear keeps the revision it was synced to.
      primaryRevision: endpoint?.primaryRevision ?? null,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
      version: (endpoint?.version ?? 0) + 1,
    };
  }
  if (!endpoint) return endpoint;
  const e: WebhookEndpoint = { ...endpoint, version: endpoint.version + 1 };
  switch (event.type) {
    case 'WebhookEndpointUpdated': {
      const d = event.data;
      return {
        ...e,
        ...(d.url !== undefined && { url: d.url }),
        ...(d.enabledEvents !== undefined && { enabledEvents: d.enabledEvents }),
        updatedAt: d.updatedAt,
      };
    }
    case 'WebhookEndpointSecretRotated':
      return {
        ...e,
        secret: event.data.secret,
        previousSecret: { ...e.secret, expiresAt: event.data.previousExpiresAt },
        updatedAt: event.data.rotatedAt,
      };
    case 'WebhookEndpointSuspended':
      return { ...e, state: 'SUSPENDED', updatedAt: event.data.suspendedAt };
    case 'WebhookEndpointReenabled':
      return { ...e, state: 'ENABLED', updatedAt: event.data.reenabledAt };
    case 'WebhookEndpointDeleted':
      return { ...e, state: 'DELETED', updatedAt: event.data.deletedAt };
    case 'WebhookDeliveryReplayRequested':
      return { ...e, replays: [...e.replays, event.data.requestedAt].slice(-REPLAY_LIMIT) };
    case 'WebhookEndpointTestRequested':
      return e;
    case 'PrimaryWebhookEndpointSynced':
      return { ...e, primaryRevision: event.data.partnerRevision };
  }
}

export const webhookEndpointEvolver = { initialState, evolve };

/** The secrets a delivery at `now` is signed with: the current one, and the previous one while it overlaps. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret'>,
  now: Date,
): SealedSecret[] {
  const previous = endpoint.previousSecret;
  return previous && Date.parse(previous.expiresAt) > now.getTime()
    ? [endpoint.secret, previous]
    : [endpoint.secret];
}
