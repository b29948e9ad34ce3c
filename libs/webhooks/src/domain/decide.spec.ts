import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, parseEnabledEvents, type WebhookEndpointCommand } from './decide';
import { evolve, initialState, signingSecrets, type WebhookEndpoint } from './webhook-endpoint';
import {
  PrimaryWebhookEndpointManaged,
  WebhookEndpointInvalid,
  WebhookEndpointNotFound,
  WebhookReplayLimitReached,
} from './webhook-endpoint-errors';
import type { WebhookEndpointEvent } from './webhook-endpoint-events';
import {
  canTransition,
  NO_ENDPOINT,
  WEBHOOK_ENDPOINT_ACTIONS,
  WEBHOOK_ENDPOINT_STATES,
  type WebhookEndpointAction,
  type WebhookEndpointStateOrNone,
} from './webhook-endpoint-states';

const ID = '5d1f0f3c-2a40-4c51-9a3e-6f1b2c3d4e5f';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const DELIVERY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-01T11:00:00.000Z');
const ids = { endpointId: ID, partnerId: PARTNER };
const given = deciderSpec({ decide, evolve, initialState });

const created = (
  fields: Partial<Extract<WebhookEndpointEvent, { type: 'WebhookEndpointCreated' }>['data']> = {},
) =>
  ({
    type: 'WebhookEndpointCreated',
    data: {
      ...ids,
      url: 'https://hooks.example.com/payments',
      enabledEvents: null,
      primary: false,
      secret: { sealed: 'sealed-1', createdAt: T0.toISOString() },
      createdAt: T0.toISOString(),
      ...fields,
    },
  }) satisfies WebhookEndpointEvent;
const suspended: WebhookEndpointEvent = {
  type: 'WebhookEndpointSuspended',
  data: { ...ids, failedDeliveries: 10, suspendedAt: T0.toISOString() },
};
const deleted: WebhookEndpointEvent = {
  type: 'WebhookEndpointDeleted',
  data: { ...ids, deletedAt: T0.toISOString() },
};
const synced = (revision: string, url: string | null): WebhookEndpointEvent => ({
  type: 'PrimaryWebhookEndpointSynced',
  data: { ...ids, partnerRevision: revision, url, syncedAt: T0.toISOString() },
});
const replayed = (at: Date): WebhookEndpointEvent => ({
  type: 'WebhookDeliveryReplayRequested',
  data: { ...ids, deliveryId: DELIVERY, requestedAt: at.toISOString() },
});

const create = (fields: Partial<Extract<WebhookEndpointCommand, { type: 'CreateWebhookEndpoint' }>> = {}) =>
  ({
    type: 'CreateWebhookEndpoint',
    ...ids,
    url: 'https://hooks.example.com/payments',
    sealedSecret: 'sealed-1',
    environment: 'production',
    at: T0,
    ...fields,
  }) satisfies WebhookEndpointCommand;
const update = (fields: Partial<Extract<WebhookEndpointCommand, { type: 'UpdateWebhookEndpoint' }>>) =>
  ({
    type: 'UpdateWebhookEndpoint',
    endpointId: ID,
    environment: 'production',
    at: T1,
    ...fields,
  }) satisfies WebhookEndpointCommand;
const sync = (url: string | null, revision = '7') =>
  ({
    type: 'SyncPrimaryWebhookEndpoint',
    ...ids,
    url,
    partnerRevision: revision,
    sealedSecret: 'sealed-primary',
    at: T1,
  }) satisfies WebhookEndpointCommand;

