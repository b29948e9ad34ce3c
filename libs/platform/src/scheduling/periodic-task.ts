import type { Pool } from 'pg';
import { migrateWithLock } from '../database/migrate-with-lock';

/**
 * A task whose passes every process on the database shares (docs/operations.md, "Several
 * processes"): its `name` keys a session advisory lock and a row of `platform.periodic_passes`.
 */
export interface SharedSchedule {
  pool: Pool;
  name: string;
}

/** Advisory-lock class of periodic passes (the platform's namespaces start at 0x1de0). */
const PASS_LOCK_CLASS = 0x1de2;
const MIGRATE_LOCK: [number, number] = [0x1de0, 3];
/** A tick skips when another process started a pass less than this share of the interval ago. */
const SCHEDULE_SLACK = 0.8;

const SCHEMA = `
create schema if not exists platform;
create table if not exists platform.periodic_passes (
  name text primary key,
  started_at timestamptz not null
);
`;

/**
 * A background pass that runs every `intervalMs` while the app runs, and on demand. Passes never
 * overlap: a tick while one runs is skipped (a slow pass is not piled on), and an on-demand call
 * waits for the running pass, then makes its own, so its caller sees everything up to its call.
 * `stop()` ends the ticks and lets a running pass finish before the pools it uses close.
 *
 * With a {@link SharedSchedule}, the same holds across processes: a pass runs under a session
 * advisory lock (a tick that finds it taken is skipped; an on-demand call waits for it), and a
 * tick also skips when some process started a pass less than an interval ago (the database's
 * clock), so the cluster makes about one pass per interval whatever its size. There is no leader
 * to lose: when a process dies its lock goes with its connection and the next tick of any other
 * process runs the pass. The lock is held on an idle connection, outside any transaction, so it
 * holds back no snapshot.
 */
export class PeriodicTask<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;
  private stopped = false;
  private registered = false;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly shared: SharedSchedule | null = null,
  ) {}

  /** Creates the table of shared schedules (at start, with the other platform tables). */
  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, MIGRATE_LOCK, SCHEMA);
  }

  /** True once {@link stop} was called: a long pass may end early. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running || this.stopped) return;
      this.runPass('tick').catch(this.onError);
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
    return this.runPass('now') as Promise<T>;
  }

  /** A tick resolves with `undefined` when another process has (or just had) the turn. */
  private async runPass(why: 'tick' | 'now'): Promise<T | undefined> {
    const previous = this.running;
    const pass = (async () => {
      await previous?.catch(() => undefined);
      return this.shared ? this.takeTurn(this.shared, why) : this.pass();
    })();
    this.running = pass as Promise<T>;
    try {
      return await pass;
    } finally {
      if (this.running === pass) this.running = null;
    }
  }

  private async takeTurn(shared: SharedSchedule, why: 'tick' | 'now'): Promise<T | undefined> {
    const client = await shared.pool.connect();
    let locked = false;
    let broken = false;
    try {
      if (!this.registered) {
        await client.query(
          `insert into platform.periodic_passes (name, started_at) values ($1, '-infinity') on conflict do nothing`,
          [shared.name],
        );
        this.registered = true;
      }
      if (why === 'now') {
        await client.query('select pg_advisory_lock($1, hashtext($2))', [PASS_LOCK_CLASS, shared.name]);
        locked = true;
      } else {
        const { rows } = await client.query<{ locked: boolean }>(
          'select pg_try_advisory_lock($1, hashtext($2)) as locked',
          [PASS_LOCK_CLASS, shared.name],
        );
        locked = rows[0].locked;
        if (!locked) return undefined;
      }
      const { rowCount } = await client.query(
        `update platform.periodic_passes set started_at = clock_timestamp()
          where name = $1 and ($2 or started_at <= clock_timestamp() - make_interval(secs => $3))`,
        [shared.name, why === 'now', (this.intervalMs * SCHEDULE_SLACK) / 1000],
      );
      if (rowCount === 0) return undefined;
      return await this.pass();
    } finally {
      if (locked) {
        // A connection that cannot unlock must not go back to the pool still holding the lock.
        await client
          .query('select pg_advisory_unlock($1, hashtext($2))', [PASS_LOCK_CLASS, shared.name])
          .catch(() => (broken = true));
      }
      client.release(broken);
    }
  }
}
