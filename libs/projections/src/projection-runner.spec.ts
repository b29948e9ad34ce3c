import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import type { EventMetadata, RecordedEvent } from '../../event-store/src';
import { PostgresEventStore } from '../../event-store/src/postgres/postgres-event-store';
import { FixedClock } from '../../platform/src/clock/clock';
import { createDataSource, runMigrations } from '../../platform/src/database/data-source';
import {
  PROJECTION_ENGINE_ENTITIES,
  PROJECTION_ENGINE_MIGRATIONS,
  ProjectionRunner,
  type Projector,
} from './index';

const metadata: EventMetadata = {
  actor: 'system:test',
  partner_id: null,
  request_id: null,
  idempotency_key: null,
  causation_id: null,
  correlation_id: null,
};

class TestTables1763800000001 implements MigrationInterface {
  name = 'TestTables1763800000001';
  async up(db: QueryRunner): Promise<void> {
    // Primary key on the event id: applying an event twice would fail loudly.
    await db.query(
      'create table noted (event_id uuid primary key, stream text not null, n integer not null)',
    );
    await db.query('create table counted (stream text primary key, total integer not null)');
  }
  async down(): Promise<void> {}
}

/** Writes one row per `Noted` event; throws on `{ poison: true }`. */
const noter = (): Projector => ({
  name: 'noter',
  eventTypes: ['Noted'],
  tables: ['noted'],
  async handle(tx: EntityManager, e: RecordedEvent) {
    const data = e.data as { n: number; poison?: boolean };
    await tx.query('insert into noted (event_id, stream, n) values ($1, $2, $3)', [e.id, e.stream, data.n]);
    if (data.poison) throw new Error('cannot apply this one');
  },
});

const counter = (): Projector => ({
  name: 'counter',
  eventTypes: ['Noted'],
  tables: ['counted'],
  async handle(tx: EntityManager, e: RecordedEvent) {
    await tx.query(
      `insert into counted (stream, total) values ($1, 1) on conflict (stream) do update set total = counted.total + 1`,
      [e.stream],
    );
  },
});

