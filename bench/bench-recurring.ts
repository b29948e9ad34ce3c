/**
 * The recurring benchmark of `npm run bench` (issue 19): 10,000 contracts falling due at one
 * sandbox clock advance, on the real service started in this process on a fresh database of the
 * bench's embedded PostgreSQL. Measured: the time from the advance until every installment is
 * charged (each one a transaction through the command path of POST /transactions), and the
 * process's resident memory (RSS) while it happens: its peak, and its level at each quarter of
 * the work, to show whether memory stays flat.
 *
 * Seeding is bulk: each contract's `ContractCreated` is decided by the domain's own `decide` and
 * appended to its stream by 8 writers (no HTTP, no per-contract read-model wait), then the bench
 * waits for `contract_list` to catch up. Every contract is DAILY from tomorrow, on one partner's
 * merchant and card, so the advance of one day makes exactly one installment of each due.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import type { RunningService } from '../apps/api/src/server';
import { contractStream, decide, RECURRING_WORKERS, type ContractEvent } from '../libs/recurring/src';
import { EventStore } from '../libs/event-store/src';
import { ProjectionRunner } from '../libs/projections/src';
import { StoredCredentialReader } from '../libs/vault/src';
import { metadataFor, salePartner, startBenchService } from './bench-transactions';
import { cpuSince, postmasterOf, sampleCpu } from './cpu';

export interface RecurringBenchOptions {
  adminUrl: string;
  dataDir: string;
  contracts: number;
}

export interface RecurringBenchResult {
  /** The row of the Targets table. */
  target: string;
  section: string;
}

const TARGET_SECONDS = 60;
const DAY_SECONDS = 86_400;
const WRITERS = 8;

/** `count` ACTIVE DAILY contracts from `startDate`, appended straight to their streams. */
export async function seedContracts(
  service: RunningService,
  partner: Awaited<ReturnType<typeof salePartner>>,
  count: number,
  startDate: string,
) {
  const store = service.app.get(EventStore);
  const credential = (await service.app
    .get(StoredCredentialReader)
    .findByVaultToken(partner.id, partner.vaultToken))!;
  const at = new Date();
  let next = 0;
  let last = 0n;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < count) {
        next += 1;
        const contractId = randomUUID();
        const events: ContractEvent[] = decide(
          {
            type: 'CreateContract',
            contractId,
            at,
            partnerId: partner.id,
            merchantId: partner.merchantId,
            customerId: null,
            origin: 'api',
            hppSessionId: null,
            paymentMethodType: 'CARD',
            paymentMethod: {
              vaultToken: credential.vaultToken,
              storedCredentialId: credential.id,
              card: credential.card && {
                brand: credential.card.brand,
                last4: credential.card.last4,
                expMonth: credential.card.expMonth,
                expYear: credential.card.expYear,
              },
              bank: null,
            },
            useType: 'RECURRING',
            amountMinor: 1000n,
            currency: 'USD',
            frequency: 'DAILY',
            interval: 1,
            startDate,
            endDate: null,
            numberOfPayments: null,
            maxRetries: 3,
            customFields: [],
            level2Data: null,
            level3Data: null,
            activationDeadline: null,
          },
          null,
        );
        const appended = await store.appendToStream(contractStream(contractId), events, {
          expectedRevision: 'no_stream',
          metadata: metadataFor(partner.id),
        });
        if (appended.position > last) last = appended.position;
      }
    }),
  );
  await service.app.get(ProjectionRunner).waitFor(last, ['contract-list'], 600_000);
}

const mib = (bytes: number) => bytes / 2 ** 20;

