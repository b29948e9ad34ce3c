import type { EventMetadata } from '../../platform/src/events/event-metadata';
import type { RecordWrites } from '../../platform/src/idempotency/idempotency-store';

export type { EventMetadata };

/**
 * The event store port. Every adapter (PostgreSQL, KurrentDB) implements this class, and the
 * class itself is the Nest DI token. Streams are named `<aggregate>-<id>` (CONTRACT §2).
 *
 * Revisions are 0-based per stream; global positions are 1-based and strictly increasing
 * across the whole store. Both are bigints so no adapter ever rounds through a float.
 */

/** What the appender believes about the stream before writing. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

/** The revision of a stream that has no events. */
export const NO_STREAM = -1n;

export interface NewEvent<T = unknown> {
  /** Optional; the store assigns a UUID when absent. */
  id?: string;
  type: string;
  data: T;
}

export interface RecordedEvent<T = unknown> {
  id: string;
  stream: string;
  revision: bigint;
  globalPosition: bigint;
  type: string;
  data: T;
  metadata: EventMetadata;
  /** From the Clock port at append time (the sandbox clock in sandbox). */
  recordedAt: Date;
}

/**
 * An event read past by a reader that does not handle its type ({@link EventStore.readAllOf}):
 * only where it stands in the global order and what it is, never its data or metadata.
 */
export interface PassedEvent {
  globalPosition: bigint;
  type: string;
  passed: true;
}

/** What {@link EventStore.readAllOf} answers: the reader's events whole, the others passed over. */
export type ReadEvent = RecordedEvent | PassedEvent;

export const isPassed = (event: ReadEvent): event is PassedEvent => 'passed' in event;

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  metadata: EventMetadata;
  /**
   * The idempotency record writes of the request this append belongs to, committed with its
   * events or not at all (docs/adr/0008-write-path.md). Only a store that can write them in the
   * append's transaction gets them (the PostgreSQL one; the idempotency store knows which). An
   * append whose record insert finds the key taken throws `IdempotencyRecordTaken`.
   */
  record?: RecordWrites;
}

export interface AppendResult {
  /** The stream's revision after the append (the revision of its last new event). */
  nextRevision: bigint;
  /** The global position of the last event written. */
  position: bigint;
}

export interface ReadStreamOptions {
  /** Inclusive; default 0. */
  fromRevision?: bigint;
  /** Default: the whole stream. */
  limit?: number;
}

export interface ReadAllOptions {
  /** Inclusive; default 1 (the first event). */
  fromPosition?: bigint;
  /** Default 1000. */
  limit?: number;
}

export interface SubscribeOptions {
  /** Inclusive: the first event delivered is the first one at or after this position. */
  fromPosition: bigint;
}

/** Called once per event, in global order; the next event waits for the returned promise. */
export type EventHandler = (event: RecordedEvent) => Promise<void>;

export interface Subscription {
  /** Resolves when the handler is no longer running and no further event will be delivered. */
  stop(): Promise<void>;
  /** Rejects if the subscription stopped because the handler (or the store) failed. */
  readonly done: Promise<void>;
}

/**
 * Told of appends: their event types, or null when the store cannot say which (a lost connection:
 * anything may have changed).
 */
export type AppendWatcher = (types: readonly string[] | null) => void;

export abstract class EventStore {
  private readonly watchers = new Set<AppendWatcher>();

  /**
   * Calls `watcher` after each append of this process commits, before the append returns, and,
   * where the store can tell (PostgreSQL's NOTIFY), after other processes' appends: what the
   * read caches of what every request reads invalidate on (docs/adr/0008-write-path.md). Returns
   * the function that stops it.
   */
  onAppended(watcher: AppendWatcher): () => void {
    this.watchers.add(watcher);
    if (this.watchers.size === 1) this.watching(true);
    return () => {
      if (this.watchers.delete(watcher) && this.watchers.size === 0) this.watching(false);
    };
  }

  /** Adapters that hear other processes' appends start (and stop) listening here. */
  protected watching(active: boolean): void {
    void active;
  }

  /** For the adapters: appends of these types committed (null: unknown ones). */
  protected appended(types: readonly string[] | null): void {
    for (const watcher of this.watchers) watcher(types);
  }

  /**
   * Appends the events atomically (all or none) if the stream's revision matches
   * `expectedRevision`; otherwise throws {@link WrongExpectedRevision} and writes nothing.
   * Appending zero events is an error.
   */
  abstract appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult>;

  /** The stream's events, oldest first; an unknown stream reads as empty. */
  abstract readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;

  /**
   * Events of every stream in global order. Never returns an event while an event with a
   * lower position may still commit: a reader that remembers the last position it saw and
   * asks again from the next one never skips anything.
   */
  abstract readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;

  /**
   * {@link readAll} for a reader that handles only `types` (a projector): the same events in the
   * same order with the same guarantee, but those of other types passed over, without their data
   * and metadata. A projector still moves its checkpoint past every event, and the store does not
   * decode, send and parse the payloads of the many events it ignores (every projector reads every
   * event). Adapters that cannot leave payloads out read them and drop them here.
   */
  async readAllOf(types: readonly string[], options?: ReadAllOptions): Promise<ReadEvent[]> {
    const wanted = new Set(types);
    return (await this.readAll(options)).map((event) =>
      wanted.has(event.type)
        ? event
        : { globalPosition: event.globalPosition, type: event.type, passed: true },
    );
  }

  /** Catches up from `fromPosition`, then follows new events live. */
  abstract subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription;

  /** The global position of the newest event that a reader may see (0 when empty). */
  abstract headPosition(): Promise<bigint>;

  /**
   * The global position of the newest committed event (0 when empty): the target of a reader
   * that must see every write answered before it asked. It can be above `headPosition` while an
   * append with a lower position is still committing; readers reach it once that one ends. The
   * same as `headPosition` where commits cannot overtake each other.
   */
  lastCommittedPosition(): Promise<bigint> {
    return this.headPosition();
  }

  abstract close(): Promise<void>;
}
