import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { FixedClock } from '../../../platform/src/clock/clock';
import { hashOf, IdempotencyStore } from '../../../platform/src/idempotency/idempotency-store';
import { IdempotencyRecordTaken } from '../../../platform/src/idempotency/request-record';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import type { RecordedEvent } from '../event-store';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store';
import { testMetadata } from '../../../../test/support/metadata';

const metadata = testMetadata();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('PostgresEventStore', () => {
  let url: string;
  let pool: Pool;
  const clock = new FixedClock(new Date('2030-01-01T00:00:00Z'));
  const stores: PostgresEventStore[] = [];

  /** A store on a schema of its own, so positions start at 1 and nothing else writes to it. */
  async function freshStore(
    schema: string,
    pollIntervalMs = 100,
    options: PostgresEventStoreOptions = {},
  ): Promise<PostgresEventStore> {
    await PostgresEventStore.migrate(pool, { schema });
    const store = new PostgresEventStore(pool, clock, { schema, pollIntervalMs, ...options });
    stores.push(store);
    return store;
  }

  beforeAll(async () => {
    url = await createTestDatabase('event_store_pg');
    pool = new Pool({ connectionString: url, max: 16 });
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await pool.end();
    await dropTestDatabase(url);
  });

  describe('schema', () => {
    it('migrates idempotently, also when several processes start at once', async () => {
      await Promise.all(
        Array.from({ length: 4 }, () => PostgresEventStore.migrate(pool, { schema: 'racing' })),
      );
      await PostgresEventStore.migrate(pool, { schema: 'racing' });
      const { rows } = await pool.query(`select count(*)::int as n from racing.events`);
      expect(rows[0].n).toBe(0);
    });

    it('refuses schema names it would have to quote', async () => {
      await expect(PostgresEventStore.migrate(pool, { schema: 'x"; drop table y; --' })).rejects.toThrow(
        /invalid event store schema/,
      );
    });

    it('is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
      const store = await freshStore('append_only');
      await store.appendToStream('order-1', [{ type: 'Placed', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      await expect(pool.query(`update append_only.events set type = 'Changed'`)).rejects.toThrow(
        /append-only/,
      );
      await expect(pool.query(`delete from append_only.events`)).rejects.toThrow(/append-only/);
      await expect(pool.query(`truncate append_only.events`)).rejects.toThrow(/append-only/);
      expect(await store.readStream('order-1')).toHaveLength(1);
    });
  });

  describe('positions and revisions', () => {
    it('starts empty at head 0, and numbers positions from 1 in append order', async () => {
      const store = await freshStore('numbering');
      expect(await store.headPosition()).toBe(0n);
      expect(await store.readAll()).toEqual([]);
      const first = await store.appendToStream('a-1', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const second = await store.appendToStream(
        'b-1',
        [1, 2, 3].map((n) => ({ type: 'Y', data: { n } })),
        {
          expectedRevision: 'no_stream',
          metadata,
        },
      );
      expect(first).toEqual({ nextRevision: 0n, position: 1n });
      expect(second).toEqual({ nextRevision: 2n, position: 4n });
      expect((await store.readAll()).map((e) => e.globalPosition)).toEqual([1n, 2n, 3n, 4n]);
      expect(await store.headPosition()).toBe(4n);
    });

    it('handles revisions and positions beyond 2^53 as bigints', async () => {
      const store = await freshStore('big');
      const huge = 2n ** 62n;
      expect(await store.readStream('a-1', { fromRevision: huge })).toEqual([]);
      expect(await store.readAll({ fromPosition: huge })).toEqual([]);
      await store.appendToStream('a-1', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const error = await store
        .appendToStream('a-1', [{ type: 'X', data: {} }], { expectedRevision: huge, metadata })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ expected: huge, actual: 0n });
      await pool.query(`select setval('big.global_position_seq', $1)`, [String(huge)]);
      const { position } = await store.appendToStream('a-1', [{ type: 'X', data: {} }], {
        expectedRevision: 0n,
        metadata,
      });
      expect(position).toBe(huge + 1n);
      expect((await store.readAll({ fromPosition: huge }))[0].globalPosition).toBe(huge + 1n);
    });
  });

  describe('refusals', () => {
    let store: PostgresEventStore;
    beforeAll(async () => {
      store = await freshStore('refusals');
    });

    it('refuses an event id that is already stored, writing nothing', async () => {
      const id = randomUUID();
      await store.appendToStream('a-1', [{ id, type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const error = await store
        .appendToStream(
          'b-1',
          [
            { type: 'X', data: {} },
            { id, type: 'X', data: {} },
          ],
          { expectedRevision: 'no_stream', metadata },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidAppend);
      expect(await store.readStream('b-1')).toEqual([]);
    });

    it('refuses ids that are not UUIDs, data that is not JSON, and text jsonb cannot hold', async () => {
      const refused = (data: unknown, id?: string) =>
        store.appendToStream('c-1', [{ id, type: 'X', data }], { expectedRevision: 'any', metadata });
      await expect(refused({}, 'not-a-uuid')).rejects.toBeInstanceOf(InvalidAppend);
      await expect(refused({ amount: 10n })).rejects.toBeInstanceOf(InvalidAppend);
      await expect(refused(undefined)).rejects.toBeInstanceOf(InvalidAppend);
      await expect(refused({ text: 'nul \u0000 byte' })).rejects.toBeInstanceOf(InvalidAppend);
      expect(await store.readStream('c-1')).toEqual([]);
    });

    it('lets exactly one of eight appends racing on the same revision win', async () => {
      await store.appendToStream('race-1', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          store.appendToStream('race-1', [{ type: 'Y', data: { i } }], { expectedRevision: 0n, metadata }),
        ),
      );
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(lost).toHaveLength(7);
      for (const o of lost) {
        expect(o.reason).toBeInstanceOf(WrongExpectedRevision);
        expect(o.reason).toMatchObject({ expected: 0n, actual: 1n });
      }
      expect((await store.readStream('race-1')).map((e) => e.revision)).toEqual([0n, 1n]);
    });

    it("lets appends racing with 'any' all land, with consecutive revisions", async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.appendToStream('shared-1', [{ type: 'Y', data: { i } }], {
            expectedRevision: 'any',
            metadata,
          }),
        ),
      );
      expect(results.map((r) => r.nextRevision).sort()).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
      const stored = await store.readStream('shared-1');
      expect(stored.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
      expect(new Set(stored.map((e) => (e.data as { i: number }).i)).size).toBe(8);
    });
  });

  describe('gap-free global order', () => {
    it('does not return an event while an append with a lower position is still uncommitted', async () => {
      // Appends on their own transactions, as several processes' would be (one process's batches
      // take turns, so its own held batch would hold up the next one).
      const store = await freshStore('late_commit', 100, { groupCommit: false });
      await store.appendToStream('before-1', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      // A test-only trigger holds appends to `held-*` streams after they reserved their position,
      // on a lock this test owns: the real append path, paused just before its commit.
      await pool.query(`
        create function late_commit.hold() returns trigger language plpgsql as $$
        begin
          if new.stream_name like 'held-%' then perform pg_advisory_xact_lock_shared(4242); end if;
          return new;
        end $$;
        create trigger hold before insert on late_commit.events for each row execute function late_commit.hold();`);
      const gate = new Client({ connectionString: url });
      await gate.connect();
      try {
        await gate.query('select pg_advisory_lock(4242)');
        const slow = store.appendToStream('held-1', [{ type: 'Slow', data: {} }], {
          expectedRevision: 'no_stream',
          metadata,
        });
        await waitUntil(async () => {
          const { rows } = await pool.query(
            `select 1 from pg_locks where locktype = 'advisory' and objid = 4242 and not granted`,
          );
          return rows.length > 0;
        }, 'the held append to wait on the gate');

        const fast = await store.appendToStream('fast-1', [{ type: 'Fast', data: {} }], {
          expectedRevision: 'no_stream',
          metadata,
        });
        expect(fast.position).toBe(3n); // the held append took 2 and has not committed
        expect((await store.readStream('fast-1')).map((e) => e.type)).toEqual(['Fast']); // streams are not held back
        expect((await store.readAll()).map((e) => e.globalPosition)).toEqual([1n]);
        expect(await store.readAll({ fromPosition: 2n })).toEqual([]);
        expect(await store.headPosition()).toBe(1n);
        // What a reader that must see every answered write waits for: the fast append, committed.
        expect(await store.lastCommittedPosition()).toBe(3n);

        await gate.query('select pg_advisory_unlock(4242)');
        expect(await slow).toEqual({ nextRevision: 0n, position: 2n });
        expect((await store.readAll()).map((e) => [e.globalPosition, e.type])).toEqual([
          [1n, 'X'],
          [2n, 'Slow'],
          [3n, 'Fast'],
        ]);
        expect(await store.headPosition()).toBe(3n);
        expect(await store.lastCommittedPosition()).toBe(3n);
      } finally {
        await gate.end();
      }
    });

    it('skips positions of appends that rolled back', async () => {
      const store = await freshStore('rolled_back');
      await store.appendToStream('a-1', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`select rolled_back.reserve_positions(5)`);
        await client.query('rollback');
      } finally {
        client.release();
      }
      await store.appendToStream('a-1', [{ type: 'X', data: {} }], { expectedRevision: 0n, metadata });
      expect((await store.readAll()).map((e) => e.globalPosition)).toEqual([1n, 7n]);
      expect(await store.headPosition()).toBe(7n);
    });

    it('8 concurrent writers x 500 appends: a subscriber from position 1 sees every event once, in strictly increasing order', async () => {
      const store = await freshStore('proof', 200);
      // Writers on three stores of one schema, as on three processes: two committing in groups
      // (their batches overlap each other), one committing each append alone.
      const writersStores = [
        store,
        new PostgresEventStore(pool, clock, { schema: 'proof' }),
        new PostgresEventStore(pool, clock, { schema: 'proof', groupCommit: false }),
      ];
      stores.push(...writersStores.slice(1));
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event);
        if (seen.length % 97 === 0) await sleep(1); // let writers get ahead now and then
      });
      const written = new Set<string>();
      const writers = 8;
      const appendsEach = 500;
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const revisions = new Map<string, bigint>();
          for (let i = 0; i < appendsEach; i++) {
            const id = randomUUID();
            const event = [{ id, type: 'Proved', data: { writer: w, i } }];
            const on = writersStores[w % writersStores.length];
            if (i % 10 === 0) {
              // Every tenth append goes to a stream all writers share, so appends also contend.
              await on.appendToStream('shared-proof', event, { expectedRevision: 'any', metadata });
            } else {
              const stream = `writer${w}-${i % 3}`;
              const previous = revisions.get(stream);
              const result = await on.appendToStream(stream, event, {
                expectedRevision: previous ?? 'no_stream',
                metadata,
              });
              revisions.set(stream, result.nextRevision);
            }
            written.add(id);
          }
        }),
      );
      const head = await store.headPosition();
      await waitUntil(
        () => seen.length >= written.size && seen[seen.length - 1].globalPosition >= head,
        'the head',
      );
      await sleep(300); // anything delivered twice would arrive now
      await subscription.stop();

      expect(seen).toHaveLength(writers * appendsEach);
      for (let i = 1; i < seen.length; i++) {
        if (seen[i].globalPosition <= seen[i - 1].globalPosition) {
          throw new Error(`position ${seen[i].globalPosition} delivered after ${seen[i - 1].globalPosition}`);
        }
      }
      expect(new Set(seen.map((e) => e.id))).toEqual(written);
      expect(seen[seen.length - 1].globalPosition).toBe(head);
      await expect(subscription.done).resolves.toBeUndefined();

      // The invariant the read side relies on: position order is transaction-id order.
      const { rows } = await pool.query<{ inversions: number }>(`
          select count(*)::int as inversions from (
            select transaction_id < lag(transaction_id) over (order by global_position) as inverted
              from proof.events) as pairs
           where inverted`);
      expect(rows[0].inversions).toBe(0);
    }, 60_000);
  });

  describe('group commit', () => {
    /** Appends started together: the first is written at once, the others wait and share the next batch. */
    const together = <T>(calls: (() => Promise<T>)[]) => Promise.allSettled(calls.map((call) => call()));
    const transactionsOf = async (schema: string, streams: string[]): Promise<number> => {
      const { rows } = await pool.query<{ n: number }>(
        `select count(distinct transaction_id)::int as n from ${schema}.events where stream_name = any($1)`,
        [streams],
      );
      return rows[0].n;
    };

    it('writes concurrent appends in one statement and one commit, each answered with its own result', async () => {
      const store = await freshStore('grouped');
      const streams = Array.from({ length: 20 }, (_, i) => `grouped-${i}`);
      const results = await Promise.all(
        streams.map((stream, i) =>
          store.appendToStream(
            stream,
            [
              { type: 'X', data: { i } },
              { type: 'Y', data: { i } },
            ],
            {
              expectedRevision: 'no_stream',
              metadata,
            },
          ),
        ),
      );
      for (const [i, result] of results.entries()) {
        const events = await store.readStream(streams[i]);
        expect(result).toEqual({ nextRevision: 1n, position: events[1].globalPosition });
        expect(events.map((e) => e.data)).toEqual([{ i }, { i }]);
      }
      // The first went alone; the other nineteen shared one transaction.
      expect(await transactionsOf('grouped', streams)).toBe(2);
      const positions = (await store.readAll()).map((e) => e.globalPosition);
      expect(positions).toEqual(positions.map((_, i) => BigInt(i + 1)));
    });

    it('refuses a wrong expected revision to its own caller only; its batch commits the others', async () => {
      const store = await freshStore('grouped_refusal');
      await store.appendToStream('g-taken', [{ type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const outcomes = await together([
        () =>
          store.appendToStream('g-first', [{ type: 'X', data: {} }], {
            expectedRevision: 'no_stream',
            metadata,
          }),
        () =>
          store.appendToStream('g-a', [{ type: 'X', data: {} }], { expectedRevision: 'no_stream', metadata }),
        () =>
          store.appendToStream('g-taken', [{ type: 'Y', data: {} }], {
            expectedRevision: 'no_stream',
            metadata,
          }),
        () =>
          store.appendToStream('g-b', [{ type: 'X', data: {} }], { expectedRevision: 'no_stream', metadata }),
        // Two items on one stream in one batch: the second sees the first.
        () => store.appendToStream('g-a', [{ type: 'Z', data: {} }], { expectedRevision: 0n, metadata }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      const refused = (outcomes[2] as PromiseRejectedResult).reason;
      expect(refused).toBeInstanceOf(WrongExpectedRevision);
      expect(refused).toMatchObject({ expected: 'no_stream', actual: 0n });
      expect((await store.readStream('g-taken')).map((e) => e.type)).toEqual(['X']);
      expect((await store.readStream('g-a')).map((e) => e.type)).toEqual(['X', 'Z']);
      expect(await transactionsOf('grouped_refusal', ['g-a', 'g-b'])).toBe(1);
    });

    it('an item that breaks the batch (an event id already stored) fails alone; the others are written', async () => {
      const store = await freshStore('grouped_split');
      const id = randomUUID();
      await store.appendToStream('s-0', [{ id, type: 'X', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      const outcomes = await together([
        () =>
          store.appendToStream('s-first', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
        () => store.appendToStream('s-1', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
        () =>
          store.appendToStream('s-2', [{ id, type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
        () => store.appendToStream('s-3', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidAppend);
      expect(await store.readStream('s-2')).toEqual([]);
      expect((await store.readStream('s-3')).map((e) => e.type)).toEqual(['X']);
    });

    it("writes a request's idempotency record with its append; a twin's append finds the key taken and writes nothing", async () => {
      const store = await freshStore('grouped_records');
      await IdempotencyStore.migrate(pool);
      const records = new IdempotencyStore(pool, clock, { joinsAppends: true });
      const begin = (key: string) =>
        records.beginWrite('partner:p', key, randomUUID(), 'fingerprint', randomUUID());
      const twinKey = randomUUID();
      const outcomes = await together([
        () =>
          store.appendToStream('r-first', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
        () =>
          store.appendToStream('r-1', [{ type: 'X', data: {} }], {
            expectedRevision: 'no_stream',
            metadata,
            record: begin(twinKey),
          }),
        () =>
          store.appendToStream('r-2', [{ type: 'X', data: {} }], {
            expectedRevision: 'no_stream',
            metadata,
            record: begin(twinKey),
          }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyRecordTaken);
      expect(await store.readStream('r-2')).toEqual([]);
      expect(await records.lookup('partner:p', twinKey, 'fingerprint')).toMatchObject({
        kind: 'in_progress',
      });
      // The record came with r-1's events: one transaction wrote both.
      const { rows } = await pool.query<{ same: boolean }>(
        `select r.xmin::text = (e.transaction_id::text::bigint % 4294967296)::text as same
           from platform.idempotency_records r, grouped_records.events e
          where e.stream_name = 'r-1' and r.key_hash = $1`,
        [hashOf('partner:p', twinKey)],
      );
      expect(rows).toEqual([{ same: true }]);
      // Committed before: refused the same way.
      await expect(
        store.appendToStream('r-3', [{ type: 'X', data: {} }], {
          expectedRevision: 'no_stream',
          metadata,
          record: begin(twinKey),
        }),
      ).rejects.toBeInstanceOf(IdempotencyRecordTaken);
    });

    it('a batch that fails (its connection killed mid-statement) fails every append in it, writing none', async () => {
      const store = await freshStore('grouped_failure');
      // Another transaction holds the lock of stream f-held, so the batch appending to it waits.
      const holder = await pool.connect();
      try {
        await holder.query('begin');
        await holder.query(`select pg_advisory_xact_lock($1, hashtext('f-held'))`, [0x45565353]);
        const outcomes = together([
          () =>
            store.appendToStream('f-first', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
          () =>
            store.appendToStream('f-held', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
          () =>
            store.appendToStream('f-other', [{ type: 'X', data: {} }], { expectedRevision: 'any', metadata }),
        ]);
        let waiting: number[] = [];
        await waitUntil(async () => {
          const { rows } = await pool.query<{ pid: number }>(
            `select pid from pg_stat_activity where wait_event_type = 'Lock' and query like '%append_batch%'`,
          );
          waiting = rows.map((r) => r.pid);
          return waiting.length === 1;
        }, 'the batch to wait on the lock');
        await pool.query('select pg_terminate_backend($1)', [waiting[0]]);
        const settled = await outcomes;
        expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
        for (const failed of settled.slice(1) as PromiseRejectedResult[]) {
          expect(failed.reason).not.toBeInstanceOf(WrongExpectedRevision);
          expect(String(failed.reason)).toMatch(/terminat/i);
        }
      } finally {
        await holder.query('rollback');
        holder.release();
      }
      expect(await store.readStream('f-held')).toEqual([]);
      expect(await store.readStream('f-other')).toEqual([]);
      // The store goes on: the next appends are written.
      await store.appendToStream('f-other', [{ type: 'Y', data: {} }], {
        expectedRevision: 'no_stream',
        metadata,
      });
      expect((await store.readStream('f-other')).map((e) => e.type)).toEqual(['Y']);
    });
  });

  describe('subscriptions', () => {
    it('NOTIFYs the appended types in the append transaction: with its commit, never for a refused append', async () => {
      const store = await freshStore('notified');
      const listen = new Client({ connectionString: url });
      await listen.connect();
      const heard: string[] = [];
      listen.on('notification', (message) => heard.push(message.payload ?? ''));
      try {
        await listen.query('listen notified_appended');
        await store.appendToStream(
          'n-1',
          ['Opened', 'Noted', 'Opened'].map((type) => ({ type, data: {} })),
          { expectedRevision: 'no_stream', metadata },
        );
        await expect(
          store.appendToStream('n-1', [{ type: 'Refused', data: {} }], {
            expectedRevision: 'no_stream',
            metadata,
          }),
        ).rejects.toBeInstanceOf(WrongExpectedRevision);
        await waitUntil(() => heard.length > 0, 'the notification');
        await sleep(100); // a second one would arrive now
        expect(heard).toEqual(['Noted,Opened']);
      } finally {
        await listen.end();
      }
    });

    it('finds events whose notification was lost, by polling', async () => {
      const store = await freshStore('lost_notify', 50);
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event.type);
      });
      try {
        await sleep(100); // caught up and listening
        // An event written the way append() writes it (positions reserved first), minus its NOTIFY.
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query(
            `insert into lost_notify.events
               (global_position, stream_name, revision, event_id, type, data, metadata, recorded_at, transaction_id)
             select r.first_position, 'quiet-1', 0, $1, 'Quiet', '{}', $2, now(), r.transaction_id
               from lost_notify.reserve_positions(1) as r`,
            [randomUUID(), JSON.stringify(metadata)],
          );
          await client.query('commit');
        } finally {
          client.release();
        }
        await waitUntil(() => seen.length === 1, 'the polled event', 2_000);
        expect(seen).toEqual(['Quiet']);
      } finally {
        await subscription.stop();
      }
    });

    it('keeps delivering after its LISTEN connection is killed', async () => {
      const store = await freshStore('relisten', 50);
      const seen: bigint[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event.revision);
      });
      try {
        await sleep(100);
        await pool.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen relisten_appended'`,
        );
        for (let i = 0; i < 3; i++) {
          await store.appendToStream('after-1', [{ type: 'X', data: {} }], {
            expectedRevision: 'any',
            metadata,
          });
        }
        await waitUntil(() => seen.length === 3, 'events after the listener died', 3_000);
        expect(seen).toEqual([0n, 1n, 2n]);
        await waitUntil(async () => {
          const { rows } = await pool.query(
            `select 1 from pg_stat_activity where query = 'listen relisten_appended'`,
          );
          return rows.length === 1;
        }, 'a new LISTEN connection');
      } finally {
        await subscription.stop();
      }
    });

    it('close() stops its subscriptions and leaves the pool to its owner', async () => {
      await PostgresEventStore.migrate(pool, { schema: 'closing' });
      const store = new PostgresEventStore(pool, clock, { schema: 'closing', pollIntervalMs: 50 });
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async () => undefined);
      await sleep(100);
      await store.close();
      await expect(subscription.done).resolves.toBeUndefined();
      expect(() => store.subscribeToAll({ fromPosition: 1n }, async () => undefined)).toThrow(/closed/);
      // The LISTEN connection is closed; its server process leaves pg_stat_activity a moment later.
      await waitUntil(async () => {
        const { rows } = await pool.query(
          `select count(*)::int as n from pg_stat_activity where query = 'listen closing_appended'`,
        );
        return rows[0].n === 0;
      }, 'the LISTEN connection to end');
      expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
    });
  });
});
