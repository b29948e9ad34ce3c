import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { PeriodicTask } from './periodic-task';

/** How a sweep is scheduled: its shared name, its interval, and what its failure log says. */
export interface SweepSchedule {
  /** Keys the pass shared by every process on the database (docs/operations.md). */
  name: string;
  intervalMs: number;
  /** The warning logged when a pass fails (the next tick tries again). */
  failure: string;
}

/**
 * A background sweep of a Nest app: `pass()` runs every interval, one pass per interval across
 * every process on the database (a {@link PeriodicTask} with a shared schedule), from bootstrap
 * until the module is destroyed, which lets a pass in progress finish before the pools close.
 * `sweep()` runs one full pass now; a call while another pass runs waits for it, then makes its
 * own. A long pass checks {@link isStopped} between steps.
 */
export abstract class PeriodicSweep<T> implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask<T>;

  protected constructor(schedule: SweepSchedule, pool: Pool, logger: Logger) {
    this.task = new PeriodicTask(
      () => this.pass(),
      schedule.intervalMs,
      (err: unknown) => logger.warn({ err }, schedule.failure),
      { pool, name: schedule.name },
    );
  }

  protected abstract pass(): Promise<T>;

  /** True once the app is stopping: a long pass ends early. */
  protected get isStopped(): boolean {
    return this.task.isStopped;
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  async sweep(): Promise<T> {
    return this.task.runNow();
  }
}
