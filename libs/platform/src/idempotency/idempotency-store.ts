import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { Clock } from '../clock/clock';
import { migrateWithLock } from '../database/migrate-with-lock';

/** Advisory-lock key of this table's migration (class 0x1de0, a namespace of our own). */
const IDEMPOTENCY_MIGRATE_LOCK: [number, number] = [0x1de0, 1];

/** What a write answered, kept so that a retry gets the very same answer. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What `lookup` finds for a key, without writing anything. */
export type LookupOutcome =
  /** No record: the request may run, and its record goes with its first append. */
  | { kind: 'absent' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reused' }
  | { kind: 'in_progress'; retryAfterSeconds: number }
  /** A run that died (its lease ran out), or a record past the window: `begin` takes it over. */
  | { kind: 'take_over' };

/**
 * The writes of one request's record that go in the same transaction as one of its appends
 * (docs/adr/0008-write-path.md): `begin` inserts the record (in progress, with a lease) with the
 * request's first append; `answer` stores the response with its last one. An append refused for
 * its expected revision writes neither; one whose `begin` finds the key taken writes nothing and
 * is refused ({@link IdempotencyRecordTaken}).
 */
export interface RecordWrites {
  scope: string;
  keyHash: string;
  commandId: string;
  begin: { fingerprint: string; createdAt: string; leaseSeconds: number; leaseToken: string } | null;
  /** The sealed response body is base64. */
  answer: { status: number; headers: Record<string, string>; body: string; completedAt: string } | null;
}

export type BeginOutcome =
  /**
   * Run the request. `commandId` goes on every event as `causation_id`; `lease` names this run's
   * hold on the key (renewed by {@link IdempotencyStore.hold}, ended by `abandon`).
   */
  | { kind: 'execute'; commandId: string; resumed: boolean; lease: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reused' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

export interface IdempotencyOptions {
  /**
   * How long a run holds its key without renewing it. A live run renews it every
   * `heartbeatSeconds`, so this is only how long a crashed run keeps its twins waiting.
   */
  leaseSeconds?: number;
  /** How often a live run renews its lease; also the twin's `Retry-After`. */
  heartbeatSeconds?: number;
  /** A run still going after this stops renewing, so a wedged handler cannot hold its key forever. */
  maxHoldSeconds?: number;
  /** After this, on the service clock, the key is fresh again (spec: 24 hours). */
  windowSeconds?: number;
  /**
   * The event store writes records in its appends' transactions (PostgreSQL): a request's record
   * may then wait for its first append, and its answer ride its last one. Off for a store that
   * cannot (KurrentDB): every record is written on its own, before the request runs.
   */
  joinsAppends?: boolean;
}

interface RecordRow {
  command_id: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  created_at: Date;
  lease_seconds_left: number;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Buffer | null;
}

/** A running request's hold on its key: renewed in the background until released. */
export interface KeyHold {
  /** Stops renewing, and waits for a renewal already under way (so `abandon` comes after it). */
  release(): Promise<void>;
}

const SCHEMA = `
create schema if not exists platform;
create table if not exists platform.idempotency_records (
  scope text not null,
  key_hash text not null,
  command_id uuid not null,
  fingerprint text not null,
  state text not null check (state in ('in_progress', 'completed')),
  created_at timestamptz not null,
  lease_until timestamptz not null,
  response_status integer,
  response_headers jsonb,
  response_body bytea,
  completed_at timestamptz,
  primary key (scope, key_hash)
);
-- What locks the table is done only when missing: a process starting beside others must take no
-- lock their writes hold. (\`create index if not exists\` takes a share lock before it looks, and
-- \`add column if not exists\` an exclusive one: a restarted process died at start-up with
-- \`deadlock detected\` against a write that read the table, then wrote it.)
do $do$
begin
  if to_regclass('platform.idempotency_records_created_at') is null then
    create index idempotency_records_created_at on platform.idempotency_records (created_at);
  end if;
  -- Which run holds the lease: a run that lost it (it stalled past the lease and a retry took over
  -- under the same command id) can neither renew nor end the new holder's lease.
  if not exists (
    select 1 from information_schema.columns
     where table_schema = 'platform' and table_name = 'idempotency_records' and column_name = 'lease_token'
  ) then
    alter table platform.idempotency_records add column lease_token uuid;
  end if;
end
$do$;
`;

/**
 * Idempotency records (spec Limits; ADR 0004). One row per (partner, key): the request's
 * fingerprint, a lease while it runs, and then the response it produced.
 *
 * The key itself is not stored: rows are found by a hash of scope and key, and the stored
 * response is encrypted with a key derived from the Idempotency-Key, so only a caller who
 * presents the key again can have it back (a key-issuing response holds a secret).
 */
export class IdempotencyStore {
  readonly leaseSeconds: number;
  readonly heartbeatSeconds: number;
  private readonly maxHoldSeconds: number;
  private readonly windowSeconds: number;
  readonly joinsAppends: boolean;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    options: IdempotencyOptions = {},
  ) {
    this.leaseSeconds = options.leaseSeconds ?? 5;
    this.heartbeatSeconds = options.heartbeatSeconds ?? 1;
    this.maxHoldSeconds = options.maxHoldSeconds ?? 120;
    this.windowSeconds = options.windowSeconds ?? 24 * 60 * 60;
    this.joinsAppends = options.joinsAppends ?? false;
    // A lease must survive a missed heartbeat or two (a busy event loop, a slow pool).
    if (this.heartbeatSeconds * 3 > this.leaseSeconds) {
      throw new Error('idempotency lease must be at least three heartbeats long');
    }
  }

  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, IDEMPOTENCY_MIGRATE_LOCK, SCHEMA);
  }

  /**
   * Takes the key for a run. `options.commandId` is for keys the platform derives itself (a
   * contract's `recurring:{contract}:{installment}`): the caller names the command id, derived from
   * what the key stands for, so a run after the window (a fresh record) still carries the command
   * id of the first run and finds what it wrote. A partner's key always gets a random one.
   */
  async begin(
    scope: string,
    key: string,
    fingerprint: string,
    options: { commandId?: string } = {},
  ): Promise<BeginOutcome> {
    const keyHash = hashOf(scope, key);
    const now = this.clock.now();
    const commandId = options.commandId ?? randomUUID();
    const lease = randomUUID();
    const inserted = await this.pool.query({
      name: 'idempotency.begin',
      text: `insert into platform.idempotency_records
         (scope, key_hash, command_id, fingerprint, state, created_at, lease_until, lease_token)
       values ($1, $2, $3, $4, 'in_progress', $5, clock_timestamp() + make_interval(secs => $6), $7)
       on conflict (scope, key_hash) do nothing`,
      values: [scope, keyHash, commandId, fingerprint, now, this.leaseSeconds, lease],
    });
    if (inserted.rowCount === 1) return { kind: 'execute', commandId, resumed: false, lease };

    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<RecordRow>(
        `select command_id, fingerprint, state, created_at, response_status, response_headers,
                response_body, extract(epoch from lease_until - clock_timestamp())::float8 as lease_seconds_left
           from platform.idempotency_records where scope = $1 and key_hash = $2 for update`,
        [scope, keyHash],
      );
      const row = rows[0];
      let outcome: BeginOutcome;
      if (!row || now.getTime() - row.created_at.getTime() >= this.windowSeconds * 1000) {
        // Older than the window: the key is fresh, whatever it did before.
        await client.query(
          `insert into platform.idempotency_records
             (scope, key_hash, command_id, fingerprint, state, created_at, lease_until, lease_token)
           values ($1, $2, $3, $4, 'in_progress', $5, clock_timestamp() + make_interval(secs => $6), $7)
           on conflict (scope, key_hash) do update set
             command_id = excluded.command_id, fingerprint = excluded.fingerprint,
             state = 'in_progress', created_at = excluded.created_at, lease_until = excluded.lease_until,
             lease_token = excluded.lease_token,
             response_status = null, response_headers = null, response_body = null, completed_at = null`,
          [scope, keyHash, commandId, fingerprint, now, this.leaseSeconds, lease],
        );
        outcome = { kind: 'execute', commandId, resumed: false, lease };
      } else if (row.fingerprint !== fingerprint) {
        outcome = { kind: 'reused' };
      } else if (row.state === 'completed') {
        outcome = { kind: 'replay', response: this.responseOf(row, scope, key) };
      } else if (row.lease_seconds_left > 0) {
        outcome = { kind: 'in_progress', retryAfterSeconds: this.retryAfter(row) };
      } else {
        // The first run died (or failed) without an answer: this request takes over under the
        // same command id, so events the first run already appended are recognised, not repeated.
        await client.query(
          `update platform.idempotency_records
              set lease_until = clock_timestamp() + make_interval(secs => $3), lease_token = $4
            where scope = $1 and key_hash = $2`,
          [scope, keyHash, this.leaseSeconds, lease],
        );
        outcome = { kind: 'execute', commandId: row.command_id, resumed: true, lease };
      }
      await client.query('commit');
      return outcome;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * What the key's record says, read without writing: the first step of a request whose record
   * waits for its first append. `take_over` (a dead run's expired lease, or a record past the
   * window) is for `begin`, which writes.
   */
  async lookup(scope: string, key: string, fingerprint: string): Promise<LookupOutcome> {
    const { rows } = await this.pool.query<RecordRow>({
      name: 'idempotency.lookup',
      text: `select command_id, fingerprint, state, created_at, response_status, response_headers, response_body,
                    extract(epoch from lease_until - clock_timestamp())::float8 as lease_seconds_left
               from platform.idempotency_records where scope = $1 and key_hash = $2`,
      values: [scope, hashOf(scope, key)],
    });
    const row = rows[0];
    if (!row) return { kind: 'absent' };
    if (this.clock.now().getTime() - row.created_at.getTime() >= this.windowSeconds * 1000) {
      return { kind: 'take_over' };
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'completed') return { kind: 'replay', response: this.responseOf(row, scope, key) };
    if (row.lease_seconds_left > 0) return { kind: 'in_progress', retryAfterSeconds: this.retryAfter(row) };
    return { kind: 'take_over' };
  }

  /** The insert of a new record (in progress, with a lease), for an append's transaction. */
  beginWrite(
    scope: string,
    key: string,
    commandId: string,
    fingerprint: string,
    lease: string,
  ): RecordWrites {
    return {
      scope,
      keyHash: hashOf(scope, key),
      commandId,
      begin: {
        fingerprint,
        createdAt: this.clock.now().toISOString(),
        leaseSeconds: this.leaseSeconds,
        leaseToken: lease,
      },
      answer: null,
    };
  }

  /** The answer of a record, sealed as `complete` stores it, for an append's transaction. */
  answerWrite(scope: string, key: string, response: StoredResponse): NonNullable<RecordWrites['answer']> {
    return {
      status: response.status,
      headers: response.headers,
      body: encrypt(response.body, scope, key).toString('base64'),
      completedAt: this.clock.now().toISOString(),
    };
  }

  /**
   * A request that appended nothing stores its answer as a new, completed record: true, or false
   * when the key was taken meanwhile (a twin ran; `lookup` says what to answer).
   */
  async insertCompleted(
    scope: string,
    key: string,
    commandId: string,
    fingerprint: string,
    response: StoredResponse,
  ): Promise<boolean> {
    const now = this.clock.now();
    const inserted = await this.pool.query({
      name: 'idempotency.insert_completed',
      text: `insert into platform.idempotency_records
               (scope, key_hash, command_id, fingerprint, state, created_at, lease_until, response_status,
                response_headers, response_body, completed_at)
             values ($1, $2, $3, $4, 'completed', $5, '-infinity', $6, $7, $8, $5)
             on conflict (scope, key_hash) do nothing`,
      values: [
        scope,
        hashOf(scope, key),
        commandId,
        fingerprint,
        now,
        response.status,
        JSON.stringify(response.headers),
        encrypt(response.body, scope, key),
      ],
    });
    return inserted.rowCount === 1;
  }

  private responseOf(row: RecordRow, scope: string, key: string): StoredResponse {
    return {
      status: row.response_status!,
      headers: row.response_headers ?? {},
      body: decrypt(row.response_body, scope, key),
    };
  }

  /**
   * By the next heartbeat the holder has either finished (the retry replays), renewed (it is
   * alive: wait again) or let the lease run down (it died: a retry soon takes over). So the wait
   * is a heartbeat, never the whole lease.
   */
  private retryAfter(row: RecordRow): number {
    return Math.max(1, Math.ceil(Math.min(row.lease_seconds_left, this.heartbeatSeconds)));
  }

  /** Stores the answer. Only the run holding `commandId` may complete the record. */
  async complete(scope: string, key: string, commandId: string, response: StoredResponse): Promise<void> {
    // Completed already only by this very command (an answer stored with its last append that the
    // handler's own answer then differed from): the handler's answer is the one to keep.
    await this.pool.query({
      name: 'idempotency.complete',
      text: `update platform.idempotency_records
          set state = 'completed', response_status = $4, response_headers = $5, response_body = $6,
              completed_at = $7
        where scope = $1 and key_hash = $2 and command_id = $3`,
      values: [
        scope,
        hashOf(scope, key),
        commandId,
        response.status,
        JSON.stringify(response.headers),
        encrypt(response.body, scope, key),
        this.clock.now(),
      ],
    });
  }

  /**
   * The run failed without a definite answer (a 5xx): the lease ends now, so the next retry
   * takes over at once under the same command id instead of waiting or starting afresh.
   */
  async abandon(scope: string, key: string, lease: string): Promise<void> {
    await this.pool.query(
      `update platform.idempotency_records set lease_until = '-infinity'
        where scope = $1 and key_hash = $2 and lease_token = $3 and state = 'in_progress'`,
      [scope, hashOf(scope, key), lease],
    );
  }

  /** Extends a live run's lease by a full lease from now; nothing once it completed or lost it. */
  async renew(scope: string, key: string, lease: string): Promise<void> {
    await this.pool.query(
      `update platform.idempotency_records
          set lease_until = clock_timestamp() + make_interval(secs => $4)
        where scope = $1 and key_hash = $2 and lease_token = $3 and state = 'in_progress'
          and lease_until > '-infinity'`,
      [scope, hashOf(scope, key), lease, this.leaseSeconds],
    );
  }

  /**
   * The heartbeat of a running request: its lease is renewed every `heartbeatSeconds` until
   * released, so a live run keeps its key however long it takes (up to `maxHoldSeconds`), while
   * a run whose process died frees it within one lease. A failed renewal (the database briefly
   * unreachable) is only a missed beat: the lease outlasts three of them, and if it does run
   * out, a retry takes over under the same command id, which the command path makes safe.
   */
  hold(scope: string, key: string, lease: string): KeyHold {
    let beats = Math.floor(this.maxHoldSeconds / this.heartbeatSeconds);
    let pending: Promise<void> = Promise.resolve();
    let released = false;
    const timer = setInterval(() => {
      if (released || beats-- <= 0) return clearInterval(timer);
      pending = this.renew(scope, key, lease).catch(() => undefined);
    }, this.heartbeatSeconds * 1000);
    // A heartbeat never keeps the process alive on its own (shutdown waits for requests, not it).
    timer.unref();
    return {
      release: async () => {
        released = true;
        clearInterval(timer);
        await pending;
      },
    };
  }

  /** Forgets records past the window (they would be treated as fresh anyway). */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.windowSeconds * 1000);
    const result = await this.pool.query('delete from platform.idempotency_records where created_at <= $1', [
      cutoff,
    ]);
    return result.rowCount ?? 0;
  }
}

export function hashOf(scope: string, key: string): string {
  return createHash('sha256').update(`${scope}\u0000${key}`).digest('hex');
}

function responseKey(scope: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, scope, 'idempotent-response:v1', 32));
}

function encrypt(body: unknown, scope: string, key: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', responseKey(scope, key), iv);
  const plain = Buffer.from(JSON.stringify(body === undefined ? null : body), 'utf8');
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function decrypt(stored: Buffer | null, scope: string, key: string): unknown {
  if (!stored) return null;
  const decipher = createDecipheriv('aes-256-gcm', responseKey(scope, key), stored.subarray(0, 12));
  decipher.setAuthTag(stored.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as unknown;
}

/** The request's identity for "same body": method, path and the JSON body with sorted keys. */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
