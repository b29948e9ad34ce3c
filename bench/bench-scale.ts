/**
 * Several processes, for `npm run bench` (docs/operations.md, "Several processes"): the service as
 * `npm start` runs it on `DATABASE_URL`, one process and then three on the bench's PostgreSQL.
 *
 * 1. `POST /transactions` SALE throughput and latency, one process against three reached round
 *    robin (connection c → process c mod 3, as a load balancer spreads them), interleaved rounds.
 *    On two cores three processes add no CPU: what the rows show is that nothing breaks and
 *    nothing is doubled when the same partners' writes cross processes, and what it costs.
 * 2. A soak: three processes for three minutes at half the single-process rate, paced: p99, the
 *    resident memory of each process at its start and end, and the projections' lag.
 *
 * Partners, merchants and saved cards are set up by a service in this process on the same
 * database (its vault key then given to the child processes), which stops before they start.
 * `BENCH_ONLY=scale npm run bench` runs this part alone and splices it into docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import { freePort } from '../libs/platform/src/database/embedded-postgres';
import { saleBody, salePartner, startBenchService, type BenchPartner } from './bench-transactions';
import { cpuSince, sampleCpu } from './cpu';
import { LoadTally, percentile, send, type LoadResult } from './load-worker';

export const SCALE_HEADING = '## Several processes';
const TARGET_PREFIX = '| several processes:';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');
const CONNECTIONS = 8;
const PROCESSES = 3;
const MiB = 1024 * 1024;
/** How often the soak reads the projections' lag (from each process in turn). */
const LAG_EVERY_MS = 1_000;
/** How often the soak reads each process's memory. */
const MEMORY_EVERY_MS = 5_000;
/** The soak's memory at its start and at its end: over its first and its last minute. */
const MEMORY_WINDOW_MS = 60_000;
const MEMORY_GROWTH_LIMIT = 0.1;

export interface ScaleBenchOptions {
  adminUrl: string;
  dataDir: string;
  durationMs: number;
  rounds: number;
  soakMs: number;
}

export interface ScaleBenchResult {
  /** Rows of the Targets table. */
  targets: string[];
  /** The section's body, under {@link SCALE_HEADING}. */
  section: string;
}

/** A service process of the bench, as `npm start` runs it. */
interface ServiceProcess {
  child: ChildProcess;
  url: string;
}

