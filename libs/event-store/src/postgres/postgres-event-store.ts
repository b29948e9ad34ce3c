import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { ListenConnection, type Listening } from '../../../platform/src/database/listen-connection';
import type { Clock } from '../../../platform/src/clock/clock';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';
import { IdempotencyRecordTaken } from '../../../platform/src/idempotency/request-record';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import { AppendBatcher, type ItemOutcome } from './append-batcher';
import {
  EventStore,
  NO_STREAM,
  type AppendOptions,
  type AppendResult,
  type EventHandler,
  type EventMetadata,
  type NewEvent,
  type ReadAllOptions,
  type ReadEvent,
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
  /**
   * Group commit (docs/adr/0008-write-path.md): appends that arrive while a batch is being written
   * share the next statement and commit, up to `batchesInFlight` batches at a time (default 1).
   * false: every append is a statement and a transaction of its own. Default true.
   */
  groupCommit?: boolean;
  batchesInFlight?: number;
}

/** The most appends one group commit carries. */
const MAX_BATCH_ITEMS = 256;

const DEFAULT_SCHEMA = 'event_store';
const DEFAULT_POLL_INTERVAL_MS = 500;
const DEFAULT_READ_ALL_LIMIT = 1000;
const SUBSCRIPTION_PAGE = 1000;

// Advisory lock keys in the two-int key space: 'EVST', then what the lock guards.
const LOCK_CLASS = 0x45565354;
const MIGRATE_LOCK = 1;
const RESERVE_LOCK = 2;
// One transaction advisory lock per stream being appended to ('EVSS', hashtext(stream)).
const STREAM_LOCK_CLASS = 0x45565353;

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

/** A row of `readAllOf`: `data` and `metadata` are null where `wanted` is false. */
interface PassedOrEventRow extends EventRow {
  wanted: boolean;
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

