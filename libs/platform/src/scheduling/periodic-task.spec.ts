import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  it('runs on demand; a call while a pass runs waits for it, then makes its own', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const task = new PeriodicTask(
      async () => {
        const n = ++calls;
        order.push(`start ${n}`);
        if (n === 1) await first;
        order.push(`end ${n}`);
        return n;
      },
      60_000,
      () => undefined,
    );
    const a = task.runNow();
    const b = task.runNow();
    release();
    expect(await a).toBe(1);
    expect(await b).toBe(2);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('ticks on its interval, never overlapping, and stop waits for the running pass', async () => {
    jest.useFakeTimers();
    try {
      let running = 0;
      let maxRunning = 0;
      let passes = 0;
      let release!: () => void;
      const task = new PeriodicTask(
        async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          passes++;
          await new Promise<void>((resolve) => (release = resolve));
          running--;
        },
        1000,
        () => undefined,
      );
      task.start();
      await jest.advanceTimersByTimeAsync(3500); // three ticks; the 2nd and 3rd find the 1st still running
      expect(passes).toBe(1);
      const stopped = task.stop();
      expect(task.isStopped).toBe(true);
      release();
      await stopped;
      await jest.advanceTimersByTimeAsync(5000);
      expect(passes).toBe(1);
      expect(maxRunning).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a failed tick and keeps ticking', async () => {
    jest.useFakeTimers();
    try {
      const errors: unknown[] = [];
      const task = new PeriodicTask(
        async () => {
          throw new Error('boom');
        },
        1000,
        (error) => errors.push(error),
      );
      task.start();
      await jest.advanceTimersByTimeAsync(2000);
      expect(errors.length).toBe(2);
      await task.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('PeriodicTask shared by several processes on one database', () => {
  let url: string;
  let pools: Pool[];

  beforeAll(async () => {
    url = await createTestDatabase('periodic_passes');
    // One pool per "process", as each service process has its own.
    pools = [0, 1, 2].map(() => new Pool({ connectionString: url, max: 3 }));
    await PeriodicTask.migrate(pools[0]);
    await PeriodicTask.migrate(pools[1]); // idempotent itself
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await dropTestDatabase(url);
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('makes about one pass per interval across the processes, never two at once, and goes on when one process stops', async () => {
    const name = `sweep-${Math.random()}`;
    const passes: number[] = [];
    let running = 0;
    let overlapped = false;
    const tasks = pools.map(
      (pool, process) =>
        new PeriodicTask(
          async () => {
            running += 1;
            if (running > 1) overlapped = true;
            passes.push(process);
            await sleep(30);
            running -= 1;
          },
          200,
          (error) => {
            throw error;
          },
          { pool, name },
        ),
    );
    tasks.forEach((task) => task.start());
    await sleep(2_100);
    // Three processes ticking every 200 ms: about ten passes, not thirty.
    expect(passes.length).toBeGreaterThanOrEqual(6);
    expect(passes.length).toBeLessThanOrEqual(14);
    expect(overlapped).toBe(false);

    // The processes that ran the passes stop: the one left takes every turn from now on.
    const survivor = 2;
    await Promise.all(tasks.filter((_, i) => i !== survivor).map((task) => task.stop()));
    const before = passes.length;
    await sleep(1_100);
    const after = passes.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.every((process) => process === survivor)).toBe(true);
    await tasks[survivor].stop();
  });

  it('an on-demand pass waits for the pass another process is making, then makes its own', async () => {
    const name = `on-demand-${Math.random()}`;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const other = new PeriodicTask(
      async () => {
        order.push('other starts');
        await held;
        order.push('other ends');
      },
      60_000,
      () => undefined,
      { pool: pools[0], name },
    );
    const mine = new PeriodicTask(
      async () => {
        order.push('mine');
      },
      60_000,
      () => undefined,
      { pool: pools[1], name },
    );
    const first = other.runNow();
    while (order.length === 0) await sleep(5);
    const second = mine.runNow();
    await sleep(100);
    expect(order).toEqual(['other starts']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['other starts', 'other ends', 'mine']);
  });
});
