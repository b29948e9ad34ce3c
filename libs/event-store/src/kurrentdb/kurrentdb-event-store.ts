import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  START,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendResult as KurrentAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type JSONType,
  type ReadAllOptions as KurrentReadAllOptions,
  type ReadPosition,
  type ReadStreamOptions as KurrentReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import type { Clock } from '../../../platform/src/clock/clock';
import { InvalidAppend } from '../errors';
import {
  EventStore,
  type AppendOptions,
  type AppendResult,
  type EventHandler,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store';
import {
  checkAppendResult,
  collectStream,
  fromKurrentPosition,
  globalPositionOf,
  isKurrentDbUrl,
  isSystemEvent,
  mayBeInvalidPosition,
  toKurrentMetadata,
  toKurrentPosition,
  toRecordedEvent,
  toStreamState,
  toWrongExpectedRevision,
  validateAppend,
} from './kurrentdb-mapping';

/**
 * The event store on KurrentDB (formerly EventStoreDB), through the official gRPC client. KurrentDB
 * already is an event store: streams, optimistic concurrency and a single commit-ordered log
 * (`$all`), so this adapter only translates (kurrentdb-mapping.ts, docs/adr/0002-kurrentdb-adapter.md).
 *
 * Global positions are commit positions in KurrentDB's transaction log: strictly increasing but
 * not consecutive. KurrentDB can only start a `$all` read at the first byte of a log record, so a
 * read from `p` starts at `p - 1` (the position a reader that saw the event at `p - 1` asks for)
 * and, when that is not a record, at `p` itself (an event's own position).
 */

/** The part of the client the adapter uses; tests give a fake, production the real client. */
export interface KurrentDbClientLike {
  appendToStream(
    streamName: string,
    events: EventData[],
    options: AppendToStreamOptions,
  ): Promise<KurrentAppendResult>;
  readStream(streamName: string, options: KurrentReadStreamOptions): AsyncIterable<ResolvedEvent>;
  readAll(options: KurrentReadAllOptions): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options: SubscribeToAllOptions): KurrentLiveSubscription;
  dispose(): Promise<void>;
}

/** A catch-up subscription of the client: a readable stream of events that can be cancelled. */
export interface KurrentLiveSubscription extends AsyncIterable<AllStreamResolvedEvent> {
  unsubscribe(): Promise<void>;
}

export interface KurrentDbEventStoreOptions {
  /** Events per `$all` read while a subscription catches up; default 500. */
  pageSize?: number;
  /** Whether close() disposes the client; fromConnectionString sets it. Default false. */
  ownsClient?: boolean;
}

const DEFAULT_READ_ALL_LIMIT = 1000;
const DEFAULT_PAGE_SIZE = 500;

function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
}

