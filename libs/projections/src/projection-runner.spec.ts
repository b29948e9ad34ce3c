import type { EntityManager } from 'typeorm';
import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import type { RecordedEvent } from '../../event-store/src';
import { UnknownProjection } from './errors';
import type { Projector } from './projector';
import { ProjectionHarness } from './testing/harness';
import { counter, noter, type Noted } from './testing/test-projectors';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = process.hrtime.bigint() + BigInt(timeoutMs) * 1_000_000n;
  while (!(await condition())) {
    if (process.hrtime.bigint() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** A connection-class error, as pg reports a serialization failure. */
const transientError = () => Object.assign(new Error('could not serialize access'), { code: '40001' });

describe('the projection runner', () => {
  let url: string;
  let h: ProjectionHarness;

  beforeEach(async () => {
    url = await createTestDatabase('projections');
    h = await ProjectionHarness.open(url);
  });

  afterEach(async () => {
    await h.close();
    await dropTestDatabase(url);
  });

  describe('rows and checkpoint', () => {
    it('catches up from the first event, then follows appends made after start', async () => {
      await h.note('s-1', 1, 2, 3);
      const runner = h.runner([noter(), counter()]);
      await runner.start();
      const position = await h.note('s-2', 4);

      expect(await runner.waitFor(position)).toBe(true);
      expect(await h.count('noted')).toBe(4);
      expect(await h.dataSource.query('select stream, total from counted order by stream')).toEqual([
        { stream: 's-1', total: 3 },
        { stream: 's-2', total: 1 },
      ]);
      expect((await h.storedCheckpoint('noter')).position).toBe(position);
    });

    it('commits neither rows nor checkpoint when a batch fails half-way, then applies it once', async () => {
      await h.note('s-t', 1, 2, 3, 4, 5);
      let failures = 0;
      const failsOnce = noter({
        async before(_tx: EntityManager, event: RecordedEvent) {
          if ((event.data as Noted).n === 4 && failures++ === 0) throw transientError();
        },
      });
      // Poll only: a wake-up (LISTEN connecting, say) could otherwise retry within the checks below.
      const runner = h.runner([failsOnce], { wakeUp: 'poll', pollIntervalMs: 1000, batchSize: 100 });
      await runner.start();
      await until(async () => (await runner.status())[0].last_error !== null);

      // Events 1-3 were written in the failed transaction: none of them, and no checkpoint, stayed.
      expect(await h.count('noted')).toBe(0);
      expect((await h.storedCheckpoint('noter')).position).toBe(0n);
      expect((await runner.status())[0]).toMatchObject({ state: 'catching_up', checkpoint: '0' });

      expect(await runner.waitFor(await h.store.headPosition())).toBe(true);
      expect(await h.count('noted')).toBe(5); // the primary key refuses a second application
      expect((await runner.status())[0]).toMatchObject({ state: 'running', last_error: null });
    });

    it('calls afterCommit with the transaction of each batch that committed, never of one rolled back', async () => {
      await h.note('s-c', 1, 2, 3);
      const seen: { tx: EntityManager; ns: number[] }[] = [];
      const committed: number[][] = [];
      let failures = 0;
      const base = noter({
        async before(tx: EntityManager, event: RecordedEvent) {
          const n = (event.data as Noted).n;
          const entry = seen.find((s) => s.tx === tx) ?? seen[seen.push({ tx, ns: [] }) - 1];
          entry.ns.push(n);
          if (n === 2 && failures++ === 0) throw transientError();
        },
      });
      const projector: Projector = {
        ...base,
        afterCommit: (tx) => committed.push(seen.find((s) => s.tx === tx)!.ns),
      };
      const runner = h.runner([projector], { wakeUp: 'poll', pollIntervalMs: 100, batchSize: 100 });
      await runner.start();
      expect(await runner.waitFor(await h.store.headPosition())).toBe(true);
      // The first transaction saw events 1 and 2, then rolled back: only the retry's commit counts.
      expect(seen.map((s) => s.ns)).toEqual([
        [1, 2],
        [1, 2, 3],
      ]);
      expect(committed).toEqual([[1, 2, 3]]);
    });

    it('resumes from its checkpoint after a restart, applying nothing twice', async () => {
      await h.note('s-r', 1, 2);
      const first = h.runner([noter(), counter()]);
      await first.start();
      expect(await first.waitFor(await h.store.headPosition())).toBe(true);
      await first.stop();

      await h.note('s-r', 3);
      const second = h.runner([noter(), counter()]);
      await second.start();
      expect(await second.waitFor(await h.store.headPosition())).toBe(true);
      expect(await h.count('noted')).toBe(3);
      expect(await h.dataSource.query('select total from counted')).toEqual([{ total: 3 }]);
    });

    it('skips events at or below the stored checkpoint, so two runners of one projector apply each event once', async () => {
      for (let i = 0; i < 10; i++) await h.note(`s-d${i % 3}`, ...Array.from({ length: 20 }, (_, k) => k));
      const a = h.runner([noter(), counter()], { batchSize: 7 });
      const b = h.runner([noter(), counter()], { batchSize: 11 });
      await Promise.all([a.start(), b.start()]);
      const head = await h.store.headPosition();

      expect(await a.waitFor(head)).toBe(true);
      expect(await b.waitFor(head)).toBe(true);
      expect(await h.count('noted')).toBe(200);
      expect(await h.dataSource.query('select stream, total from counted order by stream')).toEqual([
        { stream: 's-d0', total: 80 },
        { stream: 's-d1', total: 60 },
        { stream: 's-d2', total: 60 },
      ]);
    });

    it('moves the checkpoint past event types the projector ignores, so lag reaches zero', async () => {
      await h.append('other-1', 'Unrelated');
      const head = await h.append('other-1', 'AlsoUnrelated');
      const runner = h.runner([noter(), counter()]);
      await runner.start();

      expect(await runner.waitFor(head)).toBe(true);
      expect((await runner.status()).map((s) => [s.checkpoint, s.lag, s.behind_head])).toEqual([
        [head.toString(), 0, 0],
        [head.toString(), 0, 0],
      ]);
      expect(await h.count('noted')).toBe(0);
    });
  });

  describe('poison events', () => {
    it('stop only the projector that meets one, with the error and its position in the status', async () => {
      await h.note('s-p', 1, 2);
      const poison = await h.note('s-p', { n: 3, poison: true });
      const after = await h.note('s-p', 4);
      const runner = h.runner([noter(), counter()]);
      await runner.start();

      expect(await runner.waitFor(after, ['counter'])).toBe(true);
      expect(await runner.waitFor(after, ['noter'])).toBe(false); // at once: it will not get there
      const [noterStatus, counterStatus] = await runner.status();
      expect(noterStatus).toMatchObject({
        name: 'noter',
        state: 'failed',
        checkpoint: (poison - 1n).toString(), // what came before it is kept
        head: after.toString(),
        lag: 2,
        behind_head: 2,
        error_position: poison.toString(),
      });
      expect(noterStatus.last_error).toContain('cannot apply this one');
      expect(counterStatus).toMatchObject({ state: 'running', lag: 0, last_error: null });
      // The row the handler inserted before throwing went with its transaction.
      expect(await h.dataSource.query('select n from noted order by n')).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await h.storedCheckpoint('noter')).toEqual({
        position: poison - 1n,
        status: 'failed',
        error_position: poison.toString(),
      });
    });

    it('stop a batch right before the poison event: earlier rows kept, later ones not applied', async () => {
      await h.note('s-m', 1, 2, { n: 3, poison: true }, 4, 5);
      const runner = h.runner([noter()], { batchSize: 1000 });
      await runner.start();
      const head = await h.store.headPosition();

      expect(await runner.waitFor(head)).toBe(false);
      expect(await h.dataSource.query('select n from noted order by n')).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await h.storedCheckpoint('noter')).position).toBe(head - 3n);
    });

    it('are retried on restart, never skipped, and pass once the handler is fixed', async () => {
      const poison = await h.note('s-f', 1, { n: 2, poison: true });
      const first = h.runner([noter()]);
      await first.start();
      expect(await first.waitFor(poison)).toBe(false);
      await first.stop();

      const again = h.runner([noter()]);
      await again.start();
      expect(await again.waitFor(poison)).toBe(false);
      expect((await again.status())[0]).toMatchObject({ state: 'failed', error_position: poison.toString() });
      await again.stop();

      const fixed: Projector = {
        ...noter(),
        async handle(tx, event) {
          return noter().handle(tx, { ...event, data: { n: (event.data as Noted).n } });
        },
      };
      const third = h.runner([fixed]);
      await third.start();
      expect(await third.waitFor(poison)).toBe(true);
      expect((await third.status())[0]).toMatchObject({
        state: 'running',
        last_error: null,
        error_position: null,
      });
      expect(await h.count('noted')).toBe(2);
    });

    it('found by handleBatch are pinned down by retrying the batch one event at a time', async () => {
      const batchSizes: number[] = [];
      const batched: Projector = {
        ...noter(),
        async handle() {
          throw new Error('handle must not be used when handleBatch exists');
        },
        async handleBatch(tx, events) {
          batchSizes.push(events.length);
          for (const e of events) {
            const data = e.data as Noted;
            if (data.poison) throw new Error('bad row');
            await tx.query('insert into noted (event_id, stream, n) values ($1, $2, $3)', [
              e.id,
              e.stream,
              data.n,
            ]);
          }
        },
      };
      await h.note('b-1', 1, 2, 3);
      const poison = (await h.note('b-1', { n: 4, poison: true }, 5)) - 1n;
      const runner = h.runner([batched], { batchSize: 100 });
      await runner.start();

      expect(await runner.waitFor(poison + 1n)).toBe(false);
      expect(batchSizes[0]).toBe(5); // the first try is one set-based call for the whole batch
      expect((await runner.status())[0]).toMatchObject({
        state: 'failed',
        error_position: poison.toString(),
        checkpoint: (poison - 1n).toString(),
      });
      expect(await h.dataSource.query('select n from noted order by n')).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
      ]);
    });
  });

  describe('status and lag', () => {
    it('reports the stored checkpoint, the events still to apply and the distance to the head, also before start', async () => {
      await h.note('s-lag', 1, 2, 3, 4, 5);
      const head = await h.store.headPosition();
      const idle = h.runner([noter()]);
      expect(await idle.status()).toEqual([
        {
          name: 'noter',
          state: 'stopped',
          checkpoint: '0',
          head: head.toString(),
          lag: 5,
          behind_head: Number(head),
          last_error: null,
          error_position: null,
        },
      ]);

      const running = h.runner([noter()], { batchSize: 2 });
      await running.start();
      expect(await running.waitFor(head)).toBe(true);
      await running.stop();
      await h.note('s-lag', 6, 7);
      // A runner that was never started (the ops CLI) reads what the service did.
      expect((await h.runner([noter()]).status())[0]).toMatchObject({
        checkpoint: head.toString(),
        head: (head + 2n).toString(),
        lag: 2,
        behind_head: 2,
      });
    });

    it('counts as lag only the events of the projector’s own types, not those it ignores', async () => {
      const before = await h.store.headPosition();
      const running = h.runner([noter()]);
      await running.start();
      expect(await running.waitFor(before)).toBe(true);
      await running.stop();
      await h.append('other-lag', 'Unrelated');
      await h.note('s-lag2', 1);
      await h.append('other-lag', 'AlsoUnrelated');
      expect((await h.runner([noter()]).status())[0]).toMatchObject({ lag: 1, behind_head: 3 });
    });
  });

  describe('waitFor', () => {
    it('resolves once the append is projected, with its rows already readable', async () => {
      const runner = h.runner([noter(), counter()], { pollIntervalMs: 60_000 });
      await runner.start();
      for (let i = 0; i < 5; i++) {
        const position = await h.note('s-w', i);
        expect(await runner.waitFor(position, ['noter'])).toBe(true);
        expect(await h.count('noted')).toBe(i + 1);
      }
    });

    it('resolves false when the timeout passes first', async () => {
      const runner = h.runner([noter()]);
      await runner.start();
      const beyond = (await h.note('s-w', 1)) + 10n;
      const started = process.hrtime.bigint();

      expect(await runner.waitFor(beyond, ['noter'], 300)).toBe(false);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      expect(elapsedMs).toBeGreaterThanOrEqual(290);
      expect(elapsedMs).toBeLessThan(2000);
    });

    it('resolves false at once when the runner is not running, and throws for unknown names', async () => {
      const runner = h.runner([noter()]);
      expect(await runner.waitFor(1n, ['noter'], 60_000)).toBe(false);
      await expect(runner.waitFor(1n, ['nope'])).rejects.toBeInstanceOf(UnknownProjection);
    });
  });

  describe('stop', () => {
    it('stops at a batch boundary: the checkpoint always matches the rows', async () => {
      await h.note('s-stop', ...Array.from({ length: 600 }, (_, k) => k));
      // Slow enough that stop() lands mid-way through the catch-up.
      const runner = h.runner([noter({ before: async () => void (await sleep(1)) })], { batchSize: 20 });
      await runner.start();
      await runner.waitFor(40n, ['noter']);
      await runner.stop();

      const { position } = await h.storedCheckpoint('noter');
      const rows = await h.count('noted');
      expect(BigInt(rows)).toBe(position); // one row per event up to the checkpoint, none beyond
      expect(rows % 20).toBe(0); // whole batches only
      expect(rows).toBeLessThan(600);
      expect((await runner.status())[0]).toMatchObject({ state: 'stopped', checkpoint: position.toString() });

      await h.note('s-stop', 600);
      await sleep(300);
      expect(await h.count('noted')).toBe(rows); // nothing runs after stop
    });
  });
});