/** One command per action of the table, as a partner or the platform would send it. */
const COMMANDS: Record<WebhookEndpointAction, WebhookEndpointCommand> = {
  create: create(),
  update: update({ enabledEvents: ['transaction.returned'] }),
  rotate_secret: { type: 'RotateWebhookSecret', endpointId: ID, sealedSecret: 'sealed-2', at: T1 },
  suspend: { type: 'SuspendWebhookEndpoint', endpointId: ID, failedDeliveries: 10, at: T1 },
  reenable: { type: 'ReenableWebhookEndpoint', endpointId: ID, at: T1 },
  delete: { type: 'DeleteWebhookEndpoint', endpointId: ID, at: T1 },
  replay: { type: 'ReplayWebhookDelivery', endpointId: ID, deliveryId: DELIVERY, at: T1 },
  send_test: { type: 'SendWebhookTest', endpointId: ID, testId: DELIVERY, at: T1 },
  create_primary: sync('https://hooks.example.com/primary'),
  repoint_primary: sync('https://hooks.example.com/moved'),
  remove_primary: sync(null),
};

const PRIMARY_ACTIONS: readonly string[] = ['create_primary', 'repoint_primary', 'remove_primary'];

/** The history that puts an endpoint (a primary one for the primary actions) in each state. */
function history(state: string, primary: boolean): WebhookEndpointEvent[] {
  const start = primary
    ? [created({ primary: true }), synced('3', 'https://hooks.example.com/payments')]
    : [created()];
  if (state === NO_ENDPOINT) return [];
  if (state === 'ENABLED') return start;
  if (state === 'SUSPENDED') return [...start, suspended];
  return [...start, deleted];
}

/**
 * Written from docs/webhooks.md ("Endpoint states"), not read from the table: every allowed
 * (state, action) pair. Everything else is refused: 404 where the endpoint reads as absent
 * (none, or deleted) to a partner command, 409 otherwise.
 */
const ALLOWED = new Set([
  'NONE create',
  'ENABLED update',
  'SUSPENDED update',
  'ENABLED rotate_secret',
  'SUSPENDED rotate_secret',
  'ENABLED suspend',
  'SUSPENDED reenable',
  'ENABLED delete',
  'SUSPENDED delete',
  'ENABLED replay',
  'ENABLED send_test',
  'NONE create_primary',
  'DELETED create_primary',
  'ENABLED repoint_primary',
  'SUSPENDED repoint_primary',
  'ENABLED remove_primary',
  'SUSPENDED remove_primary',
]);

const STATES: WebhookEndpointStateOrNone[] = [NO_ENDPOINT, ...WEBHOOK_ENDPOINT_STATES];
const PAIRS = STATES.flatMap((state) => WEBHOOK_ENDPOINT_ACTIONS.map((action) => [state, action] as const));

describe('the webhook endpoint transition table', () => {
  it.each(PAIRS)('%s %s', (state, action) => {
    expect(canTransition(state, action)).toBe(ALLOWED.has(`${state} ${action}`));
  });
});

const PARTNER_PAIRS = PAIRS.filter(([, action]) => !PRIMARY_ACTIONS.includes(action));

describe('the webhook endpoint decider, every (state, partner or platform action) pair', () => {
  it.each(PARTNER_PAIRS)('%s %s', (state, action) => {
    const run = () => decide(COMMANDS[action], history(state, false).reduce(evolve, initialState()));
    if (ALLOWED.has(`${state} ${action}`)) expect(run().length).toBeGreaterThan(0);
    // A deleted endpoint reads as absent: 404, not 409 (a create of an id in use is 409).
    else if (action !== 'create' && (state === NO_ENDPOINT || state === 'DELETED')) {
      expect(run).toThrow(WebhookEndpointNotFound);
    } else expect(run).toThrow(InvalidStateTransition);
  });
});

/**
 * The primary endpoint's sync picks its move from the state (create_primary, repoint_primary or
 * remove_primary), so every state has an answer: the events each one records.
 */
