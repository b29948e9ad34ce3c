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