async function startProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`a service process exited during its start (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error('a service process did not become healthy');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopProcess(proc: ServiceProcess): Promise<void> {
  if (proc.child.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  await exited;
}

/** Resident memory of a process, from the kernel (MiB). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return (Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024) / MiB;
}

interface MemorySample {
  /** ms since the soak started */
  at: number;
  rss: number;
  /** V8 heap in use (`nodejs_heap_size_used_bytes` of the process's metrics), MiB */
  heapUsed: number;
}

/** One reading of a process's memory: RSS from the kernel, the heap in use from its metrics. */
async function memoryOf(proc: ServiceProcess, operator: string, at: number): Promise<MemorySample> {
  const res = await fetch(`${proc.url}/api/v1/platform/metrics`, {
    headers: { authorization: `Bearer ${operator}` },
  });
  const heap = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(await res.text());
  return { at, rss: rssMiB(proc.child.pid!), heapUsed: heap ? Number(heap[1]) / MiB : NaN };
}

/**
 * A process's memory over the soak's first and last minute: the median RSS of each (V8 grows its
 * heap by tens of MiB before each full collection and gives little back at once, so one reading
 * can land on either side of that swing), the highest RSS, and the lowest heap in use of each
 * minute (what is left after collections: a leak raises it).
 */
function memoryOver(samples: MemorySample[], soakMs: number) {
  const window = Math.min(MEMORY_WINDOW_MS, soakMs / 3);
  const first = samples.filter((x) => x.at <= window);
  const last = samples.filter((x) => x.at >= soakMs - window);
  const medianRss = (xs: MemorySample[]) =>
    percentile(
      xs.map((x) => x.rss).sort((a, b) => a - b),
      50,
    );
  const heapFloor = (xs: MemorySample[]) => Math.min(...xs.map((x) => x.heapUsed));
  return {
    start: medianRss(first),
    end: medianRss(last),
    peak: Math.max(...samples.map((x) => x.rss)),
    heapStart: heapFloor(first),
    heapEnd: heapFloor(last),
  };
}

interface Lag {
  /** Events the projector furthest behind has left to apply. */
  lag: number;
  projector: string;
}

/** The projector furthest behind, as `GET /platform/projections` tells. */
async function worstLag(url: string, operator: string): Promise<Lag> {
  const res = await fetch(`${url}/api/v1/platform/projections`, {
    headers: { authorization: `Bearer ${operator}` },
  });
  const rows = ((await res.json()) as { data: { name: string; lag: number }[] }).data;
  return rows.reduce<Lag>(
    (worst, row) => (row.lag > worst.lag ? { lag: row.lag, projector: row.name } : worst),
    {
      lag: 0,
      projector: '',
    },
  );
}

interface SaleLoad {
  partners: BenchPartner[];
  /** The processes' base URLs: connection c sends to process c mod n, as a load balancer spreads them. */
  urls: string[];
  durationMs: number;
  /**
   * Paced instead of back to back: this many SALEs a second in all, spread evenly over the
   * connections on a fixed schedule. A request is timed from when the schedule said to send it,
   * so a service that falls behind shows in the latencies (no coordinated omission).
   */
  ratePerSecond?: number;
}

/**
 * SALEs with fresh Idempotency-Keys on {@link CONNECTIONS} keep-alive connections, connection c
 * being partner c (ENTERPRISE: its rate limit is far away): 1 s of warm-up, then `durationMs`
 * measured; a success is a 200 whose transaction is CAPTURED. The service runs in processes of
 * its own, so the load runs on this thread (unlike load-worker's, which shares a process with the
 * service it measures).
 */
async function sales(load: SaleLoad): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const started = process.hrtime.bigint();
  const measureFrom = started + 1_000_000_000n;
  const deadline = measureFrom + BigInt(load.durationMs) * 1_000_000n;
  const everyNs = load.ratePerSecond ? BigInt(Math.round((1e9 * CONNECTIONS) / load.ratePerSecond)) : 0n;
  const tally = new LoadTally(measureFrom);
  await Promise.all(
    load.partners.slice(0, CONNECTIONS).map(async (partner, c) => {
      const target = new URL(`${load.urls[c % load.urls.length]}/api/v1/transactions`);
      const headers = { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' };
      const body = saleBody(partner);
      // Paced: connection c sends its k-th SALE at (k × connections + c) / rate seconds.
      let due = started + (everyNs * BigInt(c)) / BigInt(CONNECTIONS);
      for (;;) {
        let sentAt = process.hrtime.bigint();
        if (everyNs > 0n) {
          if (due > sentAt) await new Promise((resolve) => setTimeout(resolve, Number(due - sentAt) / 1e6));
          sentAt = due;
          due += everyNs;
        }
        if (sentAt >= deadline) return;
        const { status, text } = await send(
          agent,
          target,
          'POST',
          { ...headers, 'idempotency-key': randomUUID() },
          body,
        );
        tally.record(sentAt, status, status === 200 && text.includes('"CAPTURED"'));
      }
    }),
  );
  agent.destroy();
  return tally.result();
}

/** A load run with what else the machine was doing meanwhile. */
interface Measured {
  result: LoadResult;
  /** 1-minute load average at the start and at the end. */
  load: [number, number];
  /** Share of both cores' time the machine was busy (all processes, not only the bench's). */
  busy: number;
}

async function measured(load: SaleLoad): Promise<Measured> {
  const before = sampleCpu();
  const startLoad = loadavg()[0];
  const result = await sales(load);
  return { result, load: [startLoad, loadavg()[0]], busy: cpuSince(before).machineBusy };
}

function median(runs: Measured[]): { run: Measured; range: string } {
  const sorted = [...runs].sort((a, b) => a.result.rate - b.result.rate);
  return {
    run: sorted[Math.floor(sorted.length / 2)],
    range: `${Math.round(sorted[0].result.rate)}–${Math.round(sorted[sorted.length - 1].result.rate)}/s`,
  };
}

const failures = (r: LoadResult) =>
  Object.entries(r.failures)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ') || 'none';

const failed = (r: LoadResult) => Object.values(r.failures).reduce((sum, n) => sum + n, 0);

interface Charges {
  /** Idempotency keys that made a SALE. */
  keys: number;
  /** Keys with more than one transaction, or whose transaction the gateway captured more than once. */
  doubled: number;
  /** Keys whose SALE was approved but which have no capture at the gateway. */
  uncaptured: number;
  captures: number;
}

/**
 * Per Idempotency-Key: its SALE transactions (the event store) and the gateway's captures of them
 * (the sandbox gateway's shared records, whose call reference is the transaction id).
 */
async function chargesPerKey(databaseUrl: string): Promise<Charges> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<Charges>(
      `with sales as (
         select metadata->>'idempotency_key' as key, substr(stream_name, length('transaction-') + 1) as id
           from event_store.events
          where type = 'TransactionInitiated' and data->>'type' = 'SALE'),
       approved as (
         select substr(stream_name, length('transaction-') + 1) as id from event_store.events
          where type = 'TransactionApproved'),
       captured as (
         select c.reference as id, count(*)::int as n
           from sandbox_gateway.calls c
           join sandbox_gateway.transactions t on t.id = c.result->>'gatewayTransactionId' and t.kind = 'CAPTURE'
          group by c.reference),
       per_key as (
         select s.key, count(distinct s.id)::int as transactions, coalesce(sum(c.n), 0)::int as captures,
                bool_or(exists (select 1 from approved a where a.id = s.id)) as approved
           from sales s left join captured c on c.id = s.id
          group by s.key)
       select count(*)::int as keys,
              (count(*) filter (where transactions > 1 or captures > 1))::int as doubled,
              (count(*) filter (where approved and captures = 0))::int as uncaptured,
              (select count(*)::int from sandbox_gateway.transactions where kind = 'CAPTURE') as captures
         from per_key`,
    );
    return rows[0];
  } finally {
    await pool.end();
  }
}

export async function benchScale(options: ScaleBenchOptions): Promise<ScaleBenchResult> {
  console.log('several processes: setting up partners...');
  const setup = await startBenchService(options.adminUrl, 'bench_scale', path.join(options.dataDir, 'setup'));
  const partners: BenchPartner[] = [];
  for (let n = 0; n < CONNECTIONS; n++) partners.push(await salePartner(setup.service, setup.operator, n));
  await setup.service.stop();
  const env = {
    DATABASE_URL: setup.databaseUrl,
    PLATFORM_OPERATOR_KEY: setup.operator,
    // The setup sealed the cards with its generated vault key: every process opens them with it.
    VAULT_KEY: readFileSync(path.join(options.dataDir, 'setup', 'vault.key'), 'utf8').trim(),
    PUBLIC_BASE_URL: 'http://payments.bench',
    LOG_LEVEL: 'warn',
  };
  const dataDir = (n: number) => path.join(options.dataDir, `process-${n}`);

  const processes: ServiceProcess[] = [await startProcess({ ...env, DATA_DIR: dataDir(0) })];
  const one: Measured[] = [];
  const three: Measured[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      while (processes.length > 1) await stopProcess(processes.pop()!);
      console.log(`several processes: SALE on one process, round ${round} of ${options.rounds}...`);
      one.push(await measured({ partners, urls: [processes[0].url], durationMs: options.durationMs }));
      while (processes.length < PROCESSES) {
        processes.push(await startProcess({ ...env, DATA_DIR: dataDir(processes.length) }));
      }
      console.log(`several processes: SALE on three processes, round ${round} of ${options.rounds}...`);
      const urls = processes.map((p) => p.url);
      three.push(await measured({ partners, urls, durationMs: options.durationMs }));
    }
    const single = median(one);
    const spread = median(three);

    const rate = single.run.result.rate / 2;
    console.log(
      `several processes: soak, ${options.soakMs / 1000} s at ${rate.toFixed(0)} SALEs/s on three processes...`,
    );
    const lags: Lag[] = [];
    const memory: MemorySample[][] = processes.map(() => []);
    const soakStarted = performance.now();
    const sampleMemory = () =>
      Promise.all(
        processes.map((proc, i) =>
          memoryOf(proc, setup.operator, performance.now() - soakStarted).then(
            (m) => memory[i].push(m),
            () => undefined,
          ),
        ),
      );
    void sampleMemory();
    const memorySampler = setInterval(() => void sampleMemory(), MEMORY_EVERY_MS);
    let sample = 0;
    const sampler = setInterval(() => {
      const url = processes[sample++ % processes.length].url;
      worstLag(url, setup.operator).then(
        (lag) => lags.push(lag),
        () => undefined,
      );
    }, LAG_EVERY_MS);
    const soak = await measured({
      partners,
      urls: processes.map((p) => p.url),
      durationMs: options.soakMs,
      ratePerSecond: rate,
    });
    clearInterval(sampler);
    clearInterval(memorySampler);
    await sampleMemory();
    // Once the load stops, the projectors catch up: how long that takes, seen from the first process.
    const drainStarted = performance.now();
    let finalLag = await worstLag(processes[0].url, setup.operator);
    while (finalLag.lag > 0 && performance.now() - drainStarted < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      finalLag = await worstLag(processes[0].url, setup.operator);
    }
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const charges = await chargesPerKey(setup.databaseUrl);
    return report(options, {
      single,
      spread,
      rate,
      soak,
      memory: memory.map((samples) => memoryOver(samples, options.soakMs)),
      lags,
      finalLag,
      drainSeconds,
      charges,
      errors: [...one, ...three, soak].reduce((sum, m) => sum + failed(m.result), 0),
    });
  } finally {
    for (const proc of processes) await stopProcess(proc);
  }
}

function report(
  options: ScaleBenchOptions,
  r: {
    single: { run: Measured; range: string };
    spread: { run: Measured; range: string };
    rate: number;
    soak: Measured;
    memory: ReturnType<typeof memoryOver>[];
    lags: Lag[];
    finalLag: Lag;
    drainSeconds: number;
    charges: Charges;
    errors: number;
  },
): ScaleBenchResult {
  const growth = r.memory.map((m) => (m.end - m.start) / m.start);
  const worstGrowth = Math.max(...growth);
  const heapGrowth = r.memory.map((m) => (m.heapEnd - m.heapStart) / m.heapStart);
  const worstHeapGrowth = Math.max(...heapGrowth);
  // Back to back, three processes served this many; a soak asking more is an overload, not a soak.
  const threeRate = r.spread.run.result.rate;
  const lags = r.lags.map((l) => l.lag).sort((a, b) => a - b);
  const furthest = r.lags.reduce<Lag>((worst, l) => (l.lag > worst.lag ? l : worst), {
    lag: 0,
    projector: '',
  });
  const machine = (m: Measured) =>
    `${m.load[0].toFixed(1)} → ${m.load[1].toFixed(1)} | ${(100 * m.busy).toFixed(0)}%`;
  const row = (label: string, m: { run: Measured; range: string }) => {
    const x = m.run.result;
    return `| ${label} | ${x.ok} | ${x.seconds.toFixed(2)} | ${Math.round(x.rate)} | ${x.p50Ms.toFixed(1)} | ${x.p99Ms.toFixed(1)} | ${failures(x)} | ${machine(m.run)} | median; range ${m.range} over ${options.rounds} runs |`;
  };
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
  const memoryRows = r.memory.map(
    (m, i) =>
      `| process ${i + 1} | ${m.start.toFixed(0)} | ${m.end.toFixed(0)} | ${pct(growth[i])} | ${m.peak.toFixed(0)} | ${m.heapStart.toFixed(0)} → ${m.heapEnd.toFixed(0)} | ${pct(heapGrowth[i])} |`,
  );
  const soakLength =
    options.soakMs % 60_000 === 0 ? `${options.soakMs / 60_000} min` : `${options.soakMs / 1000} s`;
  const c = r.charges;
  const s = r.soak.result;
  return {
    targets: [
      `${TARGET_PREFIX} no SALE charged twice (one transaction and at most one gateway capture per Idempotency-Key) | ${c.keys} keys, ${c.doubled} doubled, ${c.uncaptured} approved without a capture | ${c.doubled === 0 && c.uncaptured === 0 ? 'met' : 'NOT met'} |`,
      `${TARGET_PREFIX} no errors, one process or three, soak included | ${r.errors} | ${r.errors === 0 ? 'met' : 'NOT met'} |`,
      `${TARGET_PREFIX} soak (${soakLength} at half the single-process rate) RSS growth ≤ 10% per process, first to last minute | worst ${pct(worstGrowth)} (heap in use after collections: worst ${pct(worstHeapGrowth)}) | ${worstGrowth <= MEMORY_GROWTH_LIMIT ? 'met' : 'NOT met'} |`,
    ],
    section: `The service as \`npm start\` runs it on \`DATABASE_URL\`: one process, then three, on the bench's
PostgreSQL (durable settings). ${CONNECTIONS} keep-alive connections, connection *c* being partner *c* (ENTERPRISE tier, an
ACTIVE merchant and a saved card each), send \`POST /transactions\` SALEs of 10.00 back to back with fresh
\`Idempotency-Key\`s; with three processes connection *c* goes to process *c* mod 3, as a load balancer spreads
them. 1 s of warm-up then ${options.durationMs / 1000} s measured, ${options.rounds} interleaved rounds (the two extra processes are
stopped and started again between rounds), medians shown; only 200s whose transaction is CAPTURED count.
"Machine" is the 1-minute load average at the start and end of the run and how busy the two cores were
meanwhile, whoever used them: other work on the machine takes its share from the service.

| deployment | SALEs | seconds | per second | p50 ms | p99 ms | failures | load avg | machine busy | note |
|---|---:|---:|---:|---:|---:|---|---|---:|---|
${row('one process', r.single)}
${row('three processes, round robin', r.spread)}

Three processes on two cores add no CPU: the service's thread and PostgreSQL already share the two
cores (see "Where a SALE's time goes" above), so three Node processes divide the same time. And each
of them runs every projector: every process's loops read each event, and each batch takes a turn on
the projector's checkpoint row in every process, a short transaction each time
([adr/0003](adr/0003-projections.md#several-processes)); a SALE waits for its own process's
transaction list. The rows show what crossing processes costs, and that nothing breaks or is doubled.

### Soak: three processes, ${soakLength} at half the single-process rate

Paced: ${r.rate.toFixed(1)} SALEs/s asked (half of the one-process median above), spread evenly over the ${CONNECTIONS}
connections and the three processes on a fixed schedule; each request is timed from when the schedule
said to send it, so a service falling behind shows in the latencies.${
      r.rate > threeRate
        ? ` Here that is more than the
