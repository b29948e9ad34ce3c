/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { EventMetadata } from '../../libs/event-store/src';
import { generateKey, hashKey } from '../../libs/platform/src/auth/secret-key';
import { fingerprintOf } from '../../libs/platform/src/idempotency/idempotency-store';
import { RunTerminalCommand } from '../../libs/terminals/src/application/terminal-commands';
import { HEARTBEAT_RECORD_INTERVAL_SECONDS } from '../../libs/terminals/src/domain/decide';
import { useTestPlatform, type ApiResponse, type TestPartner, type TestPlatform } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

/**
 * Terminals (spec "Terminals", CONTRACT §9, docs/terminals.md) on the real app: released, every
 * operation with its state machine, keys shown once and stored hashed, the terminal's own
 * heartbeat, tenancy and the feature flag; not released, every terminal path answers exactly as
 * an unknown route does.
 */

const TERMINAL_KEY = /^ctk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/;

/** The partner's actions on one terminal: `POST /terminals/{id}/<action>`. */
const PARTNER_ACTIONS = [
  'provision',
  'rotate-api-key',
  'suspend',
  'reactivate',
  'start-maintenance',
  'end-maintenance',
  'decommission',
];

/** Every terminal route of the released app, with a sample path. */
function terminalRoutes(id: string): [string, string][] {
  return [
    ['GET', '/terminals'],
    ['POST', '/terminals'],
    ['GET', `/terminals/${id}`],
    ...[...PARTNER_ACTIONS, 'heartbeat'].map((action): [string, string] => [
      'POST',
      `/terminals/${id}/${action}`,
    ]),
  ];
}

