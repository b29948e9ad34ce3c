/**
 * A background pass that runs every `intervalMs` while the app runs, and on demand. Passes never
 * overlap: a tick while one runs is skipped (a slow pass is not piled on), and an on-demand call
 * waits for the running pass, then makes its own, so its caller sees everything up to its call.
 * `stop()` ends the ticks and lets a running pass finish before the pools it uses close.
 */
export class PeriodicTask<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** True once {@link stop} was called: a long pass may end early. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running || this.stopped) return;
      this.runNow().catch(this.onError);
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  async runNow(): Promise<T> {
    const previous = this.running;
    const pass = (async () => {
      await previous?.catch(() => undefined);
      return this.pass();
    })();
    this.running = pass;
    try {
      return await pass;
    } finally {
      if (this.running === pass) this.running = null;
    }
  }
}
