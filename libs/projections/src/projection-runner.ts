import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventStore, RecordedEvent, Subscription } from '../../event-store/src';
import type { Projector } from './projector';

export type ProjectorState = 'catching_up' | 'running' | 'rebuilding' | 'failed' | 'stopped';

/** A projector's health as operators see it; bigints as decimal strings. */
export interface ProjectorStatus {
  name: string;
  state: ProjectorState;
  checkpoint: string;
  head: string;
  lag: string;
  last_error: string | null;
  error_position: string | null;
}

export interface ProjectionRunnerOptions {
  store: EventStore;
  dataSource: DataSource;
  projectors: Projector[];
  /** Unused by the engine itself; kept so callers can pass their connection string uniformly. */
  databaseUrl?: string;
  logger?: Logger;
  /** Fallback poll when no wake-up arrives (ms). */
  pollIntervalMs?: number;
  /** Events read and applied per transaction. */
  batchSize?: number;
}

export class UnknownProjection extends Error {
  constructor(readonly projection: string) {
    super(`unknown projection ${projection}`);
  }
}

/** The failure that stopped a projector: kept in its checkpoint row until a restart or rebuild. */
class PoisonEvent extends Error {
  constructor(
    readonly event: RecordedEvent,
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(`${event.type} at position ${event.globalPosition}: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** A set-based batch failed; the runner narrows it down to the event that cannot be applied. */
class BatchFailed extends Error {}

interface Worker {
  projector: Projector;
  types: ReadonlySet<string>;
  checkpoint: bigint;
  state: ProjectorState;
  lastError: string | null;
  errorPosition: bigint | null;
  /** Set while a rebuild swaps tables: the live loop must not write. */
  paused: boolean;
  /** The loop's current batch, awaited by pause and stop. */
  busy: Promise<void>;
  loop?: Promise<void>;
}

const SAFE_NAME = /^[a-z][a-z0-9_-]{0,40}$/;

/**
 * Runs projectors: each catches up from its checkpoint in batches (rows and checkpoint in one
 * transaction), then follows new events, woken by the event store's own live subscription with a
 * polling fallback. A projector whose handler throws stops alone, with the error and the event's
 * position in its status; it is retried on the next start or rebuild, never skipped.
 */
export class ProjectionRunner {
  private readonly workers = new Map<string, Worker>();
  private readonly progress = new EventEmitter();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private wakeUp: () => void = () => undefined;
  private wakeSignal: Promise<void> = Promise.resolve();
  private subscription: Subscription | null = null;
  private stopping = false;
  private started = false;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 1000;
    this.progress.setMaxListeners(0);
    for (const projector of options.projectors) {
      if (!SAFE_NAME.test(projector.name)) throw new Error(`invalid projector name ${projector.name}`);
      if (this.workers.has(projector.name)) throw new Error(`duplicate projector ${projector.name}`);
      this.workers.set(projector.name, {
        projector,
        types: new Set(projector.eventTypes),
        checkpoint: 0n,
        state: 'stopped',
        lastError: null,
        errorPosition: null,
        paused: false,
        busy: Promise.resolve(),
      });
    }
    this.armWakeSignal();
  }

  get names(): string[] {
    return [...this.workers.keys()];
  }

  /** Loads checkpoints (retrying projectors that had failed) and starts every loop. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const worker of this.workers.values()) {
      await this.options.dataSource.query(
        `insert into projection_checkpoints (name, position, status, updated_at) values ($1, 0, 'running', now())
         on conflict (name) do update set status = 'running', last_error = null, error_position = null, updated_at = now()`,
        [worker.projector.name],
      );
      const [row] = await this.options.dataSource.query(
        `select position from projection_checkpoints where name = $1`,
        [worker.projector.name],
      );
      worker.checkpoint = BigInt(row.position);
      worker.state = 'catching_up';
    }
    const head = await this.options.store.headPosition();
    this.subscription = this.options.store.subscribeToAll({ fromPosition: head + 1n }, async () =>
      this.wake(),
    );
    this.subscription.done.catch((err: unknown) =>
      this.options.logger?.warn({ err }, 'live wake-up subscription ended; projectors fall back to polling'),
    );
    for (const worker of this.workers.values()) worker.loop = this.run(worker);
  }

  /** Finishes the batch in flight (never half of one) and stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.subscription?.stop().catch(() => undefined);
    await Promise.all([...this.workers.values()].map((w) => w.loop));
    for (const worker of this.workers.values()) if (worker.state !== 'failed') worker.state = 'stopped';
    this.progress.emit('progress');
  }

  /**
   * Read-your-writes: resolves true once every named projector (default: all) has applied
   * `position`, false after `timeoutMs` or as soon as one of them has failed. Never polls.
   */
  waitFor(position: bigint, names: string[] = this.names, timeoutMs = 5000): Promise<boolean> {
    const workers = names.map((name) => this.worker(name));
    const check = (): boolean | null => {
      if (workers.every((w) => w.checkpoint >= position)) return true;
      if (workers.some((w) => w.state === 'failed' || w.state === 'stopped')) return false;
      return null;
    };
    const now = check();
    if (now !== null) return Promise.resolve(now);
    return new Promise((resolve) => {
      const onProgress = () => {
        const result = check();
        if (result !== null) finish(result);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const finish = (result: boolean) => {
        clearTimeout(timer);
        this.progress.off('progress', onProgress);
        resolve(result);
      };
      this.progress.on('progress', onProgress);
    });
  }

  async status(): Promise<ProjectorStatus[]> {
    const head = await this.options.store.headPosition();
    return [...this.workers.values()].map((w) => ({
      name: w.projector.name,
      state: w.state,
      checkpoint: w.checkpoint.toString(),
      head: head.toString(),
      lag: (head > w.checkpoint ? head - w.checkpoint : 0n).toString(),
      last_error: w.lastError,
      error_position: w.errorPosition?.toString() ?? null,
    }));
  }

  /**
   * Rebuilds one read model from the first event into fresh tables in a schema of its own, then
   * swaps them in within one transaction. Readers keep using the old tables until the swap.
   */
  async rebuild(name: string): Promise<void> {
    const worker = this.worker(name);
    if (worker.state === 'rebuilding') throw new Error(`${name} is already rebuilding`);
    const projector = worker.projector;
    const schema = `rebuild_${name.replace(/-/g, '_')}`;
    const ds = this.options.dataSource;
    const previous = worker.state;
    worker.state = 'rebuilding';
    try {
      await ds.query(`drop schema if exists ${schema} cascade`);
      await ds.query(`create schema ${schema}`);
      for (const table of projector.tables) {
        await ds.query(`create table ${schema}.${table} (like public.${table} including all)`);
      }
      // Catch up into the fresh tables, batch by batch, outside any long transaction.
      let position = 0n;
      for (;;) {
        const events = await this.options.store.readAll({
          fromPosition: position + 1n,
          limit: this.batchSize,
        });
        if (events.length === 0) break;
        position = await ds.transaction(async (tx) => {
          await tx.query(`set local search_path to ${schema}, public`);
          return this.applyAll(tx, worker, events);
        });
      }
      // Swap: the live loop pauses, the tail is applied, tables trade places, checkpoint moves.
      worker.paused = true;
      await worker.busy;
      await ds.transaction(async (tx) => {
        await tx.query(`select 1 from projection_checkpoints where name = $1 for update`, [name]);
        await tx.query(`set local search_path to ${schema}, public`);
        for (;;) {
          const events = await this.options.store.readAll({
            fromPosition: position + 1n,
            limit: this.batchSize,
          });
          if (events.length === 0) break;
          position = await this.applyAll(tx, worker, events);
        }
        for (const table of projector.tables) {
          await tx.query(`drop table public.${table}`);
          await tx.query(`alter table ${schema}.${table} set schema public`);
        }
        await tx.query(
          `update projection_checkpoints set position = $2, status = 'running', last_error = null, error_position = null, updated_at = now() where name = $1`,
          [name, position.toString()],
        );
      });
      await ds.query(`drop schema if exists ${schema} cascade`);
      worker.checkpoint = position;
      worker.lastError = null;
      worker.errorPosition = null;
      const wasStopped = previous === 'failed' || !worker.loop;
      worker.state = 'running';
      if (wasStopped && this.started && !this.stopping) worker.loop = this.run(worker);
      this.options.logger?.info(
        { projection: name, position: position.toString() },
        'read model rebuilt and swapped in',
      );
    } catch (error) {
      worker.state = previous;
      await ds.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      throw error;
    } finally {
      worker.paused = false;
      this.progress.emit('progress');
      this.wake();
    }
  }

  private worker(name: string): Worker {
    const worker = this.workers.get(name);
    if (!worker) throw new UnknownProjection(name);
    return worker;
  }

  private wake(): void {
    this.wakeUp();
    this.armWakeSignal();
  }

  private armWakeSignal(): void {
    this.wakeSignal = new Promise((resolve) => (this.wakeUp = resolve));
  }

  private async sleep(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.wakeSignal,
      new Promise<void>((r) => (timer = setTimeout(r, this.pollIntervalMs))),
    ]);
    clearTimeout(timer);
  }

  private async run(worker: Worker): Promise<void> {
    while (!this.stopping) {
      if (worker.paused) {
        await this.sleep();
        continue;
      }
      let applied = 0;
      let release!: () => void;
      worker.busy = new Promise<void>((r) => (release = r));
      try {
        applied = await this.step(worker);
      } catch (error) {
        await this.fail(worker, error);
        return;
      } finally {
        release();
      }
      if (applied === 0) {
        if (worker.state === 'catching_up') worker.state = 'running';
        await this.sleep();
      }
    }
  }

  /** One batch: read after the checkpoint, apply in one transaction with the checkpoint. */
  private async step(worker: Worker): Promise<number> {
    const events = await this.options.store.readAll({
      fromPosition: worker.checkpoint + 1n,
      limit: this.batchSize,
    });
    if (events.length === 0) return 0;
    try {
      worker.checkpoint = await this.commit(worker, events);
    } catch (error) {
      if (!(error instanceof BatchFailed)) throw error;
      // One event per transaction until the one that fails; it becomes the poison event.
      for (const event of events) {
        worker.checkpoint = await this.commit(worker, [event]);
        this.progress.emit('progress');
      }
    }
    this.progress.emit('progress');
    return events.length;
  }

  private commit(worker: Worker, events: RecordedEvent[]): Promise<bigint> {
    return this.options.dataSource.transaction(async (tx) => {
      const [row] = await tx.query(`select position from projection_checkpoints where name = $1 for update`, [
        worker.projector.name,
      ]);
      // Another process (or a rebuild) may have moved the checkpoint: trust the row.
      const stored = BigInt(row.position);
      const fresh = events.filter((e) => e.globalPosition > stored);
      const position = fresh.length === 0 ? stored : await this.applyAll(tx, worker, fresh);
      await tx.query(`update projection_checkpoints set position = $2, updated_at = now() where name = $1`, [
        worker.projector.name,
        position.toString(),
      ]);
      return position;
    });
  }

  /** Applies events in order; returns the last position. A handler error names its event. */
  private async applyAll(tx: EntityManager, worker: Worker, events: RecordedEvent[]): Promise<bigint> {
    const { handleBatch } = worker.projector;
    if (handleBatch) {
      const relevant = events.filter((e) => worker.types.has(e.type));
      if (relevant.length > 0) {
        try {
          await handleBatch.call(worker.projector, tx, relevant);
        } catch (error) {
          if (relevant.length === 1) throw new PoisonEvent(relevant[0], events.indexOf(relevant[0]), error);
          throw new BatchFailed((error as Error)?.message);
        }
      }
      return events[events.length - 1].globalPosition;
    }
    let position = 0n;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      if (worker.types.has(event.type)) {
        try {
          await worker.projector.handle(tx, event);
        } catch (error) {
          throw new PoisonEvent(event, i, error);
        }
      }
      position = event.globalPosition;
    }
    return position;
  }

  /** Keeps what came before the poison event, then records the failure and stops this projector. */
  private async fail(worker: Worker, error: unknown): Promise<void> {
    const name = worker.projector.name;
    const poison = error instanceof PoisonEvent ? error : null;
    try {
      if (poison && poison.index > 0) {
        const events = await this.options.store.readAll({
          fromPosition: worker.checkpoint + 1n,
          limit: poison.index,
        });
        if (events.length > 0) worker.checkpoint = await this.commit(worker, events);
      }
    } catch {
      // The prefix is retried on the next start; the failure below is what matters.
    }
    worker.state = 'failed';
    worker.lastError = poison ? poison.message : ((error as Error)?.message ?? String(error));
    worker.errorPosition = poison ? poison.event.globalPosition : null;
    this.options.logger?.error(
      { projection: name, err: poison?.cause ?? error, position: worker.errorPosition?.toString() },
      'projector stopped on an event it cannot apply',
    );
    await this.options.dataSource
      .query(
        `update projection_checkpoints set status = 'failed', last_error = $2, error_position = $3, updated_at = now() where name = $1`,
        [name, worker.lastError, worker.errorPosition?.toString() ?? null],
      )
      .catch(() => undefined);
    this.progress.emit('progress');
  }
}
