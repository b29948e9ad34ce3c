/**
 * End of day at scale, for `npm run bench`: `POST /platform/settlement/run` over N captured card
 * transactions spread over 1,000 merchants (10 partners), on the real service and its projectors.
 *
 * Each size has a database of its own and two processes (`node dist/bench/bench-settlement.js`):
 * 1. `seed`: a service creates the merchants through the API, the transactions are seeded as the
 *    events an approved SALE writes (`TransactionInitiated`, `TransactionApproved`) straight into
 *    the event store (the HTTP path would take an hour at 100,000), and every projector catches up.
 * 2. `run`: a fresh service process on that database (so the seeding's memory is not counted)
 *    resets its peak RSS (`/proc/self/clear_refs`), times one `POST /platform/settlement/run`
 *    through HTTP, and reads the kernel's peak back (`VmHWM`). The projectors that follow the run
 *    (transaction list, batch list, ledger, …) run in that process during it, as in production.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import * as path from 'node:path';
import { Pool } from 'pg';
import type { RunningService } from '../apps/api/src/server';
import { ProjectionRunner } from '../libs/projections/src';
import { CANDIDATE_PAGE_SIZE, RUN_CONCURRENCY } from '../libs/settlement/src';
import type { TransactionEvent } from '../libs/transactions/src';
import { activeMerchant, metadataFor, newPartner, startBenchService } from './bench-transactions';

const PARTNERS = 10;
const SEED_WRITERS = 16;
const SETUP_CONCURRENCY = 8;

interface SeedResult {
  seedSeconds: number;
  projectionSeconds: number;
  operatorKey: string;
}

interface RunResult {
  runSeconds: number;
  batches: number;
  settled: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
  peakHeapMiB: number;
  catchUpAfterSeconds: number;
}

export type EodResult = Omit<SeedResult, 'operatorKey'> &
  RunResult & { transactions: number; merchants: number };

const MiB = 1024 * 1024;

/** Runs `work` over `items`, `concurrency` at a time. */
async function pooled<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