${threeRate.toFixed(1)} SALEs/s three processes served back to back above${
            r.soak.result.rate < 0.95 * r.rate
              ? ': the soak overloads them, requests queue\nand the latencies measure the queue.'
              : ', yet the soak was served in full: the\nback-to-back runs are short and move with the machine (see their range).'
          }`
        : ''
    }

| asked per second | served per second | SALEs | p50 ms | p95 ms | p99 ms | failures | load avg | machine busy |
|---:|---:|---:|---:|---:|---:|---|---|---:|
| ${r.rate.toFixed(1)} | ${s.rate.toFixed(1)} | ${s.ok} | ${s.p50Ms.toFixed(1)} | ${s.p95Ms.toFixed(1)} | ${s.p99Ms.toFixed(1)} | ${failures(s)} | ${machine(r.soak)} |

Memory of each process, read every ${MEMORY_EVERY_MS / 1000} s: RSS from the kernel, the V8 heap in use from its
\`GET /platform/metrics\`. Start and end are the medians of the soak's first and last minute: V8 lets
its heap grow by tens of MiB before each full collection and the RSS follows it, so a single reading
moves by up to a third depending on where in that cycle it falls. The lowest heap in use of each
minute is what collections leave: a leak would raise it minute after minute, but over one minute it
still moves by about a tenth with the cycle.

| process | RSS first minute, MiB | RSS last minute, MiB | RSS growth | RSS peak, MiB | heap in use after collections, first → last minute, MiB | heap growth |
|---|---:|---:|---:|---:|---:|---:|
${memoryRows.join('\n')}

Projection lag: the events the projector furthest behind had left to apply, read from
\`GET /platform/projections\` every ${LAG_EVERY_MS / 1000} s (each process in turn, ${lags.length} readings): p50 ${percentile(lags, 50)},
p99 ${percentile(lags, 99)}, max ${furthest.lag}${furthest.projector ? ` (${furthest.projector})` : ''}; ${r.finalLag.lag} left ${r.drainSeconds.toFixed(1)} s after the load stopped.

Charges, after every run above: ${c.keys} SALE keys, ${c.doubled} with a second transaction or a second capture, ${c.uncaptured}
approved without a capture; the sandbox gateway (its records shared by the processes) holds ${c.captures} captures.`,
  };
}
