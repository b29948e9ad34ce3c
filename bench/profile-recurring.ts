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
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { seedContracts } from './bench-recurring';
import { salePartner } from './bench-transactions';
import {
  printStatementStats,
  resetStatementStats,
  startProfiledService,
  statementStats,
} from './statement-stats';
import { cpuSince, postmasterOf, sampleCpu } from './cpu';

const DAY_SECONDS = 86_400;

async function main(): Promise<void> {
  const contracts = Number(process.env.CONTRACTS ?? 1000);
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-profile-'));
  const { stats, stop, service, operator } = await startProfiledService(dir);
  try {
    const partner = await salePartner(service, operator, 0);
    const clockUrl = `${service.url}/api/v1/platform/sandbox/clock`;
    const auth = { authorization: `Bearer ${operator}` };
    const now = new Date(((await (await fetch(clockUrl, { headers: auth })).json()) as { now: string }).now);
    const tomorrow = new Date(now.getTime() + DAY_SECONDS * 1000).toISOString().slice(0, 10);
    await seedContracts(service, partner, contracts, tomorrow);
    await stats.connect();
    await resetStatementStats(stats);
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
    // Charged by the time the advance answered (its pass waits for contract_list to have them).
    const charged = Number(
      (
        await stats.query<{ n: string }>(
          `select count(*) as n from contract_charges where outcome = 'CHARGED'`,
        )
      ).rows[0].n,
    );
    const rows = await statementStats(stats, 40, 110);
    console.log(
      `\n${charged} of ${contracts} charged in ${seconds.toFixed(1)} s = ${(charged / seconds).toFixed(0)}/s`,
    );
    console.log(
      `CPU per charge: servers' thread ${(cpu.mainThreadMs / charged).toFixed(2)} ms, PostgreSQL ${(cpu.postgresMs / charged).toFixed(2)} ms; ` +
        `machine ${(100 * cpu.machineBusy).toFixed(0)}% busy; ${(writes / charged).toFixed(1)} write transactions per charge`,
    );
    printStatementStats('Per charge', rows, charged);
    console.log('\nV8 profile of the servers’ thread: recurring.cpuprofile');
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