    -- What locks a table (the sequence's owner, the triggers) is done only when missing: a process
    -- starting beside others must not wait for their appends, nor deadlock with one (it reads the
    -- table, then takes its positions; the DDL would take them the other way round).
    do $do$
    begin
      if not exists (
        select 1 from pg_depend
         where objid = '${s}.global_position_seq'::regclass and refobjid = '${s}.events'::regclass
           and deptype = 'a'
      ) then
        alter sequence ${s}.global_position_seq owned by ${s}.events.global_position;
      end if;
    end
    $do$;

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

    drop function if exists ${s}.append(text, text, bigint, jsonb, jsonb, timestamptz);

    -- Appends in one statement, one transaction and one commit (group commit): each item of the
    -- JSON array is { stream, expected ('any' | 'no_stream' | 'stream_exists' | 'revision'),
    -- revision, events: [{ id, type, data }], metadata, recordedAt, record }. Each item is
    -- appended whole or refused whole, with an answer of its own:
    --   appended     its events are written (and its record writes, if any);
    --   revision     its expected revision does not hold (item_revision: the stream's);
    --   idempotency  its record insert finds the key taken (a twin of the request wrote it first).
    -- Refusals write nothing and do not touch the other items. Items of one stream apply in order,
    -- each seeing the ones before it. Streams are locked (transaction advisory locks, in one order
    -- so batches never deadlock) until the commit, so a revision cannot move between its check
    -- and its insert. Positions are reserved once for the whole batch, before its first write
    -- (ADR 0001), and the appended event types are NOTIFYd with the commit.
    --
    -- record (the request's idempotency record, docs/adr/0008-write-path.md): { scope, keyHash,
    -- commandId, begin: null | { fingerprint, createdAt, leaseSeconds, leaseToken }, answer: null
    -- | { status, headers, body (base64), completedAt } }. A begin inserts the record (completed at
    -- once when the answer comes too); an answer alone completes the record of that command.
    create or replace function ${s}.append_batch(items jsonb)
    returns table (item_index integer, item_outcome text, item_revision bigint, item_last_position bigint)
    language plpgsql as $fn$
    declare
      item jsonb;
      rec jsonb;
      count_items integer := jsonb_array_length(items);
      outcomes text[] := array_fill(null::text, array[count_items]);
      revisions bigint[] := array_fill(null::bigint, array[count_items]);
      heads jsonb := '{}';
      claimed text[] := '{}';
      -- The appended items' types, as their appends listed them (comma-separated); '' wakes everyone.
      announced text := null;
      wake_all boolean := false;
      total integer := 0;
      n integer;
      cur bigint;
      ok boolean;
      lock_key integer;
      next_position bigint;
      reserved record;
    begin
      for lock_key in
        select distinct hashtext(x->>'stream') from jsonb_array_elements(items) as x order by 1
      loop
        perform pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, lock_key);
      end loop;

      -- Checks first (no writes before the reservation).
      for i in 1 .. count_items loop
        item := items->(i - 1);
        n := jsonb_array_length(item->'events');
        if heads ? (item->>'stream') then
          cur := (heads->>(item->>'stream'))::bigint;
        else
          select coalesce(max(e.revision), -1) into cur from ${s}.events e where e.stream_name = item->>'stream';
        end if;
        ok := case item->>'expected'
          when 'any' then true
          when 'no_stream' then cur = -1
          when 'stream_exists' then cur >= 0
          when 'revision' then cur = (item->>'revision')::bigint
        end;
        if ok is null then
          raise exception 'unknown expectation % %', item->>'expected', item->>'revision';
        end if;
        outcomes[i] := case when ok then 'appended' else 'revision' end;
        rec := item->'record';
        if ok and jsonb_typeof(rec->'begin') = 'object' then
          if (rec->>'scope') || ' ' || (rec->>'keyHash') = any(claimed) or exists (
               select 1 from platform.idempotency_records r
                where r.scope = rec->>'scope' and r.key_hash = rec->>'keyHash') then
            ok := false;
            outcomes[i] := 'idempotency';
          else
            claimed := claimed || ((rec->>'scope') || ' ' || (rec->>'keyHash'));
          end if;
        end if;
        revisions[i] := cur;
        if ok then
          heads := heads || jsonb_build_object(item->>'stream', cur + n);
          total := total + n;
        end if;
      end loop;

      if total > 0 then
        select * into reserved from ${s}.reserve_positions(total);
        next_position := reserved.first_position;
      end if;

      for i in 1 .. count_items loop
        item_index := i;
        item_outcome := outcomes[i];
        item_revision := revisions[i];
        item_last_position := null;
        if outcomes[i] = 'appended' then
          item := items->(i - 1);
          rec := item->'record';
          n := jsonb_array_length(item->'events');
          if jsonb_typeof(rec->'begin') = 'object' then
            insert into platform.idempotency_records
              (scope, key_hash, command_id, fingerprint, state, created_at, lease_until, lease_token,
               response_status, response_headers, response_body, completed_at)
            values (rec->>'scope', rec->>'keyHash', (rec->>'commandId')::uuid, rec->'begin'->>'fingerprint',
              case when jsonb_typeof(rec->'answer') = 'object' then 'completed' else 'in_progress' end,
              (rec->'begin'->>'createdAt')::timestamptz,
              case when jsonb_typeof(rec->'answer') = 'object' then '-infinity'::timestamptz
                   else clock_timestamp() + make_interval(secs => (rec->'begin'->>'leaseSeconds')::float8) end,
              (rec->'begin'->>'leaseToken')::uuid,
              (rec->'answer'->>'status')::integer, rec->'answer'->'headers',
              decode(rec->'answer'->>'body', 'base64'), (rec->'answer'->>'completedAt')::timestamptz);
          elsif jsonb_typeof(rec->'answer') = 'object' then
            update platform.idempotency_records
               set state = 'completed', response_status = (rec->'answer'->>'status')::integer,
                   response_headers = rec->'answer'->'headers',
                   response_body = decode(rec->'answer'->>'body', 'base64'),
                   completed_at = (rec->'answer'->>'completedAt')::timestamptz
             where scope = rec->>'scope' and key_hash = rec->>'keyHash'
               and command_id = (rec->>'commandId')::uuid;
          end if;
          if n > 0 then
            insert into ${s}.events
              (global_position, stream_name, revision, event_id, type, data, metadata, recorded_at, transaction_id)
            select next_position + e.ord - 1, item->>'stream', revisions[i] + e.ord, (e.event->>'id')::uuid,
                   e.event->>'type', e.event->'data', item->'metadata', (item->>'recordedAt')::timestamptz,
                   reserved.transaction_id
              from jsonb_array_elements(item->'events') with ordinality as e(event, ord);
            if item->>'types' = '' then
              wake_all := true;
            else
              announced := case when announced is null then item->>'types' else announced || ',' || (item->>'types') end;
            end if;
            next_position := next_position + n;
            item_revision := revisions[i] + n;
            item_last_position := next_position - 1;
          end if;
        end if;
        return next;
      end loop;

      if total > 0 then
        -- PostgreSQL's payload holds 8000 bytes: past that, everyone wakes and reads.
        perform pg_notify('${s}_appended',
          case when wake_all or length(announced) > 7000 then '' else announced end);
      end if;
    end
    $fn$;

    drop function if exists ${s}.announced_types(jsonb);
    drop function if exists ${s}.announced_types(text[]);

    create or replace function ${s}.refuse_change() returns trigger
    language plpgsql as $fn$
    begin
      raise exception '${s}.events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end
    $fn$;

    do $do$
    begin
      if not exists (select 1 from pg_trigger
                      where tgrelid = '${s}.events'::regclass and tgname = 'events_append_only') then
        create trigger events_append_only before update or delete on ${s}.events
          for each row execute function ${s}.refuse_change();
      end if;
      if not exists (select 1 from pg_trigger
                      where tgrelid = '${s}.events'::regclass and tgname = 'events_no_truncate') then
        create trigger events_no_truncate before truncate on ${s}.events
          for each statement execute function ${s}.refuse_change();
      end if;
    end
    $do$;
  `;
}

/**
 * The NOTIFY payload's part for one append: its event types, distinct and comma-separated, so
 * that a subscriber handling none of them can stay asleep; '' (wake everyone) when a type is not a
 * plain name (a comma would split it, a quote would break the JSON it travels in).
 */
function announcedTypes(events: readonly NewEvent[]): string {
  const types = [...new Set(events.map((e) => e.type))].sort();
  return types.every((type) => PLAIN_TYPE.test(type)) ? types.join(',') : '';
}

const PLAIN_TYPE = /^[A-Za-z0-9_.:-]+$/;

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
  /** The LISTEN subscription of `onAppended` watchers. */
  private watch: Listening | null = null;
  private readonly batcher: AppendBatcher;
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
    const group = options.groupCommit ?? true;
    this.batcher = new AppendBatcher((items) => this.writeBatch(items), {
      maxInFlight: group ? (options.batchesInFlight ?? 1) : Number.POSITIVE_INFINITY,
      maxItems: group ? MAX_BATCH_ITEMS : 1,
    });
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
    const expected = options.expectedRevision;
    // What the NOTIFY announces for this append (see `announcedTypes`).
    const types = announcedTypes(events);
    const item = {
      json:
        `{"stream":${JSON.stringify(stream)},"expected":"${typeof expected === 'bigint' ? 'revision' : expected}",` +
        `"revision":${typeof expected === 'bigint' ? `"${expected}"` : 'null'},"events":${payload},` +
        `"metadata":${metadata},"recordedAt":"${this.clock.now().toISOString()}","types":"${types}",` +
        `"record":${options.record ? JSON.stringify(options.record) : 'null'}}`,
    };

    // With 'any' and 'stream_exists' a concurrent append only moved the end of the stream, which
    // the caller's expectation still allows: take the new end and try again. Each retry means
    // another append succeeded, so this cannot spin without the store making progress. (Appends
    // lock their streams, so this only happens beside a writer that does not.)
    for (;;) {
      let outcome: ItemOutcome;
      try {
        outcome = await this.batcher.submit(item);
      } catch (error) {
        const { code, constraint } = pgError(error);
        if (code === '23505' && constraint === REVISION_KEY) {
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
      if (outcome.outcome === 'revision') throw new WrongExpectedRevision(stream, expected, outcome.revision);
      if (outcome.outcome === 'idempotency') throw new IdempotencyRecordTaken();
      this.appended(events.map((e) => e.type));
      return { nextRevision: outcome.revision, position: outcome.lastPosition! };
    }
  }

  /** Appends queued behind the batch being written (group commit's backlog; 0 when idle). */
  get appendsWaiting(): number {
    return this.batcher.waiting;
  }

  /** One statement for a batch of items (see `append_batch`). */
  private async writeBatch(items: string): Promise<ItemOutcome[]> {
    const { rows } = await this.pool.query<{
      item_outcome: ItemOutcome['outcome'];
      item_revision: string;
      item_last_position: string | null;
    }>({
      name: `${this.schema}.append_batch`,
      text: `select item_outcome, item_revision, item_last_position from ${this.schema}.append_batch($1)`,
      values: [items],
    });
    return rows.map((row) => ({
      outcome: row.item_outcome,
      revision: BigInt(row.item_revision),
      lastPosition: row.item_last_position === null ? null : BigInt(row.item_last_position),
    }));
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
      ...this.visiblePage('read_all', COLUMNS),
      values: [String(options.fromPosition ?? 1n), options.limit ?? DEFAULT_READ_ALL_LIMIT],
    });
    return rows.map(toRecorded);
  }

  /** One statement: the payload columns only for `types`, the rest of each row for ordering. */
  override async readAllOf(types: readonly string[], options: ReadAllOptions = {}): Promise<ReadEvent[]> {
    checkLimit(options.limit);
    const { rows } = await this.pool.query<PassedOrEventRow>({
      ...this.visiblePage(
        'read_all_of',
        `global_position, stream_name, revision, event_id, type, recorded_at,
         type = any($3::text[]) as wanted,
         case when type = any($3::text[]) then data end as data,
         case when type = any($3::text[]) then metadata end as metadata`,
      ),
      values: [String(options.fromPosition ?? 1n), options.limit ?? DEFAULT_READ_ALL_LIMIT, types],
    });
    return rows.map((row) =>
      row.wanted
        ? toRecorded(row)
        : { globalPosition: BigInt(row.global_position), type: row.type, passed: true },
    );
  }

  /**
   * A page of the global order from position $1, $2 events at most, with the gap-free rule of
   * ADR 0001: no event an open transaction could still precede. Named, so each connection
   * prepares it once (projectors read a page many times a second).
   */
  private visiblePage(name: string, columns: string): { name: string; text: string } {
    return {
      name: `${this.schema}.${name}`,
      text: `select ${columns} from ${this.schema}.events
        where global_position >= $1
          and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        order by global_position limit $2`,
    };
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ global_position: string }>(
      `select global_position from ${this.schema}.events
        where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        order by global_position desc limit 1`,
    );
    return rows.length === 0 ? 0n : BigInt(rows[0].global_position);
  }

  /** Every committed event is visible here, whatever is still committing below it. */
  override async lastCommittedPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ last: string | null }>(
      `select max(global_position)::text as last from ${this.schema}.events`,
    );
    return BigInt(rows[0].last ?? '0');
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
    await this.watch?.close();
    this.watch = null;
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

  /**
   * While someone watches appends, the NOTIFYs of every process reach them (through the process's
   * LISTEN connection); a lost connection tells them null (anything may have changed) and is
   * reopened a second later.
   */
  protected override watching(active: boolean): void {
    const url = this.pool.options.connectionString;
    if (!active || !url || this.closed) {
      void this.watch?.close();
      this.watch = null;
      return;
    }
    const watch = ListenConnection.subscribe(url, this.channel, {
      notify: (payload) => {
        this.appended(payload ? payload.split(',') : null);
        if (!payload) setTimeout(() => watch.ensure(), 1000).unref();
      },
    });
    this.watch = watch;
    watch.ensure();
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