describe('terminals, released (RELEASED_OPERATIONS=terminals)', () => {
  const platform = useTestPlatform({ RELEASED_OPERATIONS: 'terminals' });
  let counter = 0;

  interface Fleet {
    partner: TestPartner;
    merchantId: string;
    /** POST /terminals for this merchant; a fresh serial number unless given. */
    register(fields?: Record<string, unknown>): Promise<ApiResponse>;
    /** A terminal taken to `state` through the API, with its key when it has one. */
    terminalIn(state: string): Promise<{ id: string; key: string | null }>;
  }

  async function merchantOf(partner: TestPartner): Promise<string> {
    const merchant = await partner.client.post('/merchants', {
      business_name: 'Corner Bakery',
      contact_email: 'sam@bakery.test',
      contact_name: 'Sam Baker',
      merchant_category_code: '5812',
    });
    expect(merchant.status).toBe(201);
    return merchant.body.id;
  }

  async function enableTerminals(p: TestPlatform, partnerId: string, enabled = true): Promise<void> {
    const res = await p.operator.put(`/platform/partners/${partnerId}/feature-flags/terminals`, { enabled });
    expect(res.status).toBe(200);
  }

  async function fleet(options: { scopes?: string[] } = {}): Promise<Fleet> {
    const partner = await platform().newPartner(options);
    await enableTerminals(platform(), partner.id);
    const merchantId = await merchantOf(partner);
    const register = (fields: Record<string, unknown> = {}) =>
      partner.client.post('/terminals', {
        merchant_id: merchantId,
        serial_number: `PAX-A920-${String(++counter).padStart(6, '0')}`,
        model: 'PAX A920 Pro',
        ...fields,
      });
    const terminalIn = async (state: string) => {
      const created = await register();
      expect(created.status).toBe(201);
      const id = created.body.id;
      if (state === 'UNASSIGNED') return { id, key: null };
      const provisioned = await partner.client.post(`/terminals/${id}/provision`);
      expect(provisioned.status).toBe(201);
      const key = provisioned.body.api_key as string;
      const steps: Record<string, string[]> = {
        PROVISIONED: [],
        ACTIVE: ['heartbeat'],
        SUSPENDED: ['heartbeat', 'suspend'],
        MAINTENANCE: ['heartbeat', 'start-maintenance'],
        DECOMMISSIONED: ['heartbeat', 'decommission'],
      };
      for (const step of steps[state]) {
        const client = step === 'heartbeat' ? platform().as(key) : partner.client;
        const res = await client.post(`/terminals/${id}/${step}`);
        expect(res.status).toBe(200);
      }
      return { id, key: state === 'DECOMMISSIONED' ? null : key };
    };
    return { partner, merchantId, register, terminalIn };
  }

  async function events(terminalId: string): Promise<any[]> {
    const res = await platform().operator.get(`/platform/streams/terminal-${terminalId}/events?limit=1000`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const heartbeat = (key: string, id: string, body?: unknown) =>
    platform().as(key).post(`/terminals/${id}/heartbeat`, body, { idempotencyKey: null });

  describe('the lifecycle a partner and its terminal walk', () => {
    let f: Fleet;
    let id: string;
    let key: string;

    beforeAll(async () => {
      f = await fleet();
    });

    it('POST /terminals: 201, the spec fields, UNASSIGNED; it reads and lists the same', async () => {
      const created = await f.register({ serial_number: 'PAX-A920-0820123456', model: '  PAX A920 Pro ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(UUID),
        merchant_id: f.merchantId,
        serial_number: 'PAX-A920-0820123456',
        model: 'PAX A920 Pro',
        firmware_version: null,
        state: 'UNASSIGNED',
        last_heartbeat_at: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      id = created.body.id;
      expect((await f.partner.client.get(`/terminals/${id}`)).body).toEqual(created.body);
      expect((await f.partner.client.get('/terminals')).body).toEqual({
        data: [created.body],
        pagination: { next_cursor: null, has_more: false, total_count: 1 },
      });
    });

    it('provision: 201 {terminal, api_key, rotated_at}, PROVISIONED; the key is never shown again', async () => {
      const res = await f.partner.client.post(`/terminals/${id}/provision`);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['terminal', 'api_key', 'rotated_at']);
      expect(res.body.terminal).toMatchObject({ id, state: 'PROVISIONED' });
      expect(res.body.api_key).toMatch(TERMINAL_KEY);
      expect(res.body.rotated_at).toMatch(ISO_TIMESTAMP);
      key = res.body.api_key;
      const secret = key.slice(13);
      const reads = [
        await f.partner.client.get(`/terminals/${id}`),
        await f.partner.client.get('/terminals'),
      ];
      for (const read of reads) expect(JSON.stringify(read.body)).not.toContain(secret);
      expect((await f.partner.client.get(`/terminals/${id}`)).body).toEqual(res.body.terminal);
    });

    it('stores the key only hashed: the event holds its prefix and SHA-256, the read model the same', async () => {
      const stream = await events(id);
      expect(stream.map((e) => e.type)).toEqual(['TerminalCreated', 'TerminalProvisioned']);
      expect(stream[1].data).toEqual({
        terminalId: id,
        merchantId: f.merchantId,
        partnerId: f.partner.id,
        keyPrefix: key.slice(4, 12),
        keyHash: hashKey(key),
        provisionedAt: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(JSON.stringify(stream)).not.toContain(key.slice(13));
      const { rows } = await platform().service.infra.pool.query(
        'select api_key_prefix, api_key_hash, snapshot::text as snapshot from terminal_list where id = $1',
        [id],
      );
      expect(rows).toEqual([
        { api_key_prefix: key.slice(4, 12), api_key_hash: hashKey(key), snapshot: expect.any(String) },
      ]);
      expect(rows[0].snapshot).not.toContain(key.slice(13));
    });

    it('the first heartbeat (the terminal, with its key) makes it ACTIVE and reports its firmware', async () => {
      const res = await heartbeat(key, id, { firmware_version: '3.2.1' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        state: 'ACTIVE',
        firmware_version: '3.2.1',
        last_heartbeat_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      const stream = await events(id);
      expect(stream.slice(2).map((e) => e.type)).toEqual(['TerminalHeartbeatRecorded', 'TerminalActivated']);
      expect(stream[2].metadata.actor).toBe(`terminal-key:${key.slice(4, 12)}`);
      expect(stream[2].metadata.partner_id).toBe(f.partner.id);
      expect(stream[1].metadata.actor).toBe(`partner-key:${f.partner.key.slice(4, 12)}`);
    });

    it('suspend → SUSPENDED (still heard, stays SUSPENDED) → reactivate → ACTIVE', async () => {
      const suspended = await f.partner.client.post(`/terminals/${id}/suspend`);
      expect(suspended.status).toBe(200);
      expect(suspended.body).toMatchObject({ id, state: 'SUSPENDED' });
      expect((await heartbeat(key, id)).body.state).toBe('SUSPENDED');
      const reactivated = await f.partner.client.post(`/terminals/${id}/reactivate`);
      expect(reactivated.status).toBe(200);
      expect(reactivated.body.state).toBe('ACTIVE');
    });

    it('start-maintenance → MAINTENANCE → end-maintenance → ACTIVE', async () => {
      const started = await f.partner.client.post(`/terminals/${id}/start-maintenance`);
      expect([started.status, started.body.state]).toEqual([200, 'MAINTENANCE']);
      const ended = await f.partner.client.post(`/terminals/${id}/end-maintenance`);
      expect([ended.status, ended.body.state]).toEqual([200, 'ACTIVE']);
    });

    it('decommission → DECOMMISSIONED: the key is refused at once, and nothing moves it any more', async () => {
      const res = await f.partner.client.post(`/terminals/${id}/decommission`);
      expect([res.status, res.body.state]).toEqual([200, 'DECOMMISSIONED']);
      expectProblem(await heartbeat(key, id), 401, 'unauthorized');
      for (const action of PARTNER_ACTIONS) {
        expectProblem(
          await f.partner.client.post(`/terminals/${id}/${action}`),
          409,
          'invalid_state_transition',
        );
      }
      expect((await f.partner.client.get(`/terminals/${id}`)).body.state).toBe('DECOMMISSIONED');
    });
  });

  describe('the state machine over HTTP: refused moves are 409 and change nothing', () => {
    it.each([
      ['UNASSIGNED', ['rotate-api-key', 'suspend', 'reactivate', 'start-maintenance', 'end-maintenance']],
      ['PROVISIONED', ['provision', 'reactivate', 'start-maintenance', 'end-maintenance']],
      ['ACTIVE', ['provision', 'reactivate', 'end-maintenance']],
      ['SUSPENDED', ['provision', 'suspend', 'start-maintenance', 'end-maintenance']],
      ['MAINTENANCE', ['provision', 'reactivate', 'start-maintenance']],
    ])('from %s: %j', async (state, actions) => {
      const f = await fleet();
      const { id } = await f.terminalIn(state);
      const before = await events(id);
      for (const action of actions) {
        expectProblem(
          await f.partner.client.post(`/terminals/${id}/${action}`),
          409,
          'invalid_state_transition',
          {
            detail: expect.stringContaining(state),
          },
        );
      }
      expect(await events(id)).toHaveLength(before.length);
      expect((await f.partner.client.get(`/terminals/${id}`)).body.state).toBe(state);
    });

    it('reactivate returns a terminal suspended before its first heartbeat to PROVISIONED', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('PROVISIONED');
      expect((await f.partner.client.post(`/terminals/${id}/suspend`)).body.state).toBe('SUSPENDED');
      expect((await f.partner.client.post(`/terminals/${id}/reactivate`)).body.state).toBe('PROVISIONED');
    });

    it('a lifecycle action takes no body: a field is 400 and nothing happens', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('ACTIVE');
      expectValidationError(await f.partner.client.post(`/terminals/${id}/suspend`, { reason: 'stolen' }), [
        'reason',
      ]);
      expectValidationError(await f.partner.client.post(`/terminals/${id}/rotate-api-key`, { x: 1 }), ['x']);
      expect((await f.partner.client.get(`/terminals/${id}`)).body.state).toBe('ACTIVE');
    });
  });

  describe('keys: rotation, idempotent replays, a lost key', () => {
    it('rotate-api-key: 201, the same shape, a new key; the old one is 401 from then on', async () => {
      const f = await fleet();
      const { id, key } = await f.terminalIn('ACTIVE');
      const rotated = await f.partner.client.post(`/terminals/${id}/rotate-api-key`);
      expect(rotated.status).toBe(201);
      expect(rotated.body).toEqual({
        terminal: expect.objectContaining({ id, state: 'ACTIVE' }),
        api_key: expect.stringMatching(TERMINAL_KEY),
        rotated_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(rotated.body.api_key).not.toBe(key);
      expectProblem(await heartbeat(key!, id), 401, 'unauthorized');
      expect((await heartbeat(rotated.body.api_key, id)).status).toBe(200);
      const last = (await events(id)).find((e) => e.type === 'TerminalApiKeyRotated');
      expect(last.data).toMatchObject({
        keyPrefix: rotated.body.api_key.slice(4, 12),
        keyHash: hashKey(rotated.body.api_key),
      });
    });

    it('a replayed provision answers the original, key included, and issues nothing more', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('UNASSIGNED');
      const idempotencyKey = randomUUID();
      const first = await f.partner.client.post(`/terminals/${id}/provision`, undefined, { idempotencyKey });
      const again = await f.partner.client.post(`/terminals/${id}/provision`, undefined, { idempotencyKey });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await events(id)).map((e) => e.type)).toEqual(['TerminalCreated', 'TerminalProvisioned']);
      expect((await heartbeat(again.body.api_key, id)).status).toBe(200);
    });

    it('a replayed rotation answers the same key; a new Idempotency-Key rotates again', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('PROVISIONED');
      const idempotencyKey = randomUUID();
      const first = await f.partner.client.post(`/terminals/${id}/rotate-api-key`, undefined, {
        idempotencyKey,
      });
      const replay = await f.partner.client.post(`/terminals/${id}/rotate-api-key`, undefined, {
        idempotencyKey,
      });
      expect(replay.body.api_key).toBe(first.body.api_key);
      const fresh = await f.partner.client.post(`/terminals/${id}/rotate-api-key`);
      expect(fresh.body.api_key).not.toBe(first.body.api_key);
      expectProblem(await heartbeat(first.body.api_key, id), 401, 'unauthorized');
      expect((await heartbeat(fresh.body.api_key, id)).status).toBe(200);
    });

    it('a provision that recorded its key and crashed before answering: the retry shows a working key, the lost one never works', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('UNASSIGNED');
      const idempotencyKey = randomUUID();
      const path = `/terminals/${id}/provision`;
      const scope = `partner:${f.partner.id}`;
      const { idempotency } = platform().service.infra;
      const begun = await idempotency.begin(
        scope,
        idempotencyKey,
        fingerprintOf('POST', `/api/v1${path}`, undefined),
      );
      if (begun.kind !== 'execute') throw new Error(`expected a fresh record, got ${begun.kind}`);
      const lost = generateKey('ctk');
      const metadata: EventMetadata = {
        actor: `partner-key:${f.partner.key.slice(4, 12)}`,
        partner_id: f.partner.id,
        request_id: 'crashed-run',
        idempotency_key: idempotencyKey,
        causation_id: begun.commandId,
        correlation_id: 'crashed-run',
      };
      await platform()
        .service.app.get(CommandBus)
        .execute(
          new RunTerminalCommand(
            { type: 'ProvisionTerminal', terminalId: id, keyPrefix: lost.prefix, keyHash: lost.hash },
            metadata,
          ),
        );
      await idempotency.abandon(scope, idempotencyKey, begun.lease);

      const retry = await f.partner.client.post(path, undefined, { idempotencyKey });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('x-idempotent-replay')).toBeNull();
      expect(retry.body.api_key).toMatch(TERMINAL_KEY);
      expect(retry.body.api_key).not.toBe(lost.key);
      expect(retry.body.terminal.state).toBe('PROVISIONED');
      expectProblem(await heartbeat(lost.key, id), 401, 'unauthorized');
      expect((await heartbeat(retry.body.api_key, id)).status).toBe(200);
      const stream = await events(id);
      expect(stream.map((e) => e.type).slice(0, 3)).toEqual([
        'TerminalCreated',
        'TerminalProvisioned',
        'TerminalApiKeyRotated',
      ]);
      expect(stream[1].metadata.causation_id).toBe(begun.commandId);
      const replay = await f.partner.client.post(path, undefined, { idempotencyKey });
      expect(replay.headers.get('x-idempotent-replay')).toBe('true');
      expect(replay.body.api_key).toBe(retry.body.api_key);
    });
  });

  describe('the heartbeat', () => {
    it(`is recorded at most every ${HEARTBEAT_RECORD_INTERVAL_SECONDS} s on the service clock; a new firmware at once`, async () => {
      const f = await fleet();
      const { id, key } = await f.terminalIn('ACTIVE');
      const recorded = async () =>
        (await events(id)).filter((e) => e.type === 'TerminalHeartbeatRecorded').length;
      const first = (await f.partner.client.get(`/terminals/${id}`)).body.last_heartbeat_at;
      expect(await recorded()).toBe(1);
      const soon = await heartbeat(key!, id);
      expect(soon.body.last_heartbeat_at).toBe(first);
      expect(await recorded()).toBe(1);
      expect((await heartbeat(key!, id, { firmware_version: '3.3.0' })).body.firmware_version).toBe('3.3.0');
      expect(await recorded()).toBe(2);
      await platform().operator.post('/platform/sandbox/clock', {
        advance_seconds: HEARTBEAT_RECORD_INTERVAL_SECONDS,
      });
      const later = await heartbeat(key!, id);
      expect(Date.parse(later.body.last_heartbeat_at) - Date.parse(first)).toBeGreaterThanOrEqual(
        HEARTBEAT_RECORD_INTERVAL_SECONDS * 1000,
      );
      expect(later.body.firmware_version).toBe('3.3.0');
      expect(await recorded()).toBe(3);
    });

    it('takes no Idempotency-Key, refuses unknown fields and a bad firmware_version (400)', async () => {
      const f = await fleet();
      const { id, key } = await f.terminalIn('PROVISIONED');
      expectValidationError(await heartbeat(key!, id, { firmware: '1' }), ['firmware']);
      expectValidationError(await heartbeat(key!, id, { firmware_version: '  ' }), ['firmware_version']);
      expectValidationError(await heartbeat(key!, id, { firmware_version: 3 }), ['firmware_version']);
      expect((await f.partner.client.get(`/terminals/${id}`)).body.state).toBe('PROVISIONED');
    });

    it("a terminal acts only on itself: another terminal's id is 404, its key nowhere else", async () => {
      const f = await fleet();
      const one = await f.terminalIn('ACTIVE');
      const other = await f.terminalIn('ACTIVE');
      expectProblem(await heartbeat(one.key!, other.id), 404, 'terminal_not_found');
      expectProblem(await platform().as(one.key).get('/terminals'), 403, 'unauthorized');
      expectProblem(await platform().as(one.key).get(`/terminals/${one.id}`), 403, 'unauthorized');
      expectProblem(await platform().as(one.key).get('/partner/me'), 403, 'unauthorized');
      expectProblem(await platform().as(one.key).get('/platform/partners'), 403, 'unauthorized');
      // Neither a partner key nor the operator key may speak for a terminal.
      expectProblem(await f.partner.client.post(`/terminals/${one.id}/heartbeat`), 403, 'unauthorized');
      expectProblem(await platform().operator.post(`/terminals/${one.id}/heartbeat`), 403, 'unauthorized');
      expectProblem(await heartbeat(generateKey('ctk').key, one.id), 401, 'unauthorized');
    });
  });

  describe('tenancy', () => {
    it("another partner's terminal is 404 terminal_not_found on every route, and is not listed", async () => {
      const owner = await fleet();
      const { id } = await owner.terminalIn('ACTIVE');
      const stranger = await fleet();
      expectProblem(await stranger.partner.client.get(`/terminals/${id}`), 404, 'terminal_not_found');
      for (const action of PARTNER_ACTIONS) {
        expectProblem(
          await stranger.partner.client.post(`/terminals/${id}/${action}`),
          404,
          'terminal_not_found',
        );
      }
      expect((await stranger.partner.client.get('/terminals')).body.data).toEqual([]);
      expectProblem(
        await stranger.partner.client.get(`/terminals/${randomUUID()}`),
        404,
        'terminal_not_found',
      );
      expect((await owner.partner.client.get(`/terminals/${id}`)).body.state).toBe('ACTIVE');
    });

    it("a terminal for another partner's merchant, or a list filtered by one, is 404 merchant_not_found", async () => {
      const owner = await fleet();
      const stranger = await fleet();
      expectProblem(await stranger.register({ merchant_id: owner.merchantId }), 404, 'merchant_not_found');
      expectProblem(
        await stranger.partner.client.get(`/terminals?merchant_id=${owner.merchantId}`),
        404,
        'merchant_not_found',
      );
      expectProblem(await stranger.register({ merchant_id: randomUUID() }), 404, 'merchant_not_found');
    });
  });

  describe('serial numbers are unique per merchant among terminals not decommissioned', () => {
    it('the same serial number (any case) for the same merchant is 409; for another merchant it is fine', async () => {
      const f = await fleet();
      const first = await f.register({ serial_number: 'VX-690-0001' });
      expect(first.status).toBe(201);
      expectProblem(await f.register({ serial_number: 'vx-690-0001' }), 409, 'terminal_serial_number_taken', {
        detail: expect.stringContaining(first.body.id),
      });
      const otherMerchant = await merchantOf(f.partner);
      expect((await f.register({ merchant_id: otherMerchant, serial_number: 'VX-690-0001' })).status).toBe(
        201,
      );
      expect((await f.partner.client.get(`/terminals?merchant_id=${f.merchantId}`)).body.data).toHaveLength(
        1,
      );
    });

    it('once its terminal is decommissioned, the serial number may be registered again', async () => {
      const f = await fleet();
      const first = await f.register({ serial_number: 'RECYCLED-1' });
      await f.partner.client.post(`/terminals/${first.body.id}/decommission`);
      const again = await f.register({ serial_number: 'RECYCLED-1' });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(first.body.id);
      expectProblem(await f.register({ serial_number: 'recycled-1' }), 409, 'terminal_serial_number_taken');
    });

    it('a replayed create answers the same terminal and claims nothing more', async () => {
      const f = await fleet();
      const idempotencyKey = randomUUID();
      const body = { merchant_id: f.merchantId, serial_number: 'REPLAY-1', model: 'Clover Flex' };
      const first = await f.partner.client.post('/terminals', body, { idempotencyKey });
      const again = await f.partner.client.post('/terminals', body, { idempotencyKey });
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await f.partner.client.get('/terminals')).body.data).toHaveLength(1);
    });
  });

  describe('input', () => {
    it('POST /terminals names every missing or malformed field, and unknown ones', async () => {
      const f = await fleet();
      expectValidationError(await f.partner.client.post('/terminals', {}), [
        'merchant_id',
        'serial_number',
        'model',
      ]);
      expectValidationError(
        await f.partner.client.post('/terminals', {
          merchant_id: 'nope',
          serial_number: 7,
          model: 'M',
          colour: 'red',
        }),
        ['merchant_id', 'serial_number', 'colour'],
      );
      expectValidationError(await f.register({ serial_number: 'has spaces', model: ' ' }), [
        'serial_number',
        'model',
      ]);
      expectValidationError(await f.register({ model: 'PAX\u202eA920' }), ['model']);
      expectValidationError(
        await f.partner.client.post(
          '/terminals',
          { merchant_id: f.merchantId, serial_number: 'A', model: 'B' },
          { idempotencyKey: null },
        ),
        ['Idempotency-Key'],
      );
      expect((await f.partner.client.get('/terminals')).body.data).toEqual([]);
    });

    it('GET /terminals filters by merchant_id and state, pages, and reads its query strictly', async () => {
      const f = await fleet();
      const otherMerchant = await merchantOf(f.partner);
      const active = await f.terminalIn('ACTIVE');
      const unassigned = await f.terminalIn('UNASSIGNED');
      const elsewhere = await f.register({ merchant_id: otherMerchant });
      const ids = async (query: string) =>
        ((await f.partner.client.get(`/terminals${query}`)).body.data as any[]).map((t) => t.id);
      expect(await ids('')).toEqual([elsewhere.body.id, unassigned.id, active.id]);
      expect(await ids(`?merchant_id=${f.merchantId}`)).toEqual([unassigned.id, active.id]);
      expect(await ids(`?merchant_id=${f.merchantId.toUpperCase()}&state=ACTIVE`)).toEqual([active.id]);
      expect(await ids('?state=DECOMMISSIONED')).toEqual([]);
      const page = await f.partner.client.get('/terminals?page_size=2');
      expect(page.body.pagination).toEqual({
        next_cursor: expect.any(String),
        has_more: true,
        total_count: 3,
      });
      const next = await f.partner.client.get(
        `/terminals?page_size=2&cursor=${page.body.pagination.next_cursor}`,
      );
      expect(next.body.data.map((t: any) => t.id)).toEqual([active.id]);
      expectValidationError(await f.partner.client.get('/terminals?state=active'), ['state']);
      expectValidationError(await f.partner.client.get('/terminals?state='), ['state']);
      expectValidationError(await f.partner.client.get('/terminals?merchant_id=x&serial=1'), [
        'merchant_id',
        'serial',
      ]);
      expectValidationError(await f.partner.client.get('/terminals?state=ACTIVE&state=SUSPENDED'), ['state']);
      expectValidationError(await f.partner.client.get('/terminals/not-a-uuid'), ['terminalId']);
    });
  });

  describe('access', () => {
    it('without the terminals flag every route is 403 feature_not_enabled, the heartbeat of its terminals too', async () => {
      const f = await fleet();
      const { id, key } = await f.terminalIn('ACTIVE');
      await enableTerminals(platform(), f.partner.id, false);
      for (const [method, path] of terminalRoutes(id)) {
        const client = path.endsWith('/heartbeat') ? platform().as(key) : f.partner.client;
        const res = await client.call(method, path, {
          body: method === 'POST' ? {} : undefined,
          idempotencyKey: path.endsWith('/heartbeat') ? null : undefined,
        });
        expectProblem(res, 403, 'feature_not_enabled', { detail: expect.stringContaining('terminals') });
      }
      await enableTerminals(platform(), f.partner.id, true);
      expect((await heartbeat(key!, id)).status).toBe(200);
    });

    it('terminal:read reads, terminal:write writes', async () => {
      const owner = await fleet();
      const { id } = await owner.terminalIn('ACTIVE');
      const reader = await platform().operator.post(`/platform/partners/${owner.partner.id}/api-keys`, {
        scopes: ['terminal:read'],
      });
      const readOnly = platform().as(reader.body.api_key);
      expect((await readOnly.get(`/terminals/${id}`)).status).toBe(200);
      expect((await readOnly.get('/terminals')).status).toBe(200);
      expectProblem(await readOnly.post(`/terminals/${id}/suspend`), 403, 'unauthorized');
      expectProblem(
        await readOnly.post('/terminals', {
          merchant_id: owner.merchantId,
          serial_number: 'S-1',
          model: 'M',
        }),
        403,
        'unauthorized',
      );
    });

    it('a DELETE on a terminal is 405 with Allow: the routes are there', async () => {
      const f = await fleet();
      const { id } = await f.terminalIn('UNASSIGNED');
      const res = await f.partner.client.delete(`/terminals/${id}`);
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  it('the router has every terminal route (the unreleased app below has none)', () => {
    const routes = platform().service.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
    for (const part of ['terminals', 'provision', 'rotate-api-key', 'suspend', 'reactivate', 'heartbeat']) {
      expect(routes).toContain(part);
    }
  });

  it('certification: a provisioned terminal passes TERMINAL_PROVISIONING, its first heartbeat TERMINAL_HEARTBEAT', async () => {
    const f = await fleet();
    const flow = await f.partner.client.post('/partner/me/certification/prepare');
    expect(flow.body.features).toContain('TERMINAL');
    const check = async (code: string) =>
      ((await f.partner.client.get('/certification/flows/active')).body.checks as any[]).find(
        (c) => c.check_code === code,
      ).state;
    expect([await check('TERMINAL_PROVISIONING'), await check('TERMINAL_HEARTBEAT')]).toEqual([
      'PENDING',
      'PENDING',
    ]);
    const { id, key } = await f.terminalIn('PROVISIONED');
    expect([await check('TERMINAL_PROVISIONING'), await check('TERMINAL_HEARTBEAT')]).toEqual([
      'PASSED',
      'PENDING',
    ]);
    await heartbeat(key!, id);
    expect([await check('TERMINAL_PROVISIONING'), await check('TERMINAL_HEARTBEAT')]).toEqual([
      'PASSED',
      'PASSED',
    ]);
  });
});

describe('terminals, not released (RELEASED_OPERATIONS unset)', () => {
  const platform = useTestPlatform();

  /** A request as sent, with a request id we choose so that two answers can be compared whole. */
  async function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
    const res = await platform().service.call(method, `/api/v1${path}`, {
      headers: { 'x-request-id': 'same-request-id', ...headers },
      body,
    });
    const named = [...res.headers.entries()].filter(([name]) => name !== 'date');
    return { status: res.status, headers: Object.fromEntries(named), body: await res.text() };
  }

  /** The same path with `/terminals` spelled `/terminalx`: an unknown route of the same length. */
  const unknownTwin = (path: string) => path.replace('/terminals', '/terminalx');

  it('every terminal path answers exactly as an unknown route does: status, headers, problem body', async () => {
    const partner = await platform().newPartner();
    const flagged = await platform().operator.put(
      `/platform/partners/${partner.id}/feature-flags/terminals`,
      {
        enabled: true,
      },
    );
    expect(flagged.status).toBe(200);
    const callers: Record<string, Record<string, string>> = {
      anonymous: {},
      'a partner with the flag': { authorization: `Bearer ${partner.key}` },
      'a terminal key': { authorization: `Bearer ${generateKey('ctk').key}` },
      'the operator': { authorization: `Bearer ${platform().operator.key}` },
    };
    const id = randomUUID();
    const routes: [string, string][] = [
      ...terminalRoutes(id),
      ['DELETE', `/terminals/${id}`],
      ['GET', '/terminals?merchant_id=x&state=ACTIVE'],
      ['POST', '/terminals/'],
    ];
    for (const [method, path] of routes) {
      for (const [who, auth] of Object.entries(callers)) {
        const write = method === 'POST';
        const headers = write
          ? { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() }
          : auth;
        const body = write
          ? JSON.stringify({ merchant_id: randomUUID(), serial_number: 'S', model: 'M' })
          : undefined;
        const answer = await raw(method, path, headers, body);
        const twin = await raw(method, unknownTwin(path), headers, body);
        expect({ who, method, path, status: answer.status }).toEqual({ who, method, path, status: 404 });
        expect({ who, method, path, headers: answer.headers }).toEqual({
          who,
          method,
          path,
          headers: twin.headers,
        });
        expect({ who, method, path, body: unknownTwin(answer.body) }).toEqual({
          who,
          method,
          path,
          body: twin.body,
        });
        expect(JSON.parse(answer.body)).toEqual({
          type: expect.any(String),
          title: 'Not Found',
          status: 404,
          detail: `no endpoint ${method} /api/v1${path.split('?')[0]}`,
          code: 'not_found',
          request_id: 'same-request-id',
        });
      }
    }
  });

  it('a terminal key is unknown everywhere (401): nothing can have issued one', async () => {
    expectProblem(await platform().as(generateKey('ctk').key).get('/partner/me'), 401, 'unauthorized');
  });

  it('the router has no terminal route at all (a document generated from it has none)', () => {
    const fastify = platform().service.app.getHttpAdapter().getInstance();
    expect(fastify.printRoutes({ commonPrefix: false })).not.toMatch(/terminal/);
    expect(fastify.printRoutes({ commonPrefix: false })).toMatch(/merchants/);
  });
});
