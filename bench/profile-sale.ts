/**
 * Where one `POST /transactions` SALE spends its time: the service in this process on a fresh
 * embedded PostgreSQL, N partners each with an ACTIVE merchant and a stored card, load from a
 * worker thread (as `npm run bench` does), and then:
 *
 * - CPU per request of the servers' thread and of PostgreSQL (/proc), and how busy the machine was;
 * - every statement one SALE sends, in order (one request, alone, after the load);
 * - per statement text: calls, and execution time inside PostgreSQL, per request
 *   (pg_stat_statements, loaded for this run only);
 * - a V8 CPU profile of the servers' thread during the load, written to `sale.cpuprofile`
 *   (open it in Chrome DevTools' Performance panel).
 *
 * `npm run build && node dist/bench/profile-sale.js` (CONNECTIONS=8, DURATION_MS=8000 by default;
 * WEBHOOKS=1 subscribes every partner to every webhook type on a low-priority receiver first, as the
 * bench's `sale-webhooks` rows do, so the delivery path shows in the numbers and the profile).
 * See docs/performance.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { salePartner, saleBody, subscribe, type BenchPartner } from './bench-transactions';
import {
  printStatementStats,
  resetStatementStats,
  startProfiledService,
  statementStats,
} from './statement-stats';
import { cpuSince, sampleCpu } from './cpu';
import { runLoad, type LoadSpec } from './load-worker';
import { BenchReceiver } from './receiver-worker';

/** Records the text of every statement any pg client in this process sends, while on. */
function statementRecorder() {
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const original = pg.Client.prototype.query;
  const seen: string[] = [];
  return {
    start() {
      pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
        const q = args[0] as string | { text: string };
        seen.push((typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').trim().slice(0, 140));
        return original.apply(this, args);
      };
    },
    stop(): string[] {
      pg.Client.prototype.query = original;
      return seen;
    },
  };
}

async function main(): Promise<void> {
  const connections = Number(process.env.CONNECTIONS ?? 8);
  const durationMs = Number(process.env.DURATION_MS ?? 8000);
  const webhooks = process.env.WEBHOOKS === '1';
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-profile-'));
  const { stats, stop, service, operator, postmaster } = await startProfiledService(dir);
  const receiver = webhooks ? await BenchReceiver.startLowPriority() : null;
  try {
    const partners: BenchPartner[] = await Promise.all(
      Array.from({ length: connections }, (_, n) => salePartner(service, operator, n)),
    );
    if (receiver) await subscribe(service, partners, receiver);
    const spec: LoadSpec = {
      connections,
      warmupMs: 1000,
      durationMs,
      method: 'POST',
      freshIdempotencyKey: true,
      url: `${service.url}/api/v1/transactions`,
      requests: partners.map((p) => ({
        headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
        body: saleBody(p),
      })),
      expectInBody: '"CAPTURED"',
    };
    await runLoad({ ...spec, durationMs: 2000 });
    await stats.connect();
    await resetStatementStats(stats);

    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const before = sampleCpu(postmaster);
    const result = await runLoad(spec);
    const cpu = cpuSince(before, postmaster);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync('sale.cpuprofile', JSON.stringify(profile));
    const rows = await statementStats(stats, 30);

    const recorder = statementRecorder();
    recorder.start();
    const one = await fetch(spec.url, {
      method: 'POST',
      headers: { ...spec.requests[0].headers, 'idempotency-key': randomUUID() },
      body: spec.requests[0].body,
    });
    await one.text();
    await new Promise((resolve) => setTimeout(resolve, 500)); // the projectors' batches after the answer
    const statements = recorder.stop();

    const sent = result.sent;
    if (receiver) console.log(`\nwebhooks: ${(await receiver.take()).length} deliveries received`);
    console.log(
      `\n${connections} connections: ${result.ok} SALEs in ${result.seconds.toFixed(1)} s = ${result.rate.toFixed(0)}/s, ` +
        `p50 ${result.p50Ms.toFixed(1)} ms; failures ${JSON.stringify(result.failures)}`,
    );
    console.log(
      `CPU per request: servers' thread ${(cpu.mainThreadMs / sent).toFixed(2)} ms, PostgreSQL ${(cpu.postgresMs / sent).toFixed(2)} ms; ` +
        `machine ${(100 * cpu.machineBusy).toFixed(0)}% busy`,
    );
    console.log(`\nOne SALE alone (${one.status}) sends ${statements.length} statements:`);
    statements.forEach((s, i) => console.log(`${String(i + 1).padStart(3)}. ${s}`));
    printStatementStats('Under load, per SALE', rows, sent);
    const scans = await stats.query(
      `select relname, seq_scan, seq_tup_read, idx_scan, n_tup_upd, n_tup_hot_upd, n_live_tup, n_dead_tup, autovacuum_count
         from pg_stat_user_tables where relname like 'webhook%' order by seq_tup_read desc`,
    );
    console.table(scans.rows);
    // An outcome that is not a HOT update goes through every index: the page must keep room for it.
    const deliveries = await stats.query(
      `select count(*) as rows, round(avg(pg_column_size(d.*))) as avg_row_bytes,
              pg_relation_size('webhook_deliveries') as heap_bytes
         from webhook_deliveries d`,
    );
    console.table(deliveries.rows);
    console.log('\nV8 profile of the servers’ thread: sale.cpuprofile');
  } finally {
    await receiver?.stop();
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
