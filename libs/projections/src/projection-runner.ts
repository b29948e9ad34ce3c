import { z } from 'zod';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventStore, ReadEvent, Subscription } from '../../event-store/src';
import { PostgresEventStore } from '../../event-store/src';
import { isDatabaseUnavailable } from '../../platform/src/database/database-unavailable';
import { Alarm } from './alarm';
import { AppendListener } from './append-listener';
import { applyEvents } from './apply-events';
import {
  lockCheckpoint,
  openCheckpoint,
  readCheckpoints,
  recordFailure,
  resetCheckpoint,
  saveCheckpoint,
} from './checkpoints';
import {
  BatchFailed,
  messageOf,
  PoisonEvent,
  RebuildAborted,
  RebuildInProgress,
  UnknownProjection,
} from './errors';
import type { Projector } from './projector';
import { RunnerPresence, runnersElsewhere } from './runner-presence';
import {
  assertIdentifier,
  createShadowTables,
  dropShadowSchema,
  shadowSchemaFor,
  swapInShadowTables,
} from './shadow-tables';

export type ProjectorState = z.infer<typeof ProjectorStatusResource>['state'];

/** A projector's health as operators see it; bigints as decimal strings. */
/** Told after each batch a rebuild applies: how far it is, and the head it aims for (read at its start). */
export type RebuildProgress = (progress: { position: bigint; head: bigint }) => void;

/** How many events a status call reads at most to count each projector's lag. */
export const LAG_SCAN_LIMIT = 10_000;

export const ProjectorStatusResource = z
  .strictObject({
    name: z.string(),
    state: z.enum(['catching_up', 'running', 'rebuilding', 'failed', 'stopped']),
    checkpoint: z
      .string()
      .meta({ description: 'The global position applied last (a 64-bit integer as a string).' }),
    head: z.string().meta({ description: 'The head of the event log when read.' }),
    lag: z.int().min(0).meta({
      description:
        'Events of this projector’s types after its checkpoint: what it still has to apply (an upper bound past the scan limit).',
    }),
    behind_head: z.int().min(0).meta({ description: 'head − checkpoint.' }),
    last_error: z.string().nullable(),
    error_position: z.string().nullable(),
  })
  .meta({ id: 'ProjectorStatus' });

export type ProjectorStatus = z.infer<typeof ProjectorStatusResource>;

/**
 * How workers hear of appends between polls:
 * - `notify`: LISTEN on the PostgreSQL event store's NOTIFY channel (one connection per runner);
 * - `subscription`: the store's own live subscription (any adapter; reads every event once more);
 * - `poll`: nothing but the poll interval.
 */
export type WakeUp = 'notify' | 'subscription' | 'poll';

export interface ProjectionRunnerOptions {
  store: EventStore;
  dataSource: DataSource;
  projectors: Projector[];
  /** Default: `notify` with the PostgreSQL event store, else `subscription`. */
  wakeUp?: WakeUp;
  /** The event store's PostgreSQL database, for LISTEN; default: the data source's URL. */
  databaseUrl?: string;
  /** Default `event_store_appended`: what PostgresEventStore sends with its default schema. */
  notifyChannel?: string;
  logger?: Logger;
  /** How long a caught-up worker waits when no wake-up arrives (ms); default 1000. */
  pollIntervalMs?: number;
  /** Events read and applied per transaction; default 1000. */
  batchSize?: number;
}

/** PostgresEventStore's channel is `<schema>_appended`; its default schema is `event_store`. */
export const DEFAULT_NOTIFY_CHANNEL = 'event_store_appended';

const PROJECTOR_NAME = /^[a-z][a-z0-9_-]{0,40}$/;

interface Worker {
  projector: Projector;
  types: ReadonlySet<string>;
  alarm: Alarm;
  checkpoint: bigint;
  state: Exclude<ProjectorState, 'rebuilding'>;
  lastError: string | null;
  errorPosition: bigint | null;
  /** Set while a rebuild swaps tables in: the live loop must not start a batch. */
  paused: boolean;
  /** When the checkpoint row was last written (ms, monotonic `performance.now()`). */
  persistedAt: number;
  /** The database is unreachable: said once when it starts and once when it ends, not every poll. */
  outage: boolean;
  /** The batch in flight (resolved when idle), awaited before a swap. */
  inFlight: Promise<void>;
  loop: Promise<void> | null;
  rebuild: Promise<void> | null;
}

/** Longest a projector's checkpoint row lags its in-memory checkpoint over pages it ignores. */
export const IDLE_PERSIST_MS = 2_000;

