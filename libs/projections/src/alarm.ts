/**
 * A worker's wake-up: `sleep` ends after the poll interval or at the next `ring`. A ring that
 * arrives while the worker is busy reading or applying is remembered, so the following sleep
 * returns at once: the append it announced may have committed just after the read.
 */
export class Alarm {
  private rung = false;
  private interrupt: (() => void) | null = null;

  ring(): void {
    this.rung = true;
    this.interrupt?.();
  }

  /** Called just before a read, which sees everything the earlier rings announced. */
  reset(): void {
    this.rung = false;
  }

  sleep(ms: number): Promise<void> {
    if (this.rung) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.interrupt = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.interrupt = finish;
    });
  }
}