/** The peak resident set of this process since the last reset, from the kernel (bytes). */
function peakRss(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/**
 * Waits until every projector has applied every event appended so far (no bound: a big seed takes
 * minutes). The last appended position is read from the table itself: the store's `headPosition`
 * is the gap-free head, which an open projector transaction holds back.
 */
async function caughtUp(service: RunningService): Promise<void> {
  const runner = service.app.get(ProjectionRunner);
  const { rows } = await service.infra.pool.query<{ last: string | null }>(
    'select max(global_position)::text as last from event_store.events',
  );
  const last = BigInt(rows[0].last ?? '0');
  while (!(await runner.waitFor(last, undefined, 60_000))) {
    const failed = (await runner.status()).filter((s) => s.state === 'failed');
    if (failed.length) throw new Error(`projector failed: ${JSON.stringify(failed)}`);
  }
}

/** `POST` through node:http (no client-side time limit: a run over 100,000 transactions takes a while). */
function post(url: string, key: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'idempotency-key': randomUUID(),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The two events a SALE approved at once writes, as the payment flow writes them. */
function saleEvents(
  partnerId: string,
  merchantId: string,
  id: string,
  amountMinor: number,
  at: string,
): TransactionEvent[] {
  return [
    {
      type: 'TransactionInitiated',
      data: {
        transactionId: id,
        partnerId,
        merchantId,
        type: 'SALE',
        rail: 'CARD',
        amountMinor: String(amountMinor),
        currency: 'USD',
        surchargeMinor: '0',
        convenienceFeeMinor: '0',
        taxMinor: null,
        entryMode: 'KEYED',
        useType: 'ONE_TIME_FUTURE',
        storedCredentialId: null,
        vaultToken: null,
        customerId: null,
        parentTransactionId: null,
        card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030, funding: 'credit' },
        bank: null,
        secCode: null,
        customFields: [],
        level2Data: null,
        level3Data: null,
        refundReason: null,
        reversalReason: null,
        convenienceFeeDisclosure: null,
        surchargeDisclosure: null,
        source: 'api',
        initiatedAt: at,
      },
    },
    {
      type: 'TransactionApproved',
      data: {
        transactionId: id,
        approvalCode: 'A00001',
        gatewayTransactionId: `sbx_${id.replace(/-/g, '').slice(0, 24)}`,
        avsResponseCode: 'Y',
        cvResponseCode: 'M',
        effectiveDate: null,
        at,
      },
    },
  ];
}

/** Step 1, in this process: merchants through the API, the SALEs into the event store, projectors caught up. */
async function seed(adminUrl: string, dataDir: string, size: number, merchants: number): Promise<SeedResult> {
  const { service, operator } = await startBenchService(adminUrl, databaseOf(size), dataDir);
  try {
    const partners: { id: string; key: string }[] = [];
    for (let p = 0; p < PARTNERS; p++) partners.push(await newPartner(service, operator, `EOD Partner ${p}`));
    const owners = Array.from({ length: merchants }, (_, m) => partners[m % PARTNERS]);
    const merchantIds: string[] = new Array(merchants);
    await pooled(owners, SETUP_CONCURRENCY, async (owner, m) => {
      merchantIds[m] = await activeMerchant(service, operator, owner.key, `EOD Merchant ${m}`);
    });

    const started = process.hrtime.bigint();
    const at = new Date().toISOString();
    const store = service.infra.eventStore;
    await pooled(
      Array.from({ length: size }, (_, i) => i),
      SEED_WRITERS,
      async (i) => {
        const m = i % merchants;
        const partnerId = owners[m].id;
        const id = randomUUID();
        await store.appendToStream(
          `transaction-${id}`,
          saleEvents(partnerId, merchantIds[m], id, 100 + ((i * 7919) % 50_000), at),
          { expectedRevision: 'no_stream', metadata: metadataFor(partnerId) },
        );
      },
    );
    const seedSeconds = seconds(started);
    const projecting = process.hrtime.bigint();
    await caughtUp(service);
    return { seedSeconds, projectionSeconds: seconds(projecting), operatorKey: operator };
  } finally {
    await service.stop();
  }
}

/** Step 2, in a fresh process on the seeded database: the run, timed, and this process's peak memory. */
async function run(adminUrl: string, dataDir: string, size: number, operatorKey: string): Promise<RunResult> {
  const { service, databaseUrl } = await startBenchService(adminUrl, databaseOf(size), dataDir, {
    create: false,
    operatorKey,
  });
  try {
    await caughtUp(service);
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync('/proc/self/clear_refs', '5');
    const rssBefore = process.memoryUsage().rss;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }, 100);
    const running = process.hrtime.bigint();
    const res = await post(`${service.url}/api/v1/platform/settlement/run`, operatorKey, {});
    const runSeconds = seconds(running);
    clearInterval(sampler);
    const peak = peakRss();
    if (res.status !== 200) throw new Error(`settlement run: ${res.status} ${res.body}`);
    const batches = (JSON.parse(res.body) as { data: unknown[] }).data.length;

    const following = process.hrtime.bigint();
    await caughtUp(service);
    const catchUpAfterSeconds = seconds(following);
    const pool = new Pool({ connectionString: databaseUrl });
    const [{ settled }] = (
      await pool.query<{ settled: number }>(
        `select count(*)::int as settled from transaction_list where state = 'SETTLED'`,
      )
    ).rows;
    await pool.end();
    return {
      runSeconds,
      batches,
      settled,
      rssBeforeMiB: rssBefore / MiB,
      peakRssMiB: peak / MiB,
      peakHeapMiB: peakHeap / MiB,
      catchUpAfterSeconds,
    };
  } finally {
    await service.stop();
  }
}

const databaseOf = (size: number) => `bench_eod_${size}`;
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