/**
 * Runs projectors. Each one has its own loop: read a page after its checkpoint, apply it and
 * move the checkpoint in one transaction, repeat; once caught up, sleep until a wake-up or the
 * poll interval. A projector whose handler throws stops alone, with the error and the event's
 * position in its status; it is retried on the next start or rebuild, never skipped.
 * See docs/adr/0003-projections.md.
 */
export class ProjectionRunner {
  private readonly workers = new Map<string, Worker>();
  /** Positions callers of waitFor are waiting for (one entry per pending call). */
  private readonly awaited: bigint[] = [];
  private readonly progress = new EventEmitter();
  /** Per projector name: told after a batch with events of its types reached its checkpoint. */
  private readonly passed = new EventEmitter();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private listener: AppendListener | null = null;
  private presence: RunnerPresence | null = null;
  private subscription: Subscription | null = null;
  private started = false;
  private stopping = false;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 1000;
    this.progress.setMaxListeners(0);
    this.passed.setMaxListeners(0);
    for (const projector of options.projectors) this.register(projector);
  }

  get names(): string[] {
    return [...this.workers.keys()];
  }

  /** Loads checkpoints (clearing earlier failures, so poison events are retried) and starts every loop. */
  async start(): Promise<void> {
    if (this.started || this.stopping) return;
    for (const worker of this.workers.values()) {
      worker.checkpoint = await openCheckpoint(this.options.dataSource, worker.projector.name);
      worker.state = 'catching_up';
      worker.lastError = null;
      worker.errorPosition = null;
    }
    this.started = true;
    const url = this.databaseUrl();
    if (url) {
      this.presence = new RunnerPresence(url);
      this.presence.ensure();
    }
    await this.listen();
    for (const worker of this.workers.values()) this.launch(worker);
  }

  /**
   * Graceful shutdown: every loop finishes the batch in flight (its transaction commits or rolls
   * back whole) and stops; a running rebuild stops at its next batch, leaving the live tables.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const worker of this.workers.values()) worker.alarm.ring();
    await Promise.all([
      this.subscription?.stop().catch(() => undefined),
      this.listener?.close(),
      this.presence?.close(),
    ]);
    const workers = [...this.workers.values()];
    await Promise.all(workers.flatMap((w) => [w.loop, w.rebuild?.catch(() => undefined)]));
    for (const worker of workers) if (worker.state !== 'failed') worker.state = 'stopped';
    this.progress.emit('progress');
  }

  /**
   * Read-your-writes. Resolves `true` once every named projector (default: all) has applied
   * `position`; `false` when `timeoutMs` passes first, or at once when one of them has failed or
   * is not running (it would never get there). It does not throw on timeout: a caller answering
   * an HTTP request still answers, only with possibly stale reads. Unknown names throw
   * {@link UnknownProjection}. Woken by the runner's own progress, never by polling.
   */
  async waitFor(position: bigint, names: string[] = this.names, timeoutMs = 5000): Promise<boolean> {
    const workers = names.map((name) => this.worker(name));
    const verdict = (): boolean | null => {
      if (workers.every((w) => w.checkpoint >= position)) return true;
      if (workers.some((w) => w.state === 'failed' || w.state === 'stopped')) return false;
      return null;
    };
    const now = verdict();
    if (now !== null) return now;
    this.awaited.push(position);
    for (const worker of workers) worker.alarm.ring(); // asleep before this append was visible: re-read now
    return new Promise<boolean>((resolve) => {
      const finish = (result: boolean): void => {
        clearTimeout(timer);
        this.progress.off('progress', onProgress);
        this.awaited.splice(this.awaited.indexOf(position), 1);
        resolve(result);
      };
      const onProgress = (): void => {
        const result = verdict();
        if (result !== null) finish(result);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.progress.on('progress', onProgress);
    });
  }

  /**
   * Calls `listener` each time events of projector `name`'s types are in its read model, whichever
   * process applied them (this runner passes them too): for a cache of what the read model holds,
   * which may then load again and see them. Returns the function that stops it.
   */
  onApplied(name: string, listener: () => void): () => void {
    this.worker(name);
    this.passed.on(name, listener);
    return () => void this.passed.off(name, listener);
  }

  /**
   * `waitFor` the newest committed event as it is now: for a reader of a read model that must see
   * every write answered before it started (lists are eventually consistent; docs/api.md). Not
   * the store's gap-free head, which a transaction still open below it (a projector's own batch)
   * holds back behind writes already answered.
   */
  async waitForHead(names: string[] = this.names, timeoutMs = 5000): Promise<boolean> {
    return this.waitFor(await this.options.store.lastCommittedPosition(), names, timeoutMs);
  }

  /**
   * Per projector, from the checkpoint table merged with this runner's own state. A runner that
   * was never started (the ops CLI beside a running service) reports what the database shows of
   * the others: the service's checkpoints and failures, whether a started runner holds its
   * presence lock, and which projections some process is rebuilding.
   */
  async status(): Promise<ProjectorStatus[]> {
    const stored = await readCheckpoints(this.options.dataSource);
    const elsewhere = this.started ? null : await runnersElsewhere(this.options.dataSource, this.names);
    // Read after the checkpoints, so the head is never behind them.
    const head = await this.options.store.headPosition();
    const workers = [...this.workers.values()].map((w) => {
      const row = stored.get(w.projector.name);
      return { w, row, checkpoint: row && row.position > w.checkpoint ? row.position : w.checkpoint };
    });
    const pending = await this.pendingEvents(
      workers.map(({ w, checkpoint }) => ({
        name: w.projector.name,
        types: w.projector.eventTypes,
        checkpoint,
      })),
      head,
    );
    return workers.map(({ w, row, checkpoint }) => {
      let state: ProjectorState = w.state;
      if (w.rebuild) state = 'rebuilding';
      else if (elsewhere?.rebuilding.has(w.projector.name)) state = 'rebuilding';
      else if (elsewhere && row?.failed) state = 'failed';
      else if (elsewhere?.live) state = 'running';
      return {
        name: w.projector.name,
        state,
        checkpoint: checkpoint.toString(),
        head: head.toString(),
        lag: pending.get(w.projector.name) ?? 0,
        behind_head: Number(head > checkpoint ? head - checkpoint : 0n),
        last_error: w.lastError ?? row?.lastError ?? null,
        error_position: (w.errorPosition ?? row?.errorPosition ?? null)?.toString() ?? null,
      };
    });
  }

  /**
   * Per projector, the events of its types between its checkpoint and `head`, from one scan of
   * the log starting at the slowest checkpoint and reading at most {@link LAG_SCAN_LIMIT} events;
   * whatever lies beyond the scan counts in full for every projector behind it (an upper bound).
   */
  private async pendingEvents(
    projectors: { name: string; types: readonly string[]; checkpoint: bigint }[],
    head: bigint,
  ): Promise<Map<string, number>> {
    const counts = new Map(projectors.map((p) => [p.name, 0]));
    const behind = projectors.filter((p) => p.checkpoint < head);
    if (behind.length === 0) return counts;
    const from = behind.reduce((low, p) => (p.checkpoint < low ? p.checkpoint : low), head) + 1n;
    const types = new Map(behind.map((p) => [p.name, new Set(p.types)]));
    let next = from;
    let scanned = 0;
    while (next <= head && scanned < LAG_SCAN_LIMIT) {
      // Only positions and types are counted: no event's payload is read.
      const page = await this.options.store.readAllOf([], {
        fromPosition: next,
        limit: Math.min(1000, LAG_SCAN_LIMIT - scanned),
      });
      if (page.length === 0) break;
      for (const event of page) {
        if (event.globalPosition > head) break;
        for (const p of behind) {
          if (event.globalPosition > p.checkpoint && types.get(p.name)!.has(event.type)) {
            counts.set(p.name, counts.get(p.name)! + 1);
          }
        }
      }
      scanned += page.length;
      next = page[page.length - 1].globalPosition + 1n;
    }
    if (next <= head) {
      for (const p of behind) {
        const unscanned = head - (p.checkpoint >= next ? p.checkpoint : next - 1n);
        counts.set(p.name, counts.get(p.name)! + Number(unscanned));
      }
    }
    return counts;
  }

  /**
   * Rebuilds one read model from the first event into fresh tables, then swaps them in within
   * one transaction; readers use the old tables until that commit. Clears a failure if the
   * events now apply. Throws {@link RebuildInProgress} if this projection is already being
   * rebuilt here or in another process, and the handler's {@link PoisonEvent} if one still fails
   * (the live tables are then untouched).
   */
  async rebuild(name: string, options: { onProgress?: RebuildProgress } = {}): Promise<void> {
    const worker = this.worker(name);
    if (worker.rebuild) throw new RebuildInProgress(name);
    const rebuild = this.rebuildExclusively(worker, options.onProgress);
    worker.rebuild = rebuild;
    try {
      await rebuild;
    } finally {
      worker.rebuild = null;
      this.progress.emit('progress');
    }
  }

  private register(projector: Projector): void {
    if (!PROJECTOR_NAME.test(projector.name)) throw new Error(`invalid projector name ${projector.name}`);
    if (this.workers.has(projector.name)) throw new Error(`duplicate projector ${projector.name}`);
    for (const table of projector.tables) assertIdentifier(table, 'table');
    this.workers.set(projector.name, {
      projector,
      types: new Set(projector.eventTypes),
      alarm: new Alarm(),
      checkpoint: 0n,
      state: 'stopped',
      lastError: null,
      errorPosition: null,
      paused: false,
      persistedAt: 0,
      outage: false,
      inFlight: Promise.resolve(),
      loop: null,
      rebuild: null,
    });
  }

  private worker(name: string): Worker {
    const worker = this.workers.get(name);
    if (!worker) throw new UnknownProjection(name);
    return worker;
  }

  private ringAll(): void {
    for (const worker of this.workers.values()) worker.alarm.ring();
  }

  /**
   * Wakes the projectors that handle one of the appended types (the NOTIFY payload); '' wakes
   * all. The others stay asleep: their read would find nothing to apply, and they catch up at
   * the poll interval, or at once when someone waits for them (`waitFor` rings everyone).
   */
  private ringFor(payload: string): void {
    if (!payload) return this.ringAll();
    const types = payload.split(',');
    for (const worker of this.workers.values()) {
      if (types.some((type) => worker.types.has(type))) worker.alarm.ring();
    }
  }

  /** The event store's PostgreSQL database, else the read models' (where LISTEN and presence live). */
  private databaseUrl(): string | undefined {
    return this.options.databaseUrl ?? (this.options.dataSource.options as { url?: string }).url;
  }

  private async listen(): Promise<void> {
    const { store, logger } = this.options;
    const wakeUp = this.options.wakeUp ?? (store instanceof PostgresEventStore ? 'notify' : 'subscription');
    if (wakeUp === 'notify') {
      const url = this.databaseUrl();
      if (!url) {
        logger?.warn('no database URL to LISTEN on; projectors only poll');
        return;
      }
      this.listener = new AppendListener(
        url,
        this.options.notifyChannel ?? DEFAULT_NOTIFY_CHANNEL,
        (payload) => this.ringFor(payload),
        (err) => logger?.warn({ err }, 'LISTEN connection lost; projectors poll until it is back'),
      );
      this.listener.ensure();
    } else if (wakeUp === 'subscription') {
      const head = await store.headPosition();
      this.subscription = store.subscribeToAll({ fromPosition: head + 1n }, async () => this.ringAll());
      this.subscription.done.catch((err: unknown) =>
        logger?.warn({ err }, 'live wake-up subscription ended; projectors fall back to polling'),
      );
    }
  }

  private launch(worker: Worker): void {
    if (worker.loop || !this.started || this.stopping) return;
    worker.loop = this.run(worker).finally(() => (worker.loop = null));
  }

  private async run(worker: Worker): Promise<void> {
    let backoffMs = 0;
    while (!this.stopping) {
      if (worker.paused) {
        // Forget rings while paused (a remembered one would make this a busy loop); the swap
        // rings again when it is done.
        worker.alarm.reset();
        await worker.alarm.sleep(this.pollIntervalMs);
        continue;
      }
      worker.alarm.reset();
      const batch = this.step(worker);
      worker.inFlight = batch.then(
        () => undefined,
        () => undefined,
      );
      let caughtUp: boolean;
      try {
        caughtUp = await batch;
        if (worker.outage) {
          worker.outage = false;
          this.options.logger?.info({ projection: worker.projector.name }, 'projector resumed');
        }
      } catch (error) {
        if (error instanceof PoisonEvent) return this.fail(worker, error);
        this.retryLater(worker, error);
        caughtUp = true;
      }
      if (caughtUp && !this.stopping) {
        // Both are lost with the database; re-opened here once it is back.
        this.listener?.ensure();
        this.presence?.ensure();
        // Someone waits for a position this worker has not reached: the event is committed but
        // hidden behind another open transaction (ADR 0001), and its one NOTIFY is spent. Look
        // again soon, backing off, rather than after a whole poll interval.
        const waitedFor = this.awaited.some((position) => position > worker.checkpoint);
        backoffMs = waitedFor ? Math.min(backoffMs === 0 ? 5 : backoffMs * 2, this.pollIntervalMs) : 0;
        await worker.alarm.sleep(waitedFor ? backoffMs : this.pollIntervalMs);
      }
    }
  }

  /** One page after the checkpoint; true when it was the last one visible. */
  private async step(worker: Worker): Promise<boolean> {
    const events = await this.options.store.readAllOf(worker.projector.eventTypes, {
      fromPosition: worker.checkpoint + 1n,
      limit: this.batchSize,
    });
    if (events.length > 0) {
      await this.applyNarrowing(events, (batch) => this.commit(worker, batch));
      worker.lastError = null;
    }
    const caughtUp = events.length < this.batchSize;
    if (caughtUp && worker.state === 'catching_up') worker.state = 'running';
    return caughtUp;
  }

  /**
   * Applies a page with `transact` (one transaction per call). When it fails on an event, what
   * came before that event is applied again on its own, so the checkpoint stops right before
   * the poison event; a failed set-based batch is retried one event per transaction to find it.
   */
  private async applyNarrowing(
    events: ReadEvent[],
    transact: (events: ReadEvent[]) => Promise<bigint>,
  ): Promise<bigint> {
    try {
      return await transact(events);
    } catch (error) {
      if (error instanceof BatchFailed) {
        let position = 0n;
        for (const event of events) position = await transact([event]);
        return position;
      }
      if (error instanceof PoisonEvent) {
        const before = events.filter((e) => e.globalPosition < error.event.globalPosition);
        if (before.length > 0) await transact(before);
      }
      throw error;
    }
  }

  /**
   * Rows and checkpoint in one transaction; events at or below the stored checkpoint are skipped.
   *
   * A page with no event the projector handles changes no row: the checkpoint then moves in memory
   * only, and reaches its row with the next page that writes, or after {@link IDLE_PERSIST_MS}.
   * Without this every append costs one transaction per projector (most of them about other
   * aggregates). Nothing is lost on a crash: the skipped events are read again, and still ignored.
   */
  private async commit(worker: Worker, events: ReadEvent[]): Promise<bigint> {
    const { name } = worker.projector;
    const relevant = events.some((e) => worker.types.has(e.type));
    if (!relevant && performance.now() - worker.persistedAt < IDLE_PERSIST_MS) {
      const last = events[events.length - 1].globalPosition;
      this.advance(worker, last);
      return last;
    }
    worker.persistedAt = performance.now();
    // Set inside the transaction's callback: the batch was applied (not found applied elsewhere).
    let applied = null as EntityManager | null;
    const position = await this.options.dataSource.transaction(async (tx) => {
      // Another process running the same projector, or a rebuild, may have moved it: trust the row.
      const stored = await lockCheckpoint(tx, name);
      // Without the row the checkpoint could not move with the rows: refuse (and retry later).
      if (stored === null) throw new Error(`projection ${name} has no checkpoint row`);
      const fresh = events.filter((e) => e.globalPosition > stored);
      if (fresh.length === 0) return stored;
      const reached = await applyEvents(tx, worker.projector, worker.types, fresh);
      await saveCheckpoint(tx, name, reached);
      applied = tx;
      return reached;
    });
    if (applied) worker.projector.afterCommit?.(applied);
    this.advance(worker, position);
    // Applied here, or found applied by another process: either way the read model has them now.
    if (relevant) this.passed.emit(name);
    return position;
  }

  private advance(worker: Worker, position: bigint): void {
    if (position <= worker.checkpoint) return;
    worker.checkpoint = position;
    this.progress.emit('progress');
  }

  /** Not the event's fault (connection lost, deadlock...): keep the checkpoint, try again later. */
  private retryLater(worker: Worker, error: unknown): void {
    worker.lastError = messageOf(error);
    const projection = worker.projector.name;
    if (!isDatabaseUnavailable(error)) {
      this.options.logger?.warn(
        { projection, err: error },
        'projector batch failed; retrying after the poll interval',
      );
    } else if (!worker.outage) {
      worker.outage = true;
      this.options.logger?.warn(
        { projection, error: messageOf(error) },
        'database unreachable: projector waits, retrying every poll interval',
      );
    }
  }

  private async fail(worker: Worker, poison: PoisonEvent): Promise<void> {
    worker.state = 'failed';
    worker.lastError = poison.message;
    worker.errorPosition = poison.event.globalPosition;
    this.options.logger?.error(
      {
        projection: worker.projector.name,
        err: poison.cause,
        position: poison.event.globalPosition.toString(),
      },
      'projector stopped on an event it cannot apply',
    );
    await recordFailure(
      this.options.dataSource,
      worker.projector.name,
      poison.message,
      poison.event.globalPosition,
    ).catch((err: unknown) => this.options.logger?.error({ err }, 'could not record the projector failure'));
    this.progress.emit('progress');
  }

  /** Holds a session advisory lock for the whole rebuild, so two processes never share a shadow schema. */
  private async rebuildExclusively(worker: Worker, onProgress?: RebuildProgress): Promise<void> {
    const { name } = worker.projector;
    const lock = this.options.dataSource.createQueryRunner();
    await lock.connect();
    try {
      const [{ locked }] = await lock.query(`select pg_try_advisory_lock(hashtext($1)) as locked`, [
        `projection-rebuild:${name}`,
      ]);
      if (!locked) throw new RebuildInProgress(name);
      try {
        await this.rebuildAndSwap(worker, onProgress);
      } finally {
        await lock.query(`select pg_advisory_unlock(hashtext($1))`, [`projection-rebuild:${name}`]);
      }
    } finally {
      await lock.release();
    }
  }

  private async rebuildAndSwap(worker: Worker, onProgress?: RebuildProgress): Promise<void> {
    const { dataSource, logger } = this.options;
    const { name, tables } = worker.projector;
    const schema = shadowSchemaFor(name);
    try {
      await createShadowTables(dataSource, schema, tables);
      const filled = await this.fillShadow(worker, schema, onProgress);
      const position = await this.swapIn(worker, schema, filled);
      logger?.info({ projection: name, position: position.toString() }, 'read model rebuilt and swapped in');
    } catch (error) {
      await dropShadowSchema(dataSource, schema).catch(() => undefined);
      throw error;
    }
    // A projector that had failed has no loop left: the rebuilt one follows the events again.
    this.launch(worker);
  }

  /** Applies every event so far to the shadow tables, batch by batch, while the live loop runs on. */
  private async fillShadow(worker: Worker, schema: string, onProgress?: RebuildProgress): Promise<bigint> {
    let position = 0n;
    const head = onProgress ? await this.options.store.headPosition() : 0n;
    for (;;) {
      if (this.stopping) throw new RebuildAborted(worker.projector.name);
      const events = await this.options.store.readAllOf(worker.projector.eventTypes, {
        fromPosition: position + 1n,
        limit: this.batchSize,
      });
      if (events.length === 0) return position;
      position = await this.applyNarrowing(events, (batch) =>
        this.options.dataSource.transaction(async (tx) => {
          await useShadow(tx, schema);
          return applyEvents(tx, worker.projector, worker.types, batch);
        }),
      );
      onProgress?.({ position, head: head > position ? head : position });
    }
  }

  /**
   * The swap: the live loop here finishes its batch and pauses, the checkpoint row is locked
   * (live loops of other processes wait on it), the last events go into the shadow tables, which
   * then replace the live ones together with the checkpoint. Readers block only for the swap.
   */
  private async swapIn(worker: Worker, schema: string, from: bigint): Promise<bigint> {
    const { name, tables } = worker.projector;
    worker.paused = true;
    try {
      await worker.inFlight;
      const position = await this.options.dataSource.transaction(async (tx) => {
        await lockCheckpoint(tx, name);
        await useShadow(tx, schema);
        let reached = from;
        for (;;) {
          // Once this transaction holds an id (the row lock takes one), appends that start later
          // stay invisible to readAll until it commits: the loop ends, the live loop gets them.
          const events = await this.options.store.readAllOf(worker.projector.eventTypes, {
            fromPosition: reached + 1n,
            limit: this.batchSize,
          });
          if (events.length === 0) break;
          reached = await applyEvents(tx, worker.projector, worker.types, events);
        }
        await swapInShadowTables(tx, schema, tables);
        await resetCheckpoint(tx, name, reached);
        return reached;
      });
      // Before the live loop resumes, so that it reads on from the rebuilt position.
      worker.checkpoint = position;
      worker.state = this.started && !this.stopping ? 'catching_up' : 'stopped';
      worker.lastError = null;
      worker.errorPosition = null;
      return position;
    } finally {
      worker.paused = false;
      worker.alarm.ring();
    }
  }
}

/** Unqualified names now mean the shadow tables; everything else still resolves to `public`. */
async function useShadow(tx: EntityManager, schema: string): Promise<void> {
  await tx.query(`set local search_path to "${schema}", public`);
}
