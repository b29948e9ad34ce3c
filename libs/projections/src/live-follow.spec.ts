import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import { LISTENER_APPLICATION_NAME } from './append-listener';
import { ProjectionHarness } from './testing/harness';
import { noter } from './testing/test-projectors';

// Long enough that anything projected within the test's waits was woken by something else.
const NEVER = 60_000;

describe('following appends live', () => {
  let url: string;
  let h: ProjectionHarness;

  beforeAll(async () => {
    url = await createTestDatabase('projections_live');
    h = await ProjectionHarness.open(url);
  });

  afterAll(async () => {
    await h.close();
    await dropTestDatabase(url);
  });

  async function caughtUp(runner: ReturnType<ProjectionHarness['runner']>): Promise<void> {
    await runner.start();
    expect(await runner.waitFor(await h.store.headPosition(), ['noter'])).toBe(true);
  }

  it('wakes on the event store NOTIFY (the default with the PostgreSQL store), without polling', async () => {
    const runner = h.runner([noter()], { pollIntervalMs: NEVER });
    await caughtUp(runner);
    for (let i = 0; i < 3; i++) {
      expect(await runner.waitFor(await h.note('live-notify', i), ['noter'], 3000)).toBe(true);
    }
    await runner.stop();
  });

  it('falls back to polling when notifications are off', async () => {
    const runner = h.runner([noter()], { wakeUp: 'poll', pollIntervalMs: 100 });
    await caughtUp(runner);
    expect(await runner.waitFor(await h.note('live-poll', 1), ['noter'], 3000)).toBe(true);
    await runner.stop();
  });

  it('without notifications and a long poll, an append waits for the next poll or for a reader waiting on it', async () => {
    const runner = h.runner([noter()], { wakeUp: 'poll', pollIntervalMs: NEVER });
    await caughtUp(runner);
    // Let the short re-reads that served caughtUp's own wait run out: the worker then sleeps.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const position = await h.note('live-none', 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [status] = await runner.status();
    expect(BigInt(status.checkpoint)).toBeLessThan(position); // nothing woke the worker
    // A caller of waitFor (read-your-writes after a command) wakes it and is answered quickly.
    expect(await runner.waitFor(position, ['noter'], 2000)).toBe(true);
    await runner.stop();
  });

  it('a reader waiting on an event hidden behind another open transaction gets it once that transaction ends', async () => {
    const runner = h.runner([noter()], { pollIntervalMs: NEVER });
    await caughtUp(runner);
    const blocker = await h.pool.connect();
    try {
      // An open transaction with an id hides later commits from the store's readers (ADR 0001):
      // the append's one NOTIFY is spent on a read that cannot see it yet.
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      const position = await h.note('live-hidden', 1);
      const waited = runner.waitFor(position, ['noter'], 5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await blocker.query('commit');
      expect(await waited).toBe(true);
    } finally {
      blocker.release();
    }
    await runner.stop();
  });

  it('can be woken by the store live subscription instead (for adapters without NOTIFY)', async () => {
    const runner = h.runner([noter()], { wakeUp: 'subscription', pollIntervalMs: NEVER });
    await caughtUp(runner);
    expect(await runner.waitFor(await h.note('live-subscription', 1), ['noter'], 3000)).toBe(true);
    await runner.stop();
  });

  it('reconnects LISTEN after its connection is killed', async () => {
    const runner = h.runner([noter()], { pollIntervalMs: NEVER });
    await caughtUp(runner);
    const listeners = async (): Promise<number[]> =>
      (
        await h.pool.query<{ pid: number }>(
          `select pid from pg_stat_activity where application_name = $1 and datname = current_database()`,
          [LISTENER_APPLICATION_NAME],
        )
      ).rows.map((r) => r.pid);
    // Connecting in the background: wait until its LISTEN has completed, not only until it shows
    // up (a connection killed before that was never established, and wakes no one by design).
    const listening = async (): Promise<number[]> =>
      (
        await h.pool.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where application_name = $1 and datname = current_database() and state = 'idle' and query ilike 'listen %'`,
          [LISTENER_APPLICATION_NAME],
        )
      ).rows.map((r) => r.pid);
    let before = await listening();
    while (before.length === 0) before = await listening();
    await h.pool.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);

    let after: number[] = [];
    // The killed backend may linger in pg_stat_activity for a moment: wait until only new ones show.
    for (let tries = 0; tries < 1000 && (after.length === 0 || after.includes(before[0])); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await listeners();
    }
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
    expect(await runner.waitFor(await h.note('live-reconnect', 1), ['noter'], 3000)).toBe(true);
    await runner.stop();
  });
});