/** Runs one step of this file in a child process and returns the JSON it prints last. */
function step<T>(args: string[]): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', __filename, ...args],
      { maxBuffer: 16 * MiB },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${error.message}\n${stderr}`))
          : resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as T),
    ),
  );
}

/** Runs each size (seed, then the run in a fresh process) and formats the rows for docs/benchmarks.md. */
export async function benchEndOfDay(options: {
  adminUrl: string;
  dataDir: string;
  sizes: readonly number[];
  merchants: number;
}): Promise<{ targets: string[]; section: string }> {
  const results: EodResult[] = [];
  for (const size of options.sizes) {
    const label = `end of day: ${size.toLocaleString('en-US')} captured transactions over ${options.merchants} merchants`;
    const dataDir = path.join(options.dataDir, `eod-${size}`);
    console.log(`${label}: seeding...`);
    const seeded = await step<SeedResult>([
      'seed',
      options.adminUrl,
      dataDir,
      String(size),
      String(options.merchants),
    ]);
    console.log(`${label}: the run...`);
    const ran = await step<RunResult>(['run', options.adminUrl, dataDir, String(size), seeded.operatorKey]);
    results.push({
      transactions: size,
      merchants: options.merchants,
      seedSeconds: seeded.seedSeconds,
      projectionSeconds: seeded.projectionSeconds,
      ...ran,
    });
  }
  const smallest = results[0];
  const largest = results[results.length - 1];
  const growth = largest.peakRssMiB / smallest.peakRssMiB;
  const count = (n: number) => n.toLocaleString('en-US');
  const rows = results.map(
    (r) =>
      `| ${count(r.transactions)} | ${count(r.merchants)} | ${count(r.settled)} | ${count(r.batches)} | ${r.runSeconds.toFixed(1)} | ${Math.round(r.transactions / r.runSeconds)} | ${r.rssBeforeMiB.toFixed(0)} | ${r.peakRssMiB.toFixed(0)} | ${r.peakHeapMiB.toFixed(0)} | ${r.catchUpAfterSeconds.toFixed(1)} | ${r.seedSeconds.toFixed(1)} | ${r.projectionSeconds.toFixed(1)} |`,
  );
  return {
    targets: [
      `| end of day: peak RSS flat as the count grows (${count(largest.transactions)} vs ${count(smallest.transactions)} transactions, ≤ 1.5×) | ${growth.toFixed(2)}× (${largest.peakRssMiB.toFixed(0)} vs ${smallest.peakRssMiB.toFixed(0)} MiB) | ${growth <= 1.5 ? 'met' : 'NOT met'} |`,
    ],
    section: `### End of day (\`POST /platform/settlement/run\`)

| captured transactions | merchants | settled | batches | run s | transactions / s | RSS at the start MiB | peak RSS during the run MiB | peak heap used MiB | projectors catch up after, s | seed s | projection s |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Each size has a database of its own. ${PARTNERS} partners own the merchants (walked to ACTIVE through the
API); the card SALEs are seeded as the two events an approved SALE writes (\`TransactionInitiated\`,
\`TransactionApproved\`), ${SEED_WRITERS} writers straight into the event store, round-robin over the
merchants, while every projector (transaction list, ledger, …) follows ("seed s"; "projection s" is
what the projectors still had to apply once the seeding was done).
Then a fresh service process starts on that database, so nothing of the seeding is in its memory;
its peak RSS is reset (\`/proc/self/clear_refs\`), one \`POST /platform/settlement/run\` settles
everything through HTTP, and the kernel's peak (\`VmHWM\`) is read: the Node process only (PostgreSQL
runs apart). The heap is sampled every 100 ms. The run walks each merchant's candidates a page
(${CANDIDATE_PAGE_SIZE}) at a time, settles ${RUN_CONCURRENCY} merchants at once (one append per
transaction), and keeps only the batches' summaries for its answer, so memory follows the largest
merchant's batch, not the book. The projectors keep following the run's events in the same process
while it runs; "catch up after" is how long they take to apply the rest once the answer is back.`,
  };
}

if (require.main === module) {
  const [command, adminUrl, dataDir, size, last] = process.argv.slice(2);
  const work =
    command === 'seed'
      ? seed(adminUrl, dataDir, Number(size), Number(last))
      : run(adminUrl, dataDir, Number(size), last);
  work.then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