describe('the projection runner', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  let dataSource: DataSource;
  const runners: ProjectionRunner[] = [];

  const runner = (projectors: Projector[] = [noter(), counter()], batchSize = 50) => {
    const r = new ProjectionRunner({ store, dataSource, projectors, pollIntervalMs: 200, batchSize });
    runners.push(r);
    return r;
  };

  async function note(stream: string, ...ns: (number | { n: number; poison: true })[]): Promise<bigint> {
    const events = ns.map((n) => ({ type: 'Noted', data: typeof n === 'number' ? { n } : n }));
    const result = await store.appendToStream(stream, events, { expectedRevision: 'any', metadata });
    return result.position;
  }

  const rows = async (table: string): Promise<number> =>
    Number((await dataSource.query(`select count(*) as n from ${table}`))[0].n);

  beforeEach(async () => {
    url = await createTestDatabase('projections');
    pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    store = new PostgresEventStore(pool, new FixedClock(new Date('2026-11-01T00:00:00Z')), {
      pollIntervalMs: 100,
    });
    dataSource = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, TestTables1763800000001],
    });
    await dataSource.initialize();
    await runMigrations(dataSource);
  });

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await store.close();
    await dataSource.destroy();
    await pool.end();
    await dropTestDatabase(url);
  });

  it('applies the migrations once, even when two processes start together', async () => {
    const other = createDataSource(url, {
      entities: [],
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, TestTables1763800000001],
    });
    await other.initialize();
    const [a, b] = await Promise.all([runMigrations(other), runMigrations(dataSource)]);
    await other.destroy();
    expect([...a, ...b]).toEqual([]); // both already applied in beforeEach, nothing twice
    expect(Number((await dataSource.query('select count(*) as n from read_model_migrations'))[0].n)).toBe(2);
  });

  it('catches up from zero, then follows live appends; checkpoints reach the head', async () => {
    await note('s-1', 1, 2, 3);
    const r = runner();
    await r.start();
    const position = await note('s-2', 4);
    expect(await r.waitFor(position)).toBe(true);
    expect(await rows('noted')).toBe(4);
    expect(await dataSource.query('select stream, total from counted order by stream')).toEqual([
      { stream: 's-1', total: 3 },
      { stream: 's-2', total: 1 },
    ]);
    const status = await r.status();
    expect(status.map((s) => [s.name, s.checkpoint, s.lag])).toEqual([
      ['noter', position.toString(), '0'],
      ['counter', position.toString(), '0'],
    ]);
  });

  it('advances past event types it does not handle, so lag reaches zero', async () => {
    await store.appendToStream('other-1', [{ type: 'Unrelated', data: {} }], {
      expectedRevision: 'any',
      metadata,
    });
    const head = await store.headPosition();
    const r = runner();
    await r.start();
    expect(await r.waitFor(head)).toBe(true);
    expect((await r.status()).every((s) => s.lag === '0')).toBe(true);
  });

  it('reports lag as head minus checkpoint while a projector is behind', async () => {
    const r = runner([noter()]);
    await note('s-lag', 1, 2, 3, 4, 5);
    const [before] = await r.status(); // not started: checkpoint 0
    expect(before).toMatchObject({ checkpoint: '0', lag: (await store.headPosition()).toString() });
  });

  it('resumes from its checkpoint after a restart, applying nothing twice', async () => {
    await note('s-r', 1, 2);
    const first = runner();
    await first.start();
    expect(await first.waitFor(await store.headPosition())).toBe(true);
    await first.stop();
    await note('s-r', 3);
    const second = runner();
    await second.start();
    expect(await second.waitFor(await store.headPosition())).toBe(true);
    expect(await rows('noted')).toBe(3); // the primary key would have refused a re-application
    expect((await dataSource.query(`select total from counted`))[0].total).toBe(3);
  });

  it('stops only the projector that meets a poison event, with the error and position in its status', async () => {
    await note('s-p', 1, 2);
    const poison = await note('s-p', { n: 3, poison: true });
    const after = await note('s-p', 4);
    const r = runner();
    await r.start();
    expect(await r.waitFor(after, ['counter'])).toBe(true);
    expect(await r.waitFor(after, ['noter'], 2000)).toBe(false);
    const noterStatus = (await r.status()).find((s) => s.name === 'noter')!;
    expect(noterStatus).toMatchObject({
      state: 'failed',
      checkpoint: (poison - 1n).toString(), // what came before the poison is kept
      error_position: poison.toString(),
    });
    expect(noterStatus.last_error).toContain('cannot apply this one');
    // The poison event's own row was rolled back with its transaction: rows and checkpoint agree.
    expect(await rows('noted')).toBe(2);
    const [row] = await dataSource.query(
      `select status, error_position from projection_checkpoints where name = 'noter'`,
    );
    expect(row).toEqual({ status: 'failed', error_position: poison.toString() });
    expect((await dataSource.query(`select total from counted`))[0].total).toBe(4);
  });

  it('never advances the checkpoint without the rows: a failure mid-batch writes neither', async () => {
    await note('s-m', 1, { n: 2, poison: true }, 3);
    const r = runner([noter()], 1000);
    await r.start();
    await r.waitFor(await store.headPosition(), ['noter'], 2000);
    const [cp] = await dataSource.query(`select position from projection_checkpoints where name = 'noter'`);
    const applied = await dataSource.query('select n from noted order by n');
    expect(applied).toEqual([{ n: 1 }]);
    expect(BigInt(cp.position)).toBe((await store.readStream('s-m'))[0].globalPosition);
  });

  it('rebuilds into fresh tables and swaps them in while reads keep answering', async () => {
    for (let i = 0; i < 20; i++) await note(`s-b${i % 4}`, ...Array.from({ length: 25 }, (_, k) => k));
    const r = runner([noter(), counter()], 50);
    await r.start();
    expect(await r.waitFor(await store.headPosition())).toBe(true);
    const before = await dataSource.query('select stream, total from counted order by stream');
    // Damage the live read model: a rebuild must recreate it purely from the events.
    await dataSource.query(`update counted set total = -1`);

    let readsDuringRebuild = 0;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const result = await dataSource.query('select count(*) as n from counted');
        expect(Number(result[0].n)).toBe(4);
        readsDuringRebuild++;
      }
    })();
    const rebuilding = r.rebuild('counter');
    const late = await note('s-b0', 99); // an append while rebuilding is not lost
    await rebuilding;
    reading = false;
    await reader;

    expect(readsDuringRebuild).toBeGreaterThan(0);
    expect(await r.waitFor(late, ['counter'])).toBe(true);
    const after = await dataSource.query('select stream, total from counted order by stream');
    expect(after).toEqual(
      before.map((row: { stream: string; total: number }) =>
        row.stream === 's-b0' ? { ...row, total: row.total + 1 } : row,
      ),
    );
    const schemas = await dataSource.query(`select nspname from pg_namespace where nspname like 'rebuild_%'`);
    expect(schemas).toEqual([]);
  });

  it('a rebuild clears a failed projector once its bug is fixed', async () => {
    await note('s-f', 1, { n: 2, poison: true });
    let broken = true;
    const flaky: Projector = {
      ...noter(),
      async handle(tx, e) {
        if (broken && (e.data as { poison?: boolean }).poison) throw new Error('bug');
        await tx.query('insert into noted (event_id, stream, n) values ($1, $2, $3)', [
          e.id,
          e.stream,
          (e.data as { n: number }).n,
        ]);
      },
    };
    const r = runner([flaky]);
    await r.start();
    expect(await r.waitFor(await store.headPosition(), ['noter'], 2000)).toBe(false);
    broken = false;
    await r.rebuild('noter');
    const next = await note('s-f', 3);
    expect(await r.waitFor(next, ['noter'])).toBe(true);
    expect((await r.status())[0]).toMatchObject({ state: 'running', last_error: null, error_position: null });
    expect(await rows('noted')).toBe(3);
  });

  it('stops at a batch boundary: the checkpoint always matches the rows', async () => {
    await note(`s-${randomUUID()}`, ...Array.from({ length: 500 }, (_, k) => k));
    const r = runner([noter()], 20);
    await r.start();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await r.stop();
    const [cp] = await dataSource.query(`select position from projection_checkpoints where name = 'noter'`);
    const [count] = await dataSource.query(
      `select count(*) as n from noted n join event_store.events e on e.event_id = n.event_id where e.global_position <= $1`,
      [cp.position],
    );
    expect(Number(count.n)).toBe(await rows('noted'));
    expect((await r.status())[0].state).toBe('stopped');
  });
});

