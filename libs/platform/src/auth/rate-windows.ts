import type { Pool } from 'pg';
import { migrateWithLock } from '../database/migrate-with-lock';

/** What one reservation of a window's budget got. */
export interface WindowGrant {
  /** The window (its number since the epoch), the same in every process. */
  window: number;
  /** Requests this reservation may spend (0: the window's budget is gone). */
  granted: number;
  /** Everything reserved in this window so far, by every process, this grant included. */
  reserved: number;
  /** How long until the window ends, by the clock of whoever keeps the windows. */
  endsInMs: number;
}

/** Where the request budgets of the current windows are kept. */
export interface RateWindows {
  /** Reserves up to `want` more requests of `key`'s current window, never beyond `limit` in all. */
  reserve(key: string, limit: number, want: number): Promise<WindowGrant>;
}

const WINDOW_MS = 60_000;

/** Advisory-lock key of this table's migration (class 0x1de0, the platform's namespace). */
const RATE_WINDOWS_MIGRATE_LOCK: [number, number] = [0x1de0, 2];

/**
 * Unlogged: a window lives a minute, so its rows need no WAL (a reservation's commit does not wait
 * for a disk flush) and no crash safety: after a database crash the table is empty and the
 * current windows start again from zero, at most one window's budget more.
 */
const SCHEMA = `
create schema if not exists platform;
create unlogged table if not exists platform.rate_limit_windows (
  key text not null,
  window_index bigint not null,
  reserved integer not null,
  last_grant integer not null,
  primary key (key, window_index)
);
`;

/**
 * The windows of every process on one PostgreSQL: one row per key and window, grown by one upsert
 * per reservation. The row is locked for the statement, so reservations of several processes
 * take turns and their sum never passes the limit. Windows are aligned on the database's clock
 * (`clock_timestamp()`), so every process agrees on when one ends.
 */
export class PostgresRateWindows implements RateWindows {
  private prunedWindow = 0;

  constructor(private readonly pool: Pool) {}

  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, RATE_WINDOWS_MIGRATE_LOCK, SCHEMA);
  }

  async reserve(key: string, limit: number, want: number): Promise<WindowGrant> {
    const { rows } = await this.pool.query<{
      window_index: string;
      reserved: number;
      last_grant: number;
      now_ms: string;
    }>(
      `with clock as (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
       insert into platform.rate_limit_windows as w (key, window_index, reserved, last_grant)
       select $1, now_ms / ${WINDOW_MS}, least($3::integer, $2::integer), least($3::integer, $2::integer) from clock
       on conflict (key, window_index) do update
          set reserved = w.reserved + greatest(0, least($3::integer, $2::integer - w.reserved)),
              last_grant = greatest(0, least($3::integer, $2::integer - w.reserved))
       returning window_index::text, reserved, last_grant, (select now_ms from clock)::text as now_ms`,
      [key, limit, want],
    );
    const row = rows[0];
    const window = Number(row.window_index);
    this.prune(window);
    return {
      window,
      granted: row.last_grant,
      reserved: row.reserved,
      endsInMs: (window + 1) * WINDOW_MS - Number(row.now_ms),
    };
  }

  /** Once per window and process: rows of windows that ended are deleted (in the background). */
  private prune(window: number): void {
    if (window <= this.prunedWindow) return;
    this.prunedWindow = window;
    this.pool
      .query('delete from platform.rate_limit_windows where window_index < $1', [window - 1])
      .catch(() => undefined); // the next window tries again
  }
}

/**
 * The windows in this process's memory, on a clock it is given: for tests of the limiter and the
 * guard, where one process is all there is.
 */
export class MemoryRateWindows implements RateWindows {
  private readonly windows = new Map<string, { window: number; reserved: number }>();

  constructor(private readonly now: () => number) {}

  async reserve(key: string, limit: number, want: number): Promise<WindowGrant> {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    let entry = this.windows.get(key);
    if (!entry || entry.window !== window) {
      entry = { window, reserved: 0 };
      this.windows.set(key, entry);
    }
    const granted = Math.max(0, Math.min(want, limit - entry.reserved));
    entry.reserved += granted;
    return { window, granted, reserved: entry.reserved, endsInMs: (window + 1) * WINDOW_MS - now };
  }
}
