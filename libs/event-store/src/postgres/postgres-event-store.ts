import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { ListenConnection, type Listening } from '../../../platform/src/database/listen-connection';
import type { Clock } from '../../../platform/src/clock/clock';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import {
  EventStore,
  NO_STREAM,
  type AppendOptions,
  type AppendResult,
  type EventHandler,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store';
import { UUID } from '../../../platform/src/validation/uuid';

/**
 * The event store on PostgreSQL: one append-only table, `unique (stream_name, revision)` as the
 * optimistic concurrency check, a NOTIFY in each append's transaction, and LISTEN plus polling
 * for live subscriptions.
 *
 * Global order without gaps (docs/adr/0001-gap-free-global-order.md): positions come from a
 * sequence, so a transaction can commit after another one that drew a higher position. Each
 * append therefore takes its transaction id and its positions together under a short advisory
 * lock (`reserve_positions`), which makes position order and transaction-id order the same.
 * Readers of the global order only return rows whose transaction id is below the oldest
 * transaction still running (`pg_snapshot_xmin`): every lower position has then committed or
 * rolled back, so a late commit can never land behind a reader.
 */
export interface PostgresEventStoreOptions {
  /** How often a live subscription looks for events when no notification arrives; default 500. */
  pollIntervalMs?: number;
  /** The schema that holds the table and its functions; default `event_store`. */
  schema?: string;
}

const DEFAULT_SCHEMA = 'event_store';
const DEFAULT_POLL_INTERVAL_MS = 500;
const DEFAULT_READ_ALL_LIMIT = 1000;
const SUBSCRIPTION_PAGE = 1000;

// Advisory lock keys in the two-int key space: 'EVST', then what the lock guards.
const LOCK_CLASS = 0x45565354;
const MIGRATE_LOCK = 1;
const RESERVE_LOCK = 2;

const REVISION_KEY = 'events_stream_revision_key';
const EVENT_ID_KEY = 'events_event_id_key';

interface EventRow {
  global_position: string;
  stream_name: string;
  revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

const COLUMNS = 'global_position, stream_name, revision, event_id, type, data, metadata, recorded_at';

function schemaOf(options: { schema?: string }): string {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  // Interpolated into DDL and a channel name, so only plain lower-case identifiers.
  if (!/^[a-z_][a-z0-9_]{0,49}$/.test(schema)) throw new Error(`invalid event store schema name: ${schema}`);
  return schema;
}

function migrationSql(s: string): string {
  return `
    create schema if not exists ${s};

    create sequence if not exists ${s}.global_position_seq as bigint minvalue 1;

    create table if not exists ${s}.events (
      global_position bigint primary key,
      stream_name     text        not null check (stream_name <> ''),
      revision        bigint      not null check (revision >= 0),
      event_id        uuid        not null,
      type            text        not null check (type <> ''),
      data            jsonb       not null,
      metadata        jsonb       not null,
      recorded_at     timestamptz not null,
      -- The appending transaction; readers of the global order compare it with pg_snapshot_xmin.
      transaction_id  xid8        not null,
      constraint ${REVISION_KEY} unique (stream_name, revision),
      constraint ${EVENT_ID_KEY} unique (event_id)
    );

    alter sequence ${s}.global_position_seq owned by ${s}.events.global_position;

    -- Draws the transaction id and n consecutive positions atomically with respect to every
    -- other append. The session lock is released before commit, so appends still commit (and
    -- flush WAL) concurrently; only this microsecond step is serialised.
    create or replace function ${s}.reserve_positions(n integer, out transaction_id xid8, out first_position bigint)
    language plpgsql as $fn$
    begin
      if pg_current_xact_id_if_assigned() is not null then
        -- An earlier id could be lower than positions drawn by others before us.
        raise exception 'reserve_positions must come before any write in its transaction';
      end if;
      perform pg_advisory_lock(${LOCK_CLASS}, ${RESERVE_LOCK});
      begin
        transaction_id := pg_current_xact_id();
        select min(p) into first_position
          from (select nextval('${s}.global_position_seq') as p from generate_series(1, n)) as drawn;
      exception when others or query_canceled then
        -- A session lock outlives the transaction: never leave it behind.
        perform pg_advisory_unlock(${LOCK_CLASS}, ${RESERVE_LOCK});
        raise;
      end;
      perform pg_advisory_unlock(${LOCK_CLASS}, ${RESERVE_LOCK});
    end
    $fn$;

    -- One append in one statement (and so one round trip and one transaction): check the
    -- expected revision, reserve positions, insert, and NOTIFY the appended event types (sent when
    -- the transaction commits, and only if it does). A failed expectation writes nothing and
    -- answers appended = false with the stream's revision; a racing append that took the same
    -- revision meanwhile surfaces as a unique violation on ${REVISION_KEY}.
    create or replace function ${s}.append(
      stream text, expected text, expected_revision bigint, new_events jsonb, metadata jsonb,
      recorded_at timestamptz,
      out appended boolean, out current_revision bigint, out last_position bigint)
    language plpgsql as $fn$
    declare
      n integer := jsonb_array_length(new_events);
      reserved record;
    begin
      select coalesce(max(e.revision), -1) into current_revision
        from ${s}.events e where e.stream_name = append.stream;
      appended := case expected
        when 'any' then true
        when 'no_stream' then current_revision = -1
        when 'stream_exists' then current_revision >= 0
        when 'revision' then current_revision = expected_revision
      end;
      if appended is null then
        raise exception 'unknown expectation % %', expected, expected_revision;
      end if;
      if not appended then
        return;
      end if;
      select * into reserved from ${s}.reserve_positions(n);
      insert into ${s}.events
        (global_position, stream_name, revision, event_id, type, data, metadata, recorded_at, transaction_id)
      select reserved.first_position + e.ord - 1, append.stream, current_revision + e.ord,
             (e.event->>'id')::uuid, e.event->>'type', e.event->'data', append.metadata,
             append.recorded_at, reserved.transaction_id
        from jsonb_array_elements(new_events) with ordinality as e(event, ord);
      current_revision := current_revision + n;
      last_position := reserved.first_position + n - 1;
      perform pg_notify('${s}_appended', ${s}.announced_types(new_events));
    end
    $fn$;

    -- The NOTIFY payload: the appended event types, comma-separated, so that a subscriber handling
    -- none of them can stay asleep. Empty (wake everyone) when the list would not fit PostgreSQL's
    -- 8000-byte payload or a type is not a plain name (a comma would split it).
    create or replace function ${s}.announced_types(new_events jsonb) returns text
    language sql immutable as $fn$
      select case when length(list) <= 7000 and list ~ '^[A-Za-z0-9_.:,-]+$' then list else '' end
        from (select string_agg(distinct e.event->>'type', ',') as list
                from jsonb_array_elements(new_events) as e(event)) as types
    $fn$;

    create or replace function ${s}.refuse_change() returns trigger
    language plpgsql as $fn$
    begin
      raise exception '${s}.events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $fn$;

    drop trigger if exists events_append_only on ${s}.events;
    create trigger events_append_only before update or delete on ${s}.events
      for each row execute function ${s}.refuse_change();
    drop trigger if exists events_no_truncate on ${s}.events;
    create trigger events_no_truncate before truncate on ${s}.events
      for each statement execute function ${s}.refuse_change();
  `;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    stream: row.stream_name,
    revision: BigInt(row.revision),
    globalPosition: BigInt(row.global_position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}

function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
}

function pgError(error: unknown): { code?: string; constraint?: string } {
  return typeof error === 'object' && error !== null ? (error as { code?: string; constraint?: string }) : {};
}

function toJson(value: unknown, what: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new InvalidAppend(`${what} is not JSON: ${(error as Error).message}`);
  }
  if (json === undefined) throw new InvalidAppend(`${what} is not JSON`);
  return json;
}

export class PostgresEventStore extends EventStore {
  private readonly schema: string;
  private readonly channel: string;
  private readonly pollIntervalMs: number;
  private readonly subscriptions = new Set<LiveSubscription>();
  private listening: Listening | null = null;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    options: PostgresEventStoreOptions = {},
  ) {
    super();
    this.schema = schemaOf(options);
    this.channel = `${this.schema}_appended`;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }

  /**
   * Creates or completes the schema. Idempotent, and safe when several processes start at once:
   * they queue on an advisory lock instead of racing on `create ... if not exists`.
   */
  static async migrate(pool: Pool, options: Pick<PostgresEventStoreOptions, 'schema'> = {}): Promise<void> {
    await migrateWithLock(pool, [LOCK_CLASS, MIGRATE_LOCK], migrationSql(schemaOf(options)));
  }

  async appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new InvalidAppend(`append to ${stream} has no events`);
    if (stream === '') throw new InvalidAppend('stream name is empty');
    // Stored as uuid, so a caller's id comes back in canonical lower-case form.
    const ids = events.map((e) => e.id ?? randomUUID());
    for (const id of ids) if (!UUID.test(id)) throw new InvalidAppend(`event id ${id} is not a UUID`);
    if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length) {
      throw new InvalidAppend(`append to ${stream} repeats an event id`);
    }
    for (const e of events) {
      if (!e.type) throw new InvalidAppend(`an event for ${stream} has no type`);
      if (e.data === undefined) throw new InvalidAppend(`event ${e.type} for ${stream} has no data`);
    }
    const payload = toJson(
      events.map((e, i) => ({ id: ids[i], type: e.type, data: e.data })),
      `events for ${stream}`,
    );
    const metadata = toJson(options.metadata, 'metadata');

    // With 'any' and 'stream_exists' a concurrent append only moved the end of the stream, which
    // the caller's expectation still allows: take the new end and try again. Each retry means
    // another append succeeded, so this cannot spin without the store making progress.
    for (;;) {
      try {
        return await this.tryAppend(stream, payload, metadata, options.expectedRevision);
      } catch (error) {
        const { code, constraint } = pgError(error);
        if (code === '23505' && constraint === REVISION_KEY) {
          const expected = options.expectedRevision;
          if (expected === 'any' || expected === 'stream_exists') continue;
          throw new WrongExpectedRevision(stream, expected, await this.revisionOf(stream));
        }
        if (code === '23505' && constraint === EVENT_ID_KEY) {
          throw new InvalidAppend(`append to ${stream}: an event id is already stored`);
        }
        // 22P05: text jsonb cannot hold, such as \u0000.
        if (code === '22P05') throw new InvalidAppend(`append to ${stream}: ${(error as Error).message}`);
        throw error;
      }
    }
  }

  private async tryAppend(
    stream: string,
    events: string,
    metadata: string,
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const { rows } = await this.pool.query<{
      appended: boolean;
      current_revision: string;
      last_position: string;
    }>({
      name: `${this.schema}.append`,
      text: `select appended, current_revision, last_position from ${this.schema}.append($1, $2, $3, $4, $5, $6)`,
      values: [
        stream,
        typeof expected === 'bigint' ? 'revision' : expected,
        typeof expected === 'bigint' ? String(expected) : null,
        events,
        metadata,
        this.clock.now().toISOString(),
      ],
    });
    const { appended, current_revision, last_position } = rows[0];
    if (!appended) throw new WrongExpectedRevision(stream, expected, BigInt(current_revision));
    return { nextRevision: BigInt(current_revision), position: BigInt(last_position) };
  }

  private async revisionOf(stream: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ revision: string | null }>(
      `select max(revision) as revision from ${this.schema}.events where stream_name = $1`,
      [stream],
    );
    return rows[0].revision === null ? NO_STREAM : BigInt(rows[0].revision);
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    checkLimit(options.limit);
    // No visibility cut here: a stream is ordered by revision, which the unique key keeps gap-free,
    // and the command path must see the latest committed revision.
    const { rows } = await this.pool.query<EventRow>({
      name: `${this.schema}.read_stream`,
      text: `select ${COLUMNS} from ${this.schema}.events
        where stream_name = $1 and revision >= $2
        order by revision limit $3`,
      values: [stream, String(options.fromRevision ?? 0n), options.limit ?? null],
    });
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    checkLimit(options.limit);
    const { rows } = await this.pool.query<EventRow>({
      name: `${this.schema}.read_all`,
      text: `select ${COLUMNS} from ${this.schema}.events
        where global_position >= $1
          and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        order by global_position limit $2`,
      values: [String(options.fromPosition ?? 1n), options.limit ?? DEFAULT_READ_ALL_LIMIT],
    });
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ global_position: string }>(
      `select global_position from ${this.schema}.events
        where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        order by global_position desc limit 1`,
    );
    return rows.length === 0 ? 0n : BigInt(rows[0].global_position);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    if (this.closed) throw new Error('the event store is closed');
    const subscription = new LiveSubscription({
      read: (fromPosition) => this.readAll({ fromPosition, limit: SUBSCRIPTION_PAGE }),
      pageSize: SUBSCRIPTION_PAGE,
      pollIntervalMs: this.pollIntervalMs,
      beforeWait: () => this.ensureListening(),
      onEnd: (s) => {
        this.subscriptions.delete(s);
        // The last one gone: leave the LISTEN connection (its last subscriber closes it).
        if (this.subscriptions.size === 0) void this.stopListening();
      },
    });
    this.subscriptions.add(subscription);
    subscription.start(options.fromPosition, handler);
    return subscription;
  }

  /** Stops every subscription and leaves the LISTEN connection; the pool belongs to the caller. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.stopListening();
  }

  private async stopListening(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    await listening?.close();
  }

  /**
   * Live subscriptions wake on the process's LISTEN connection ({@link ListenConnection}), opened
   * with the pool's connection string; without one they poll. If the connection breaks,
   * subscribers keep polling and the next wait reopens it.
   */
  private ensureListening(): void {
    if (this.closed) return;
    const url = this.pool.options.connectionString;
    if (!url) return;
    this.listening ??= ListenConnection.subscribe(url, this.channel, { notify: () => this.wakeAll() });
    this.listening.ensure();
  }

  private wakeAll(): void {
    for (const s of this.subscriptions) s.wake();
  }
}

