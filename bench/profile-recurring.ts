/**
 * Where one recurring charge spends its time: the service in this process on a fresh embedded
 * PostgreSQL, CONTRACTS DAILY contracts seeded as `npm run bench` seeds them, one sandbox clock
 * advance of a day, and then:
 *
 * - CPU per charge of the servers' thread and of PostgreSQL (/proc), and how busy the machine was;
 * - write transactions per charge;
 * - per statement text: calls, and execution time inside PostgreSQL, per charge
 *   (pg_stat_statements, loaded for this run only);
 * - a V8 CPU profile of the servers' thread during the pass, written to `recurring.cpuprofile`.
 *
 * `npm run build && node dist/bench/profile-recurring.js` (CONTRACTS=1000 by default).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../libs/platform/src/database/embedded-postgres';
import { seedContracts } from './bench-recurring';
import { salePartner, startBenchService } from './bench-transactions';
import { cpuSince, postmasterOf, sampleCpu } from './cpu';

const DAY_SECONDS = 86_400;

async function main(): Promise<void> {
  const contracts = Number(process.env.CONTRACTS ?? 1000);
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-profile-'));
  const db = await startEmbeddedPostgres({
    dir: path.join(dir, 'postgres'),
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_utility': 'on' },
  });
  const { service, operator, databaseUrl } = await startBenchService(db.url, path.join(dir, 'service'));
  const stats = new Client({ connectionString: databaseUrl });
  try {
    const partner = await salePartner(service, operator, 0);
    const clockUrl = `${service.url}/api/v1/platform/sandbox/clock`;
    const auth = { authorization: `Bearer ${operator}` };
    const now = new Date(((await (await fetch(clockUrl, { headers: auth })).json()) as { now: string }).now);
    const tomorrow = new Date(now.getTime() + DAY_SECONDS * 1000).toISOString().slice(0, 10);
    await seedContracts(service, partner, contracts, tomorrow);
    await stats.connect();
    await stats.query('create extension if not exists pg_stat_statements');
    await stats.query('select pg_stat_statements_reset()');
    const xid = async () =>
      BigInt(
        (await stats.query<{ xid: string }>('select pg_snapshot_xmax(pg_current_snapshot())::text as xid'))
          .rows[0].xid,
      );

    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const xidBefore = await xid();
    const postmaster = postmasterOf(
      (await stats.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid,
    );
    const before = sampleCpu(postmaster);
    const started = Date.now();
    const res = await fetch(clockUrl, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ advance_seconds: DAY_SECONDS }),
    });
    await res.text();
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSince(before, postmaster);
    const writes = Number((await xid()) - xidBefore - 1n);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync('recurring.cpuprofile', JSON.stringify(profile));
    const countCharged = async () =>
      Number(
        (
          await stats.query<{ n: string }>(
            `select count(*) as n from contract_charges where outcome = 'CHARGED'`,
          )
        ).rows[0].n,
      );
    console.log(
      `at the answer: ${await countCharged()} charged; projections ${JSON.stringify(await (await fetch(`${service.url}/api/v1/platform/projections`, { headers: auth })).json())}`,
    );
    const charged = Number(
      (
        await stats.query<{ n: string }>(
          `select count(*) as n from contract_charges where outcome = 'CHARGED'`,
        )
      ).rows[0].n,
    );
    const { rows } = await stats.query<{ calls: string; exec: number; query: string }>(
      `select calls, total_exec_time as exec, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query
         from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit 40`,
    );
    console.log(
      `\n${charged} of ${contracts} charged in ${seconds.toFixed(1)} s = ${(charged / seconds).toFixed(0)}/s`,
    );
    console.log(
      `CPU per charge: servers' thread ${(cpu.mainThreadMs / charged).toFixed(2)} ms, PostgreSQL ${(cpu.postgresMs / charged).toFixed(2)} ms; ` +
        `machine ${(100 * cpu.machineBusy).toFixed(0)}% busy; ${(writes / charged).toFixed(1)} write transactions per charge`,
    );
    console.log('\nPer charge: calls, and execution time inside PostgreSQL (pg_stat_statements):');
    for (const r of rows) {
      console.log(
        `${(Number(r.calls) / charged).toFixed(2).padStart(6)} calls ${(r.exec / charged).toFixed(3).padStart(7)} ms  ${r.query}`,
      );
    }
    console.log('\nV8 profile of the servers’ thread: recurring.cpuprofile');
  } finally {
    await stats.end().catch(() => undefined);
    await service.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
