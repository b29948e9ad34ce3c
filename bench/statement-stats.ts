/**
 * pg_stat_statements, per operation, for the profiling scripts (profile-sale.ts,
 * profile-recurring.ts): which statements an operation sends, how often, and how long PostgreSQL
 * spends executing them. The server must load the extension (`shared_preload_libraries`).
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../libs/platform/src/database/embedded-postgres';
import { startBenchService } from './bench-transactions';

export interface StatementStat {
  calls: string;
  exec: number;
  query: string;
}

/** Creates the extension if needed and starts counting from zero. */
export async function resetStatementStats(stats: Client): Promise<void> {
  await stats.query('create extension if not exists pg_stat_statements');
  await stats.query('select pg_stat_statements_reset()');
}

/** The `limit` statements with the most execution time since the reset. */
export async function statementStats(stats: Client, limit: number, width = 100): Promise<StatementStat[]> {
  const { rows } = await stats.query<StatementStat>(
    `select calls, total_exec_time as exec, left(regexp_replace(query, '\\s+', ' ', 'g'), ${width}) as query
       from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit ${limit}`,
  );
  return rows;
}

/** Prints each statement's calls and execution time per operation (`ops` of them). */
export function printStatementStats(title: string, rows: readonly StatementStat[], ops: number): void {
  console.log(`\n${title}: calls, and execution time inside PostgreSQL (pg_stat_statements):`);
  for (const r of rows) {
    console.log(
      `${(Number(r.calls) / ops).toFixed(2).padStart(6)} calls ${(r.exec / ops).toFixed(3).padStart(7)} ms  ${r.query}`,
    );
  }
}

/**
 * A profiling run's setup: a fresh embedded PostgreSQL under `dir` that loads pg_stat_statements,
 * the service on its database `bench_service`, and a client on it for the statistics.
 */
export async function startProfiledService(dir: string) {
  const db = await startEmbeddedPostgres({
    dir: path.join(dir, 'postgres'),
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_utility': 'on' },
  });
  // Over the server's Unix socket, as the service reaches its embedded database.
  const started = await startBenchService(db.socketUrl ?? db.url, 'bench_service', path.join(dir, 'service'));
  const stats = new Client({ connectionString: started.databaseUrl });
  /** Stops everything and removes `dir`. */
  const stop = async () => {
    await stats.end().catch(() => undefined);
    await started.service.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  /** The server's postmaster: its CPU and its backends' count, no other PostgreSQL's. */
  const postmaster = db.pid ?? undefined;
  return { stats, stop, postmaster, ...started };
}
