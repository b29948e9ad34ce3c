import type { EntityManager } from 'typeorm';
import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import { PoisonEvent, RebuildAborted, RebuildInProgress } from './errors';
import type { ProjectionRunner } from './projection-runner';
import type { Projector } from './projector';
import { ProjectionHarness } from './testing/harness';
import { counter, inShadow, noter, type Noted } from './testing/test-projectors';

/** Holds a rebuild inside its first shadow batch, before it writes anything, until released. */
class Gate {
  readonly reached: Promise<void>;
  private arrive!: () => void;
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));

  constructor() {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
  }

  readonly before = async (tx: EntityManager): Promise<void> => {
    if (!(await inShadow(tx))) return;
    this.arrive();
    await this.opened;
  };

  release(): void {
    this.open();
  }
}

describe('rebuild and swap', () => {
  let url: string;
  let h: ProjectionHarness;

  beforeEach(async () => {
    url = await createTestDatabase('projections_rebuild');
    h = await ProjectionHarness.open(url);
  });

  afterEach(async () => {
    await h.close();
    await dropTestDatabase(url);
  });

  async function projected(projectors: Projector[]): Promise<ProjectionRunner> {
    const runner = h.runner(projectors);
    await runner.start();
    expect(await runner.waitFor(await h.store.headPosition())).toBe(true);
    return runner;
  }

  const counts = (): Promise<{ stream: string; total: number }[]> =>
    h.dataSource.query('select stream, total from counted order by stream');

  const shadowSchemas = async (): Promise<unknown[]> =>
    h.dataSource.query(`select nspname from pg_namespace where nspname like 'rebuild\\_%'`);

  it('serves reads from the old tables during the rebuild and from the rebuilt ones after the swap', async () => {
    for (let i = 0; i < 20; i++) await h.note(`s-b${i % 4}`, ...Array.from({ length: 25 }, (_, k) => k));
    const gate = new Gate();
    const runner = await projected([noter(), counter({ before: gate.before })]);
    const live = await counts();
    expect(live.map((r) => r.total)).toEqual([125, 125, 125, 125]);
    // Damage the live rows: what the rebuild swaps in can only come from the events.
    await h.dataSource.query('update counted set total = -1');

    const rebuilding = runner.rebuild('counter');
    await gate.reached;
    expect((await runner.status()).find((s) => s.name === 'counter')?.state).toBe('rebuilding');
    expect((await counts()).map((r) => r.total)).toEqual([-1, -1, -1, -1]);
    // The live projector keeps following appends into the old tables meanwhile.
    const late = await h.note('s-b0', 99);
    expect(await runner.waitFor(late, ['counter'])).toBe(true);
    expect((await counts()).map((r) => r.total)).toEqual([0, -1, -1, -1]);

    const seen = new Set<string>();
    let reading = true;
    const reader = (async () => {
      while (reading) seen.add(JSON.stringify((await counts()).map((r) => r.total)));
    })();
    gate.release();
    await rebuilding;
    reading = false;
    await reader;

    // Every read saw either the whole old read model or the whole new one, never an error or a mix.
    expect([...seen].every((s) => s === '[0,-1,-1,-1]' || s === '[126,125,125,125]')).toBe(true);
    expect(seen.has('[0,-1,-1,-1]')).toBe(true);
    expect(await counts()).toEqual(live.map((r) => (r.stream === 's-b0' ? { ...r, total: 126 } : r)));
    expect(await shadowSchemas()).toEqual([]);
    const after = await h.note('s-b1', 1);
    expect(await runner.waitFor(after, ['counter'])).toBe(true);
    expect((await runner.status()).find((s) => s.name === 'counter')).toMatchObject({
      state: 'running',
      checkpoint: after.toString(),
      lag: 0,
    });
  });

  it('yields rows identical to the live projection, keeping index names and serial columns', async () => {
    for (let i = 0; i < 6; i++) await h.note(`s-i${i % 2}`, ...Array.from({ length: 30 }, (_, k) => k));
    await h.append('s-x', 'Unrelated');
    const runner = await projected([noter()]);
    const rows = () => h.dataSource.query('select event_id, stream, n from noted order by event_id');
    const indexes = () =>
      h.dataSource.query(`select indexname from pg_indexes where tablename = 'noted' order by indexname`);
    const before = await rows();
    const indexesBefore = await indexes();
    expect(indexesBefore).toEqual([{ indexname: 'noted_by_stream' }, { indexname: 'noted_pkey' }]);

    await runner.rebuild('noter');

    expect(await rows()).toEqual(before);
    expect(await indexes()).toEqual(indexesBefore);
    const [{ sequence }] = await h.dataSource.query(
      `select pg_get_serial_sequence('noted', 'entry') as sequence`,
    );
    expect(sequence).toBe('public.noted_entry_seq');
    const next = await h.note('s-i0', 1000); // the live loop inserts into the swapped-in table
    expect(await runner.waitFor(next, ['noter'])).toBe(true);
    expect(await h.count('noted')).toBe(before.length + 1);
  });

  it('recreates the views over the swapped tables (a view of a view too) and gives their grants again', async () => {
    for (let i = 0; i < 4; i++) await h.note(`s-v${i % 2}`, ...Array.from({ length: 10 }, (_, k) => k));
    const runner = await projected([noter(), counter()]);
    const role = `rebuild_reader_${url.slice(-8)}`;
    await h.dataSource.query(`create role ${role} nologin`);
    try {
      await h.dataSource.query('create schema reports');
      await h.dataSource.query(
        `create view reports.by_stream as
           select n.stream, count(*) as notes, max(c.total) as total
             from noted n join counted c on c.stream = n.stream group by n.stream`,
      );
      await h.dataSource.query(
        'create view reports.busiest as select stream from reports.by_stream where notes > 5',
      );
      await h.dataSource.query(`grant usage on schema reports to ${role}`);
      await h.dataSource.query(`grant select on noted, reports.by_stream, reports.busiest to ${role}`);
      const read = () => h.dataSource.query('select * from reports.by_stream order by stream');
      const privileges = () =>
        h.dataSource.query(
          `select table_schema, table_name, privilege_type from information_schema.role_table_grants
            where grantee = $1 order by 1, 2, 3`,
          [role],
        );
      const before = await read();
      const grantsBefore = await privileges();
      expect(before).toHaveLength(2);

      await runner.rebuild('noter');
      await runner.rebuild('counter');

      expect(await read()).toEqual(before);
      expect(await h.dataSource.query('select * from reports.busiest order by stream')).toHaveLength(2);
      expect(await privileges()).toEqual(grantsBefore);
      expect(await shadowSchemas()).toEqual([]);
    } finally {
      await h.dataSource.query('drop schema if exists reports cascade');
      await h.dataSource.query(`drop owned by ${role}`);
      await h.dataSource.query(`drop role ${role}`);
    }
  });

  it('clears a failed projector once its handler is fixed, and it follows appends again', async () => {
    const poison = await h.note('s-f', 1, { n: 2, poison: true });
    let fixed = false;
    const noterUntilFixed: Projector = {
      ...noter(),
      handle: (tx, event) =>
        noter().handle(tx, fixed ? { ...event, data: { n: (event.data as Noted).n } } : event),
    };
    const runner = h.runner([noterUntilFixed]);
    await runner.start();
    expect(await runner.waitFor(poison)).toBe(false);
    expect((await runner.status())[0]).toMatchObject({ state: 'failed', error_position: poison.toString() });

    fixed = true;
    await runner.rebuild('noter');
    const next = await h.note('s-f', 3);
    expect(await runner.waitFor(next)).toBe(true);
    expect((await runner.status())[0]).toMatchObject({
      state: 'running',
      last_error: null,
      error_position: null,
    });
    expect(await h.storedCheckpoint('noter')).toEqual({
      position: next,
      status: 'running',
      error_position: null,
    });
    expect(await h.count('noted')).toBe(3);
  });

  it('leaves the live tables and checkpoint untouched when the rebuild meets a poison event', async () => {
    await h.note('s-p', 1, 2);
    const runner = await projected([noter()]);
    await h.dataSource.query('update noted set n = n + 100');
    const poison = await h.note('s-p', { n: 3, poison: true });
    expect(await runner.waitFor(poison)).toBe(false);

    const failure = await runner.rebuild('noter').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PoisonEvent);
    expect((failure as PoisonEvent).event.globalPosition).toBe(poison);
    expect(await h.dataSource.query('select n from noted order by n')).toEqual([{ n: 101 }, { n: 102 }]);
    expect((await runner.status())[0]).toMatchObject({
      state: 'failed',
      checkpoint: (poison - 1n).toString(),
      error_position: poison.toString(),
    });
    expect(await shadowSchemas()).toEqual([]);
  });

  it('refuses a second rebuild of the same projection, in this runner or another process', async () => {
    await h.note('s-2', 1, 2, 3);
    const gate = new Gate();
    const runner = await projected([counter({ before: gate.before })]);
    const first = runner.rebuild('counter');
    await gate.reached;

    await expect(runner.rebuild('counter')).rejects.toBeInstanceOf(RebuildInProgress);
    const otherProcess = h.runner([counter()]);
    await expect(otherProcess.rebuild('counter')).rejects.toBeInstanceOf(RebuildInProgress);
    gate.release();
    await first;
    await otherProcess.rebuild('counter'); // free again once the first is done
    expect(await counts()).toEqual([{ stream: 's-2', total: 3 }]);
  });

  it('is aborted by stop() at a batch boundary, leaving the live tables in place', async () => {
    await h.note('s-s', 1, 2, 3);
    const gate = new Gate();
    const runner = await projected([counter({ before: gate.before })]);
    const rebuilding = runner.rebuild('counter').catch((error: unknown) => error);
    await gate.reached;

    const stopped = runner.stop();
    gate.release();
    await stopped;
    expect(await rebuilding).toBeInstanceOf(RebuildAborted);
    expect(await counts()).toEqual([{ stream: 's-s', total: 3 }]);
    expect(await shadowSchemas()).toEqual([]);
  });

  it('works from a runner that was never started, as the ops CLI runs it', async () => {
    await h.note('s-o', 1, 2);
    const service = await projected([counter()]);
    await service.stop();
    await h.dataSource.query('update counted set total = 0');
    const head = await h.note('s-o', 3);

    const ops = h.runner([counter()]);
    await ops.rebuild('counter');
    expect(await counts()).toEqual([{ stream: 's-o', total: 3 }]);
    expect(await ops.status()).toEqual([
      expect.objectContaining({ state: 'stopped', checkpoint: head.toString(), lag: 0 }),
    ]);
  });
});