describe('the primary endpoint sync in every state', () => {
  const SYNCED = 'PrimaryWebhookEndpointSynced';
  it.each([
    [NO_ENDPOINT, 'https://hooks.example.com/primary', ['WebhookEndpointCreated', SYNCED]],
    ['ENABLED', 'https://hooks.example.com/moved', ['WebhookEndpointUpdated', SYNCED]],
    ['SUSPENDED', 'https://hooks.example.com/moved', ['WebhookEndpointUpdated', SYNCED]],
    ['DELETED', 'https://hooks.example.com/primary', ['WebhookEndpointCreated', SYNCED]],
    [NO_ENDPOINT, null, []],
    ['ENABLED', null, ['WebhookEndpointDeleted', SYNCED]],
    ['SUSPENDED', null, ['WebhookEndpointDeleted', SYNCED]],
    ['DELETED', null, [SYNCED]],
  ] as const)('%s, webhook_url %s', (state, url, types) =>
    given(history(state, true))
      .when(sync(url))
      .thenState((_, events) => expect(events.map((e) => e.type)).toEqual(types)),
  );
});

describe('the webhook endpoint decider', () => {
  it('creates an ENABLED endpoint for every type, with the sealed secret only', () =>
    given([]).when(create()).then([created()]));

  it('keeps a subscription in catalog order, without duplicates', () =>
    given([])
      .when(create({ enabledEvents: ['transaction.returned', 'hpp_session.completed'] }))
      .thenState((endpoint) =>
        expect(endpoint?.enabledEvents).toEqual(['transaction.returned', 'hpp_session.completed']),
      ));

  it('names every broken rule by field: the URL and each unknown event type (400)', () =>
    given([])
      .when(
        create({
          url: 'http://10.0.0.5/hooks',
          enabledEvents: ['transaction.returned', 'payment.teleported'],
        }),
      )
      .thenThrows(WebhookEndpointInvalid, {
        code: 'validation_error',
        errors: [
          { field: 'url', message: 'must use https in production' },
          { field: 'url', message: 'must not point at a private address' },
          { field: 'enabled_events[1]', message: expect.stringMatching(/not a subscribable event type/) },
        ],
      }));

  it('refuses "*" among other types, duplicates and the test type in enabled_events', () => {
    expect(parseEnabledEvents(['*', 'transaction.returned']).errors).toEqual([
      { field: 'enabled_events[0]', message: '"*" must be the only entry' },
    ]);
    expect(parseEnabledEvents(['customer.created', 'customer.created']).errors).toEqual([
      { field: 'enabled_events[1]', message: 'is listed more than once' },
    ]);
    expect(parseEnabledEvents(['webhook_endpoint.test']).errors[0].field).toBe('enabled_events[0]');
    expect(parseEnabledEvents([]).errors[0].field).toBe('enabled_events');
    expect(parseEnabledEvents(['*'])).toEqual({ value: null, errors: [] });
  });

  it('allows http and loopback receivers in sandbox only', () => {
    given([])
      .when(create({ url: 'http://127.0.0.1:9000/hooks', environment: 'sandbox' }))
      .thenState((e) => expect(e?.url).toBe('http://127.0.0.1:9000/hooks'));
    given([])
      .when(create({ url: 'https://localhost/hooks' }))
      .thenThrows(WebhookEndpointInvalid, {
        errors: [{ field: 'url', message: 'must not point at a loopback address' }],
      });
  });

  it('changes only what differs; the same values again record nothing', () => {
    given([created()])
      .when(update({ url: 'https://hooks.example.com/v2', enabledEvents: ['*'] }))
      .then([
        {
          type: 'WebhookEndpointUpdated',
          data: { ...ids, url: 'https://hooks.example.com/v2', updatedAt: T1.toISOString() },
        },
      ]);
    given([created()])
      .when(update({ url: 'https://hooks.example.com/payments' }))
      .then([]);
  });

  it('rotation: the new secret signs from now on, the old one next to it for 24 hours', () =>
    given([created()])
      .when(COMMANDS.rotate_secret)
      .thenState((endpoint) => {
        const e = endpoint as WebhookEndpoint;
        expect(e.secret.sealed).toBe('sealed-2');
        expect(e.previousSecret).toEqual({
          sealed: 'sealed-1',
          createdAt: T0.toISOString(),
          expiresAt: '2026-11-02T11:00:00.000Z',
        });
        expect(signingSecrets(e, new Date('2026-11-02T10:59:59.000Z')).map((s) => s.sealed)).toEqual([
          'sealed-2',
          'sealed-1',
        ]);
        expect(signingSecrets(e, new Date('2026-11-02T11:00:00.000Z')).map((s) => s.sealed)).toEqual([
          'sealed-2',
        ]);
      }));

  it('the primary endpoint: its url and its removal belong to webhook_url (409)', () => {
    const primary = [created({ primary: true })];
    given(primary)
      .when(update({ url: 'https://hooks.example.com/elsewhere' }))
      .thenThrows(PrimaryWebhookEndpointManaged, { code: 'primary_webhook_endpoint_managed' });
    given(primary).when(COMMANDS.delete).thenThrows(PrimaryWebhookEndpointManaged);
    given(primary)
      .when(update({ enabledEvents: ['transaction.returned'] }))
      .thenState((e) => expect(e?.enabledEvents).toEqual(['transaction.returned']));
  });

  it('replay: the 101st within an hour is refused with the seconds until one leaves the window', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => replayed(new Date(T0.getTime() + i * 1000)));
    given([created(), ...hundred])
      .when({
        ...(COMMANDS.replay as object),
        at: new Date(T0.getTime() + 200_000),
      } as WebhookEndpointCommand)
      .thenThrows(WebhookReplayLimitReached, {
        code: 'webhook_replay_limit_reached',
        retryAfterSeconds: 3400,
      });
    // One hour after the first replay, one slot is free again.
    given([created(), ...hundred])
      .when({
        ...(COMMANDS.replay as object),
        at: new Date(T0.getTime() + 3_600_001),
      } as WebhookEndpointCommand)
      .thenState((e) => expect(e?.replays).toHaveLength(100));
  });

  it('replay and test are refused while suspended (409)', () => {
    given([created(), suspended])
      .when(COMMANDS.replay)
      .thenThrows(InvalidStateTransition, { from: 'SUSPENDED', action: 'replay' });
    given([created(), suspended])
      .when(COMMANDS.send_test)
      .thenThrows(InvalidStateTransition, { from: 'SUSPENDED' });
  });

  describe('the primary endpoint follows webhook_url in the partner stream’s order', () => {
    it('creates it with every type on the first webhook_url', () =>
      given([])
        .when(sync('https://hooks.example.com/primary'))
        .thenState((e, events) => {
          expect(events.map((x) => x.type)).toEqual([
            'WebhookEndpointCreated',
            'PrimaryWebhookEndpointSynced',
          ]);
          expect(e).toMatchObject({
            primary: true,
            state: 'ENABLED',
            enabledEvents: null,
            primaryRevision: '7',
          });
        }));

    it('re-points it, removes it, and brings it back with a new secret', () => {
      const start = [created({ primary: true }), synced('3', 'https://hooks.example.com/payments')];
      given(start)
        .when(sync('https://hooks.example.com/moved'))
        .thenState((e) =>
          expect(e).toMatchObject({ url: 'https://hooks.example.com/moved', primaryRevision: '7' }),
        );
      given(start)
        .when(sync(null))
        .thenState((e) => expect(e?.state).toBe('DELETED'));
      given([...start, deleted, synced('4', null)])
        .when(sync('https://hooks.example.com/back'))
        .thenState((e) =>
          expect(e).toMatchObject({ state: 'ENABLED', secret: { sealed: 'sealed-primary' } }),
        );
    });

    it('ignores a change that is not newer than the last one applied', () => {
      const start = [created({ primary: true }), synced('7', 'https://hooks.example.com/payments')];
      given(start).when(sync(null, '7')).then([]);
      given(start).when(sync('https://hooks.example.com/old', '5')).then([]);
    });
  });
});