/** POST of a JSON body; resolves with the status once the whole answer is read (no timeout). */
function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function benchRecurring(options: RecurringBenchOptions): Promise<RecurringBenchResult> {
  const { service, operator, databaseUrl } = await startBenchService(
    options.adminUrl,
    'bench_recurring',
    options.dataDir,
  );
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const partner = await salePartner(service, operator, 0);
    const clock = await fetch(`${service.url}/api/v1/platform/sandbox/clock`, {
      headers: { authorization: `Bearer ${operator}` },
    });
    const now = new Date(((await clock.json()) as { now: string }).now);
    const tomorrow = new Date(now.getTime() + DAY_SECONDS * 1000).toISOString().slice(0, 10);
    console.log(`recurring: seeding ${options.contracts} contracts due ${tomorrow}...`);
    const seedStarted = performance.now();
    await seedContracts(service, partner, options.contracts, tomorrow);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const charged = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            `select count(*) as n from contract_charges where outcome = 'CHARGED'`,
          )
        ).rows[0].n,
      );
    const load = loadavg()[0];
    const postmaster = postmasterOf(
      (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid,
    );
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    const quarters: number[] = [];
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 50);
    console.log('recurring: advancing the sandbox clock one day and charging every contract...');
    const cpuBefore = sampleCpu(postmaster);
    const started = performance.now();
    // Plain node:http, no client timeout: the advance answers once its pass is over, which on a
    // busy machine can take longer than fetch's five minutes of waiting for headers.
    let answered: number | null = null;
    let failed: unknown = null;
    postJson(
      `${service.url}/api/v1/platform/sandbox/clock`,
      { authorization: `Bearer ${operator}`, 'idempotency-key': randomUUID() },
      { advance_seconds: DAY_SECONDS },
    ).then(
      (status) => (answered = status),
      (error: unknown) => (failed = error),
    );
    let done = 0;
    while (answered === null || done < options.contracts) {
      if (failed) throw failed;
      await new Promise((r) => setTimeout(r, 250));
      done = await charged();
      while (quarters.length < 4 && done >= ((quarters.length + 1) * options.contracts) / 4) {
        quarters.push(process.memoryUsage.rss());
      }
      if (performance.now() - started > 30 * 60_000) throw new Error(`only ${done} charged after 30 minutes`);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSince(cpuBefore, postmaster);
    clearInterval(sampler);
    if (answered !== 200) throw new Error(`clock advance: ${answered}`);
    const transactions = Number(
      (
        await pool.query<{ n: string }>(
          `select count(*) as n from transaction_list where merchant_id = $1 and state = 'CAPTURED'`,
          [partner.merchantId],
        )
      ).rows[0].n,
    );
    const met = seconds <= TARGET_SECONDS;
    const rate = options.contracts / seconds;
    const target = `| ${options.contracts.toLocaleString('en-US')} contracts falling due at one clock advance all charged ≤ ${TARGET_SECONDS} s, memory flat | ${seconds.toFixed(1)} s (${Math.round(rate)}/s), peak RSS ${mib(peak).toFixed(0)} MiB | ${met ? 'met' : 'NOT met'} |`;
    const perCharge = (ms: number) => (ms / options.contracts).toFixed(2);
    // What both cores could charge per second if this run had them to itself.
    const capacity = (2 * 1000 * options.contracts) / (cpu.mainThreadMs + cpu.postgresMs);
    const section = `| contracts | seeding (bulk) | clock advance → all charged | per second | transactions CAPTURED | RSS before | RSS at 25 / 50 / 75 / 100% | peak RSS | machine load (1 min) before | machine CPU busy | service thread CPU ms / charge | PostgreSQL CPU ms / charge |
|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|
| ${options.contracts} | ${seedSeconds.toFixed(1)} s | ${seconds.toFixed(1)} s | ${Math.round(rate)} | ${transactions} | ${mib(rssBefore).toFixed(0)} MiB | ${quarters.map((q) => mib(q).toFixed(0)).join(' / ')} MiB | ${mib(peak).toFixed(0)} MiB | ${load.toFixed(1)} | ${(100 * cpu.machineBusy).toFixed(0)}% | ${perCharge(cpu.mainThreadMs)} | ${perCharge(cpu.postgresMs)} |

${options.contracts} DAILY contracts of one partner, one merchant and one stored card, due tomorrow, are seeded
in bulk (each \`ContractCreated\` decided by the domain and appended to its stream by ${WRITERS} writers, then
\`contract_list\` caught up). Then \`POST /platform/sandbox/clock\` moves one day and the scheduler charges
every installment: per contract \`ContractInstallmentAttempted\` with the reserved key
\`recurring:{contract}:1\`'s record in the same append, \`Charges.charge\` (the command path of
\`POST /transactions\`: merchant, credential, \`TransactionInitiated\`, the in-process sandbox gateway, the
gateway's answer with the key's answer), the outcome on the contract; ${RECURRING_WORKERS} contracts side by side.
Time runs from the advance until it answers (the scheduler's pass is over, and \`transaction_list\` and
\`contract_list\` have every charge) and \`contract_charges\` holds a CHARGED row for every contract (polled
every 250 ms); RSS is this process's (the service runs in it; PostgreSQL's memory is its own), sampled every 50 ms.
The CPU columns are this process's main thread (the service) and the bench's own PostgreSQL server
(its postmaster and backends; other servers on the machine are left out), per charge: together
${(cpu.mainThreadMs / options.contracts + cpu.postgresMs / options.contracts).toFixed(1)} ms, so both cores to itself would charge about
${Math.round(capacity)} a second (${(options.contracts / capacity).toFixed(0)} s for these ${options.contracts}); "machine CPU busy" is the share of
both cores in use during the run, by anything (another engineer's tests or bench included).`;
    return { target, section };
  } finally {
    await pool.end();
    await service.stop();
  }
}