async function drain<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export class KurrentDbEventStore extends EventStore {
  private readonly pageSize: number;
  private readonly ownsClient: boolean;
  private readonly subscriptions = new Set<KurrentDbSubscription>();
  private closed = false;

  constructor(
    private readonly client: KurrentDbClientLike,
    private readonly clock: Clock,
    options: KurrentDbEventStoreOptions = {},
  ) {
    super();
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(this.pageSize) || this.pageSize < 1) {
      throw new RangeError(`pageSize must be a positive integer, got ${this.pageSize}`);
    }
    this.ownsClient = options.ownsClient ?? false;
  }

  /**
   * A store on its own client, from `kurrentdb://`, `kurrent://`, `kdb://` or `esdb://` (each also
   * `+discover`) connection strings, for example `kurrentdb://localhost:2113?tls=false`.
   * Connecting is lazy: the first operation connects.
   */
  static fromConnectionString(
    url: string,
    clock: Clock,
    options: Omit<KurrentDbEventStoreOptions, 'ownsClient'> = {},
  ): KurrentDbEventStore {
    if (!isKurrentDbUrl(url)) {
      // Only the scheme: the rest may hold credentials.
      const scheme = /^[^:]*/.exec(url.trim())?.[0] ?? '';
      throw new Error(
        `not a KurrentDB connection string (scheme "${scheme}"); expected kurrentdb://, kurrent://, kdb:// or esdb://, optionally +discover`,
      );
    }
    return new KurrentDbEventStore(KurrentDBClient.connectionString(url), clock, {
      ...options,
      ownsClient: true,
    });
  }

  async appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.assertOpen();
    // KurrentDB cannot join a PostgreSQL table to its append: the idempotency store writes its
    // records on their own when the event store is this one (`joinsAppends` off).
    if (options.record) throw new InvalidAppend('the KurrentDB event store cannot write idempotency records');
    const validated = validateAppend(stream, events);
    const expected = options.expectedRevision;
    const streamState = toStreamState(expected);
    const metadata = toKurrentMetadata(options.metadata, this.clock.now());
    const data = validated.map((event) =>
      jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata }),
    );

    let result: KurrentAppendResult;
    try {
      result = await this.client.appendToStream(stream, data, { streamState });
    } catch (error) {
      throw toWrongExpectedRevision(error, stream, expected) ?? error;
    }
    checkAppendResult(result, stream, expected);
    const nextRevision = result.nextExpectedRevision;
    // The server answers with the position of the write's last event (its TransactionEnd record).
    const position = result.position
      ? fromKurrentPosition(result.position)
      : await this.positionOfRevision(stream, nextRevision);
    // Other processes' appends are not heard here: read caches rely on their age bound alone.
    this.appended(validated.map((event) => event.type));
    return { nextRevision, position };
  }

  private async positionOfRevision(stream: string, revision: bigint): Promise<bigint> {
    const [event] = await collectStream(
      this.client.readStream(stream, { fromRevision: revision, maxCount: 1n }),
    );
    if (!event)
      throw new Error(`stream ${stream} has no event at revision ${revision} right after appending it`);
    return globalPositionOf(event);
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    checkLimit(options.limit);
    if (options.limit === 0) return [];
    const from = options.fromRevision ?? 0n;
    const resolved = await collectStream(
      this.client.readStream(stream, {
        direction: FORWARDS,
        fromRevision: from > 0n ? from : START,
        ...(options.limit === undefined ? {} : { maxCount: BigInt(options.limit) }),
      }),
    );
    return resolved.map(toRecordedEvent);
  }

  /**
   * `$all` in commit order, without system events. KurrentDB only returns what is committed and
   * indexed, in log order, so there are no gaps to guard against (ADR 0002).
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    checkLimit(options.limit);
    const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
    if (limit === 0) return [];
    const fromPosition = options.fromPosition ?? 1n;

    const out: RecordedEvent[] = [];
    let min = fromPosition;
    // One more than needed: the first read may start at the event just before `fromPosition`.
    let requested = limit + 1;
    let page = await this.firstPage(fromPosition, requested);
    for (;;) {
      let last: bigint | undefined;
      for (const resolved of page) {
        const position = globalPositionOf(resolved);
        last = position;
        if (position < min || !resolved.event || isSystemEvent(resolved.event)) continue;
        out.push(toRecordedEvent(resolved));
        if (out.length === limit) return out;
      }
      // A short page is the end of the log; a full one whose events were dropped needs another.
      if (page.length < requested || last === undefined) return out;
      min = last + 1n;
      requested = limit - out.length + 1;
      page = await this.readAllRaw(toKurrentPosition(last), requested);
    }
  }

  /**
   * The first page of events at or after `fromPosition` (the caller drops those before it). Tries
   * the record at `fromPosition - 1` (a reader resuming after the event it saw last), then the
   * record at `fromPosition` (an event's own position); neither being a record is only valid below
   * the first record of the log (read from the start). Beyond the end of the log the server
   * answers an empty page whatever the position.
   */
  private async firstPage(fromPosition: bigint, maxCount: number): Promise<AllStreamResolvedEvent[]> {
    if (fromPosition <= 1n) return this.readAllRaw(START, maxCount);
    try {
      return await this.readAllRaw(toKurrentPosition(fromPosition - 1n), maxCount);
    } catch (afterError) {
      if (!mayBeInvalidPosition(afterError)) throw afterError;
      try {
        return await this.readAllRaw(toKurrentPosition(fromPosition), maxCount);
      } catch (atError) {
        if (!mayBeInvalidPosition(atError)) throw atError;
        const [first] = await drain(
          this.client.readAll({ direction: FORWARDS, fromPosition: START, maxCount: 1n }),
        );
        if (!first || fromPosition <= globalPositionOf(first)) return this.readAllRaw(START, maxCount);
        throw new RangeError(
          `fromPosition ${fromPosition}: neither it nor the position before it starts an event in KurrentDB's log`,
          { cause: atError },
        );
      }
    }
  }

  private readAllRaw(fromPosition: ReadPosition, maxCount: number): Promise<AllStreamResolvedEvent[]> {
    return drain(
      this.client.readAll({
        direction: FORWARDS,
        fromPosition,
        maxCount: BigInt(maxCount),
        filter: excludeSystemEvents(),
      }),
    );
  }

  /** The commit position of the newest non-system event in `$all`, or 0n. */
  async headPosition(): Promise<bigint> {
    this.assertOpen();
    let from: ReadPosition = END;
    for (;;) {
      const [resolved] = await drain(
        this.client.readAll({
          direction: BACKWARDS,
          fromPosition: from,
          maxCount: 1n,
          filter: excludeSystemEvents(),
        }),
      );
      if (!resolved) return 0n;
      const position = globalPositionOf(resolved);
      if (resolved.event && !isSystemEvent(resolved.event)) return position;
      // A user-typed event in a `$` stream: keep looking before it (a backward read from a
      // position returns the records that end at or before it).
      from = toKurrentPosition(position);
    }
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    this.assertOpen();
    const subscription = new KurrentDbSubscription(
      {
        pageSize: this.pageSize,
        readAll: (fromPosition, limit) => this.readAll({ fromPosition, limit }),
        headPosition: () => this.headPosition(),
        subscribe: (fromPosition) =>
          this.client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() }),
        onEnd: (s) => this.subscriptions.delete(s),
      },
      options.fromPosition,
      handler,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Stops every subscription; disposes the client when the store created it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.ownsClient) await this.client.dispose();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event store is closed');
  }
}

