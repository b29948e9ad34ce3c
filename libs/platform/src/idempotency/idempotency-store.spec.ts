import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { FixedClock } from '../clock/clock';
import { canonicalJson, fingerprintOf, IdempotencyStore } from './idempotency-store';

describe('IdempotencyStore on PostgreSQL', () => {
  const clock = new FixedClock(new Date('2026-11-01T00:00:00Z'));
  let url: string;
  let pool: Pool;
  let store: IdempotencyStore;
  beforeAll(async () => {
    url = await createTestDatabase('idempotency');
    pool = new Pool({ connectionString: url });
    await IdempotencyStore.migrate(pool);
    await IdempotencyStore.migrate(pool); // idempotent itself
    store = new IdempotencyStore(pool, clock, { leaseSeconds: 30 });
  });
  afterAll(async () => {
    await pool.end();
    await dropTestDatabase(url);
  });

  const fp = fingerprintOf('POST', '/api/v1/x', { a: 1 });

  it('migrates beside a write in flight without waiting for it (a process starting beside others)', async () => {
    const writing = await pool.connect();
    try {
      // A write's transaction: it read the table, then wrote a row, and has not committed.
      await writing.query('begin');
      await writing.query('select count(*) from platform.idempotency_records');
      await writing.query(
        `insert into platform.idempotency_records (scope, key_hash, command_id, fingerprint, state, created_at, lease_until)
         values ('partner:beside', 'k', gen_random_uuid(), 'f', 'in_progress', now(), now())`,
      );
      const migrated = IdempotencyStore.migrate(pool).then(() => 'migrated' as const);
      const waited = new Promise<'still waiting'>((resolve) =>
        setTimeout(() => resolve('still waiting'), 3_000),
      );
      expect(await Promise.race([migrated, waited])).toBe('migrated');
      // And the schema it completes when something is missing is still whole.
      const { rows } = await pool.query(
        `select (select count(*)::int from information_schema.columns
                  where table_schema = 'platform' and table_name = 'idempotency_records'
                    and column_name = 'lease_token') as columns,
                to_regclass('platform.idempotency_records_created_at')::text as index`,
      );
      expect(rows[0]).toEqual({ columns: 1, index: 'platform.idempotency_records_created_at' });
    } finally {
      await writing.query('rollback').catch(() => undefined);
      writing.release();
    }
  });

  it('runs a new key, replays the stored answer, and refuses another body', async () => {
    const first = await store.begin('partner:p1', 'k1', fp);
    expect(first).toMatchObject({ kind: 'execute', resumed: false });
    if (first.kind !== 'execute') throw new Error('unreachable');
    const secret = { api_key: 'csk_abcdefgh_THIS-IS-THE-SECRET-0123456789' };
    await store.complete('partner:p1', 'k1', first.commandId, {
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: secret,
    });
    expect(await store.begin('partner:p1', 'k1', fp)).toEqual({
      kind: 'replay',
      response: { status: 201, headers: { 'content-type': 'application/json' }, body: secret },
    });
    expect(await store.begin('partner:p1', 'k1', fingerprintOf('POST', '/api/v1/x', { a: 2 }))).toEqual({
      kind: 'reused',
    });
    // Neither the key nor the answer is readable in the table.
    const { rows } = await pool.query('select * from platform.idempotency_records');
    const dump =
      JSON.stringify(rows) + rows.map((r) => (r.response_body as Buffer).toString('latin1')).join('');
    expect(dump).not.toContain('THIS-IS-THE-SECRET');
    expect(rows.some((r) => r.key_hash === 'k1')).toBe(false);
  });

  it('scopes keys: the same key in another scope runs on its own', async () => {
    await store.begin('partner:p2', 'shared', fp);
    expect(await store.begin('partner:p3', 'shared', fp)).toMatchObject({ kind: 'execute' });
  });

  it('answers in_progress while the lease lives, and lets a retry take over under the same command id after abandon', async () => {
    const first = await store.begin('partner:p1', 'k2', fp);
    if (first.kind !== 'execute') throw new Error('unreachable');
    const busy = await store.begin('partner:p1', 'k2', fp);
    expect(busy.kind).toBe('in_progress');
    if (busy.kind === 'in_progress') expect(busy.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await store.abandon('partner:p1', 'k2', first.lease);
    expect(await store.begin('partner:p1', 'k2', fp)).toEqual({
      kind: 'execute',
      commandId: first.commandId,
      resumed: true,
      lease: expect.any(String),
    });
  });

  it('tells a twin to come back after a heartbeat, not after the lease', async () => {
    const first = await store.begin('partner:p1', 'k-ra', fp);
    if (first.kind !== 'execute') throw new Error('unreachable');
    // The lease has ~30 s left; the holder renews (or is seen dead) within one heartbeat.
    expect(await store.begin('partner:p1', 'k-ra', fp)).toEqual({
      kind: 'in_progress',
      retryAfterSeconds: 1,
    });
  });

  describe('leases and heartbeats', () => {
    // Short on purpose: these tests wait for leases to run down.
    let quick: IdempotencyStore;
    beforeAll(() => {
      quick = new IdempotencyStore(pool, clock, { leaseSeconds: 1.5, heartbeatSeconds: 0.25 });
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('refuses a lease shorter than three heartbeats', () => {
      expect(() => new IdempotencyStore(pool, clock, { leaseSeconds: 2, heartbeatSeconds: 1 })).toThrow();
    });

    it('a crashed run (nobody renews) frees its key after one lease: the retry takes over under its command id', async () => {
      const first = await quick.begin('partner:h', 'crashed', fp);
      if (first.kind !== 'execute') throw new Error('unreachable');
      expect((await quick.begin('partner:h', 'crashed', fp)).kind).toBe('in_progress');
      await sleep(2_000);
      const retry = await quick.begin('partner:h', 'crashed', fp);
      expect(retry).toMatchObject({ kind: 'execute', commandId: first.commandId, resumed: true });
      if (retry.kind === 'execute') expect(retry.lease).not.toBe(first.lease);
    });

    it('a live run keeps its key past the lease while it holds it, and frees it once released and abandoned', async () => {
      const first = await quick.begin('partner:h', 'live', fp);
      if (first.kind !== 'execute') throw new Error('unreachable');
      const hold = quick.hold('partner:h', 'live', first.lease);
      try {
        await sleep(2_500);
        expect(await quick.begin('partner:h', 'live', fp)).toEqual({
          kind: 'in_progress',
          retryAfterSeconds: 1,
        });
      } finally {
        await hold.release();
      }
      await quick.abandon('partner:h', 'live', first.lease);
      expect(await quick.begin('partner:h', 'live', fp)).toMatchObject({ kind: 'execute', resumed: true });
    });

    it('a run that lost its lease can neither renew nor end the new holder’s', async () => {
      const first = await quick.begin('partner:h', 'lost', fp);
      if (first.kind !== 'execute') throw new Error('unreachable');
      await sleep(2_000);
      const taker = await quick.begin('partner:h', 'lost', fp);
      if (taker.kind !== 'execute') throw new Error('unreachable');
      await quick.abandon('partner:h', 'lost', first.lease);
      expect((await quick.begin('partner:h', 'lost', fp)).kind).toBe('in_progress');
      // The stale run's renewals do not extend the taker's lease either.
      await quick.renew('partner:h', 'lost', first.lease);
      await sleep(2_000);
      expect((await quick.begin('partner:h', 'lost', fp)).kind).toBe('execute');
    });
  });

  it('only the run holding the command id completes the record', async () => {
    const first = await store.begin('partner:p1', 'k3', fp);
    if (first.kind !== 'execute') throw new Error('unreachable');
    await store.complete('partner:p1', 'k3', '00000000-0000-4000-8000-000000000000', {
      status: 200,
      headers: {},
      body: { wrong: true },
    });
    expect((await store.begin('partner:p1', 'k3', fp)).kind).toBe('in_progress');
  });

  it('treats a key older than 24 hours on the clock as fresh, and purges such records', async () => {
    const first = await store.begin('partner:p4', 'old', fp);
    if (first.kind !== 'execute') throw new Error('unreachable');
    await store.complete('partner:p4', 'old', first.commandId, { status: 200, headers: {}, body: 1 });
    clock.advance(24 * 3600 * 1000 - 1);
    expect((await store.begin('partner:p4', 'old', fp)).kind).toBe('replay');
    clock.advance(1);
    const other = fingerprintOf('POST', '/api/v1/x', { other: true });
    const fresh = await store.begin('partner:p4', 'old', other);
    expect(fresh).toMatchObject({ kind: 'execute', resumed: false });
    if (fresh.kind === 'execute') expect(fresh.commandId).not.toBe(first.commandId);

    clock.advance(25 * 3600 * 1000);
    expect(await store.purgeExpired()).toBeGreaterThan(0);
    const { rows } = await pool.query('select count(*)::int as n from platform.idempotency_records');
    expect(rows[0].n).toBe(0);
  });

  it('a platform-derived key keeps the command id its caller names, past the window too', async () => {
    const commandId = '5b1c3a9e-0d4f-5c2b-8a7e-1f2d3c4b5a69';
    const first = await store.begin('partner:p5', 'recurring:c:1', fp, { commandId });
    expect(first).toMatchObject({ kind: 'execute', commandId, resumed: false });
    if (first.kind !== 'execute') throw new Error('unreachable');
    // A run that died: the next one resumes under the same id, as a partner's retry does.
    await store.abandon('partner:p5', 'recurring:c:1', first.lease);
    expect(await store.begin('partner:p5', 'recurring:c:1', fp, { commandId })).toMatchObject({
      kind: 'execute',
      commandId,
      resumed: true,
    });
    // After the window the record is fresh, and still carries the named id.
    clock.advance(25 * 3600 * 1000);
    expect(await store.begin('partner:p5', 'recurring:c:1', fp, { commandId })).toMatchObject({
      kind: 'execute',
      commandId,
      resumed: false,
    });
  });

  it('fingerprints ignore JSON key order but not values, method or path', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(fingerprintOf('POST', '/p', { a: 1, b: 2 })).toBe(fingerprintOf('POST', '/p', { b: 2, a: 1 }));
    expect(fingerprintOf('POST', '/p', { a: 1 })).not.toBe(fingerprintOf('PUT', '/p', { a: 1 }));
    expect(fingerprintOf('POST', '/p', { a: 1 })).not.toBe(fingerprintOf('POST', '/q', { a: 1 }));
    expect(fingerprintOf('POST', '/p', { a: '1' })).not.toBe(fingerprintOf('POST', '/p', { a: 1 }));
  });
});