interface LiveSubscriptionDeps {
  read(fromPosition: bigint): Promise<RecordedEvent[]>;
  pageSize: number;
  pollIntervalMs: number;
  beforeWait(): void;
  onEnd(subscription: LiveSubscription): void;
}

/**
 * Reads pages from a position and hands each event to the handler, one at a time; when caught up
 * it waits for a wake-up (a notification) or the poll interval, then reads again. Nothing but the
 * last delivered position is kept, so a lost wake-up only delays delivery.
 */
class LiveSubscription implements Subscription {
  done!: Promise<void>;
  private stopped = false;
  // Set by every wake-up; cleared just before a read, so one arriving during a read or a handler
  // call makes the loop read again instead of sleeping.
  private woken = false;
  private interrupt: (() => void) | null = null;

  constructor(private readonly deps: LiveSubscriptionDeps) {}

  start(fromPosition: bigint, handler: EventHandler): void {
    this.done = this.run(fromPosition, handler).finally(() => this.deps.onEnd(this));
    // Callers that only ever stop() must not see an unhandled rejection; `done` still rejects.
    this.done.catch(() => undefined);
  }

  wake(): void {
    this.woken = true;
    this.interrupt?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt?.();
    await this.done.catch(() => undefined);
  }

  private async run(fromPosition: bigint, handler: EventHandler): Promise<void> {
    let next = fromPosition;
    while (!this.stopped) {
      this.woken = false;
      const page = await this.deps.read(next);
      for (const event of page) {
        if (this.stopped) return;
        await handler(event);
        next = event.globalPosition + 1n;
      }
      if (page.length < this.deps.pageSize && !this.woken && !this.stopped) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    this.deps.beforeWait();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.interrupt = null;
        resolve();
      };
      const timer = setTimeout(finish, this.deps.pollIntervalMs);
      this.interrupt = finish;
    });
  }
}