interface SubscriptionDeps {
  pageSize: number;
  readAll(fromPosition: bigint, limit: number): Promise<RecordedEvent[]>;
  headPosition(): Promise<bigint>;
  subscribe(fromPosition: ReadPosition): KurrentLiveSubscription;
  onEnd(subscription: KurrentDbSubscription): void;
}

const STOPPED = Symbol('stopped');

/**
 * Catches up with paged `readAll` (which knows how to start from any position of the port), then
 * follows a server-side catch-up subscription filtered on system events, starting after the last
 * event delivered (or after the head seen before catching up). Events reach the handler one at a
 * time, in order; a handler failure stops the subscription and rejects `done`.
 */
class KurrentDbSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private signalStop!: () => void;
  private readonly stopSignal = new Promise<typeof STOPPED>((resolve) => {
    this.signalStop = () => resolve(STOPPED);
  });

  constructor(
    private readonly deps: SubscriptionDeps,
    fromPosition: bigint,
    handler: EventHandler,
  ) {
    this.done = this.run(fromPosition, handler).finally(() => deps.onEnd(this));
    // Callers that only ever stop() must not see an unhandled rejection; `done` still rejects.
    this.done.catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    await this.done.catch(() => undefined);
  }

  private async run(fromPosition: bigint, handler: EventHandler): Promise<void> {
    // Read before catching up: if catching up finds nothing, every later event is after it.
    const head = await this.deps.headPosition();
    let next = fromPosition;
    let last: bigint | undefined;
    for (;;) {
      if (this.stopped) return;
      const page = await this.deps.readAll(next, this.deps.pageSize);
      for (const event of page) {
        if (this.stopped) return;
        await handler(event);
        last = event.globalPosition;
        next = last + 1n;
      }
      if (page.length < this.deps.pageSize) break;
    }
    if (this.stopped) return;

    const after = last ?? (head > 0n ? head : undefined);
    const live = this.deps.subscribe(after === undefined ? START : toKurrentPosition(after));
    const iterator = live[Symbol.asyncIterator]();
    try {
      while (!this.stopped) {
        const pending = iterator.next();
        pending.catch(() => undefined); // stop() may win the race below
        const item = await Promise.race([pending, this.stopSignal]);
        if (item === STOPPED) return;
        if (item.done) {
          if (this.stopped) return;
          throw new Error('the KurrentDB subscription to $all ended unexpectedly');
        }
        const resolved = item.value;
        if (!resolved.event || isSystemEvent(resolved.event)) continue;
        const event = toRecordedEvent(resolved);
        // Whether the server starts after or at the given position, nothing is delivered twice.
        if (event.globalPosition < next) continue;
        await handler(event);
        next = event.globalPosition + 1n;
      }
    } finally {
      await live.unsubscribe().catch(() => undefined);
      void iterator.return?.()?.catch(() => undefined);
    }
  }
}
