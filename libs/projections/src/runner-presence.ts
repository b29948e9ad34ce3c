import { Client } from 'pg';
import type { DataSource } from 'typeorm';

/** Shows in pg_stat_activity next to the LISTEN connection. */
export const PRESENCE_APPLICATION_NAME = 'partner-payments:projections-live';

/**
 * Advisory-lock key (class 0x1de1: the projection engine's namespace) that a started runner holds,
 * shared, for as long as it runs. Shared, because several processes may run the same projectors.
 */
const PRESENCE_LOCK: [number, number] = [0x1de1, 1];

/**
 * A started runner's "I am here", for tools that look from outside (`npm run ops -- projections`).
 * A lock rather than a heartbeat row: it costs no writes, and it goes the instant the runner does,
 * however it dies, because PostgreSQL releases a session's locks when its connection closes. Like
 * the LISTEN connection it is re-opened after the database comes back (`ensure`, called by the
 * workers between pages), so a restarted database shows the runner again within a poll interval.
 */
export class RunnerPresence {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly connectionString: string) {}

  ensure(): void {
    if (this.closed || this.connecting) return;
    const client = new Client({
      connectionString: this.connectionString,
      application_name: PRESENCE_APPLICATION_NAME,
    });
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    this.client = client;
    this.connecting = (async () => {
      await client.connect();
      await client.query('select pg_advisory_lock_shared($1, $2)', PRESENCE_LOCK);
      if (this.closed) this.drop(client);
    })().catch(() => this.drop(client));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    this.drop(this.client);
  }

  private drop(client: Client | null): void {
    if (!client || client !== this.client) return;
    this.client = null;
    this.connecting = null;
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
  }
}

/** What the runners of other processes on this database are doing, as far as locks tell. */
export interface RunnersElsewhere {
  /** Some process has a started runner on this database. */
  live: boolean;
  /** Projections some process is rebuilding (each rebuild holds a lock of its own). */
  rebuilding: ReadonlySet<string>;
}

export async function runnersElsewhere(db: DataSource, names: readonly string[]): Promise<RunnersElsewhere> {
  const [{ live }] = await db.query(
    `select exists (
       select 1 from pg_locks
        where locktype = 'advisory' and granted and objsubid = 2
          and database = (select oid from pg_database where datname = current_database())
          and classid = $1 and objid = $2
     ) as live`,
    PRESENCE_LOCK,
  );
  // A rebuild holds pg_try_advisory_lock(hashtext('projection-rebuild:<name>')): one bigint key,
  // which pg_locks splits into its high (classid) and low (objid) halves.
  const rows: { name: string }[] = await db.query(
    `select n.name from unnest($1::text[]) as n(name)
      where exists (
        select 1 from pg_locks
         where locktype = 'advisory' and granted and objsubid = 1
           and database = (select oid from pg_database where datname = current_database())
           and ((classid::bigint << 32) | objid::bigint) = hashtext('projection-rebuild:' || n.name)::bigint
      )`,
    [names],
  );
  return { live: live === true, rebuilding: new Set(rows.map((row) => row.name)) };
}