describe('set-based projectors', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    url = await createTestDatabase('projections_batch');
    pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    store = new PostgresEventStore(pool, new FixedClock(new Date('2026-11-01T00:00:00Z')));
    dataSource = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, TestTables1763800000001],
    });
    await dataSource.initialize();
    await runMigrations(dataSource);
  });
  afterAll(async () => {
    await store.close();
    await dataSource.destroy();
    await pool.end();
    await dropTestDatabase(url);
  });

  it('applies whole batches through handleBatch, and pinpoints the poison event when a batch fails', async () => {
    const batchCalls: number[] = [];
    const batched: Projector = {
      ...noter(),
      async handle() {
        throw new Error('handle must not be used when handleBatch exists');
      },
      async handleBatch(tx, events) {
        batchCalls.push(events.length);
        for (const e of events) {
          const data = e.data as { n: number; poison?: boolean };
          if (data.poison) throw new Error('bad row');
          await tx.query('insert into noted (event_id, stream, n) values ($1, $2, $3)', [e.id, e.stream, data.n]);
        }
      },
    };
    const events = [1, 2, 3].map((n) => ({ type: 'Noted', data: { n } }));
    await store.appendToStream('b-1', events, { expectedRevision: 'any', metadata });
    const poison = await store.appendToStream('b-1', [{ type: 'Noted', data: { n: 4, poison: true } }, { type: 'Noted', data: { n: 5 } }], {
      expectedRevision: 'any',
      metadata,
    });
    const r = new ProjectionRunner({ store, dataSource, projectors: [batched], pollIntervalMs: 100, batchSize: 100 });
    await r.start();
    expect(await r.waitFor(poison.position, ['noter'], 2000)).toBe(false);
    await r.stop();
    expect(batchCalls[0]).toBe(5); // the first try is one set-based call for the whole batch
    const [status] = await r.status();
    expect(status).toMatchObject({ state: 'failed', error_position: (poison.position - 1n).toString(), checkpoint: (poison.position - 2n).toString() });
    expect(await dataSource.query('select n from noted order by n')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
