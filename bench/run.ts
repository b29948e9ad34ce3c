/**
 * `npm run bench`: measures the event store and the projection engine on a fresh embedded
 * PostgreSQL (durable settings, as in production) and writes docs/benchmarks.md.
 *
 * Measured in one run: a raw single-row INSERT baseline; appends with 1, 8 and 32 writers on
 * distinct streams; 8 writers contending on one stream (conflicts counted); projection catch-up
 * over 200k events; cold and warm start of the service to healthy; and, on the real service,
 * `POST /transactions` SALE throughput against a bare INSERT route and `GET /transactions` latency
 * at a million rows (bench-transactions.ts); webhook deliveries per second and the latency from an
 * event's commit to its first attempt (bench-webhooks.ts); the end-of-day settlement run over
 * 10,000 and 100,000 captured transactions, time and peak RSS (bench-settlement.ts); and 10,000
 * recurring contracts falling due at one sandbox clock advance, charged through the same command
 * path (bench-recurring.ts).
 *
 * `BENCH_ONLY=settlement` or `BENCH_ONLY=recurring` (`npm run bench`) measures only that part and
 * rewrites only its rows in docs/benchmarks.md (its target rows and its section), leaving the
 * others as they are.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { Pool } from 'pg';
import { EventStore, WrongExpectedRevision, type EventMetadata } from '../libs/event-store/src';
import { PostgresEventStore } from '../libs/event-store/src';
import { SystemClock } from '../libs/platform/src/clock/clock';
import { createDataSource, runMigrations } from '../libs/platform/src/database/data-source';
import { freePort, startEmbeddedPostgres } from '../libs/platform/src/database/embedded-postgres';
import { BENCH_ENTITIES, BENCH_MIGRATIONS, benchProjector } from './bench-projector';
import { benchTransactions } from './bench-transactions';
import { benchEndOfDay, spliceEndOfDay } from './bench-settlement';
import { benchRecurring } from './bench-recurring';
import { benchWebhooks } from './bench-webhooks';
import { spliceReport } from './report-splice';
import { ProjectionRunner } from '../libs/projections/src';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CATCH_UP_EVENTS = Number(process.env.BENCH_CATCH_UP_EVENTS ?? 200_000);
const ROOT = path.resolve(__dirname, '..', '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * `BENCH_ONLY=sale,store` runs only those parts and prints them (docs/benchmarks.md is written by a
 * whole run only): `store` (raw INSERT, appends, contention), `catchup`, `sale` (SALE against the
 * bare route), `sale-webhooks` (the SALE with webhooks delivered), `writes` (the other hot writes),
 * `list` (`GET /transactions` at a million rows), `webhooks`, `start`, `settlement` (the end of day;
 * alone, its rows are spliced into docs/benchmarks.md).
 */
export const BENCH_PARTS = [
  'store',
  'catchup',
  'sale',
  'sale-webhooks',
  'writes',
  'list',
  'webhooks',
  'start',
  'settlement',
  'recurring',
];
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
for (const part of ONLY ?? []) {
  if (!BENCH_PARTS.includes(part))
    throw new Error(`BENCH_ONLY: unknown part ${part} (${BENCH_PARTS.join(', ')})`);
}
const runs = (part: string): boolean => !ONLY || ONLY.includes(part);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 300);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 10_000);
const RECURRING_HEADING = '## Recurring contracts';
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000);
const WEBHOOK_LATENCY_SECONDS = Number(process.env.BENCH_WEBHOOK_LATENCY_SECONDS ?? 20);
/** End of day: captured transactions per run (each in a process of its own), over this many merchants. */
const EOD_SIZES = (process.env.BENCH_EOD_SIZES ?? '10000,100000').split(',').map(Number);
const EOD_MERCHANTS = Number(process.env.BENCH_EOD_MERCHANTS ?? 1000);
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');

function median(runs: Row[]): Row {
  const sorted = [...runs].sort((a, b) => a.rate - b.rate);
  const middle = sorted[Math.floor(sorted.length / 2)];
  const range = `${Math.round(sorted[0].rate)}–${Math.round(sorted[sorted.length - 1].rate)}/s over ${runs.length} runs`;
  return { ...middle, note: [middle.note, `median; range ${range}`].filter(Boolean).join('; ') };
}

const metadata: EventMetadata = {
  actor: 'system:bench',
  partner_id: null,
  request_id: null,
  idempotency_key: null,
  causation_id: null,
  correlation_id: null,
};

interface Row {
  name: string;
  ops: number;
  seconds: number;
  rate: number;
  note: string;
}

/** Runs `writers` loops for DURATION_MS; each loop calls `op` back to back. */
async function timed(writers: number, op: (writer: number, i: number) => Promise<'ok' | 'conflict'>) {
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(DURATION_MS) * 1_000_000n;
  let ok = 0;
  let conflicts = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; process.hrtime.bigint() < deadline; i++) {
        if ((await op(w, i)) === 'ok') ok++;
        else conflicts++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { ok, conflicts, seconds };
}

/**
 * Raw single-row INSERTs, no event-store logic: into a minimal table, and into a table with the
 * events table's shape (same columns, same unique keys), one row and one transaction each.
 * The event-shaped one is the baseline the targets use: it isolates what the store's logic
 * (revision check, position reservation, NOTIFY) costs over writing the same row.
 */
async function rawInsert(pool: Pool, writers: number, shape: 'minimal' | 'event'): Promise<Row> {
  await pool.query('create table if not exists bench_raw(id bigserial primary key, stream text, data jsonb)');
  await pool.query(`create table if not exists bench_raw_event(
    global_position bigserial primary key, stream_name text not null, revision bigint not null, event_id uuid not null unique,
    type text not null, data jsonb not null, metadata jsonb not null, recorded_at timestamptz not null, unique (stream_name, revision))`);
  const r = await timed(writers, async () => {
    if (shape === 'minimal') {
      await pool.query('insert into bench_raw(stream, data) values ($1, $2)', [randomUUID(), { n: 1 }]);
    } else {
      await pool.query(
        'insert into bench_raw_event(stream_name, revision, event_id, type, data, metadata, recorded_at) values ($1, 0, $2, $3, $4, $5, now())',
        [`bench-${randomUUID()}`, randomUUID(), 'BenchEvent', { n: 1 }, metadata],
      );
    }
    return 'ok';
  });
  return {
    name: `raw single-row INSERT (${shape === 'minimal' ? 'minimal table' : 'events-shaped table'}), ${writers} writers`,
    ops: r.ok,
    seconds: r.seconds,
    rate: r.ok / r.seconds,
    note: shape === 'event' ? 'baseline' : 'for reference',
  };
}

async function appends(store: EventStore, writers: number): Promise<Row> {
  const streams = Array.from({ length: writers }, () => `bench-${randomUUID()}`);
  const revisions = streams.map(() => -1n);
  const r = await timed(writers, async (w) => {
    const expected = revisions[w] === -1n ? ('no_stream' as const) : revisions[w];
    const result = await store.appendToStream(streams[w], [{ type: 'BenchEvent', data: { n: 1 } }], {
      expectedRevision: expected,
      metadata,
    });
    revisions[w] = result.nextRevision;
    return 'ok';
  });
  return {
    name: `append, ${writers} writer(s), distinct streams`,
    ops: r.ok,
    seconds: r.seconds,
    rate: r.ok / r.seconds,
    note: '',
  };
}

async function contended(store: EventStore, writers: number): Promise<Row> {
  const stream = `bench-hot-${randomUUID()}`;
  await store.appendToStream(stream, [{ type: 'BenchEvent', data: { n: 0 } }], {
    expectedRevision: 'no_stream',
    metadata,
  });
  const r = await timed(writers, async () => {
    const events = await store.readStream(stream, { fromRevision: 0n });
    const revision = events[events.length - 1].revision;
    try {
      await store.appendToStream(stream, [{ type: 'BenchEvent', data: { n: 1 } }], {
        expectedRevision: revision,
        metadata,
      });
      return 'ok';
    } catch (error) {
      if (error instanceof WrongExpectedRevision) return 'conflict';
      throw error;
    }
  });
  return {
    name: `append, ${writers} writers contending on one stream`,
    ops: r.ok,
    seconds: r.seconds,
    rate: r.ok / r.seconds,
    note: `${r.conflicts} conflicts (${((100 * r.conflicts) / Math.max(1, r.ok + r.conflicts)).toFixed(1)}% of attempts), refused cleanly`,
  };
}

async function catchUp(url: string, store: EventStore, pool: Pool): Promise<Row> {
  // Bulk-load the events with the store itself (32 per append) so positions are real.
  const batch = 100;
  const streams = 1000;
  const perStream = Math.ceil(CATCH_UP_EVENTS / streams);
  const revisions = new Map<string, bigint>();
  let written = 0;
  const names = Array.from({ length: streams }, () => `benchcatch-${randomUUID()}`);
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let s = w; s < streams; s += 8) {
        for (let i = 0; i < perStream; i += batch) {
          const n = Math.min(batch, perStream - i);
          const events = Array.from({ length: n }, (_, k) => ({
            type: 'BenchEvent',
            data: { stream: names[s], n: i + k },
          }));
          const prev = revisions.get(names[s]);
          const res = await store.appendToStream(names[s], events, {
            expectedRevision: prev === undefined ? 'no_stream' : prev,
            metadata,
          });
          revisions.set(names[s], res.nextRevision);
          written += n;
        }
      }
    }),
  );
  const dataSource = createDataSource(url, { entities: BENCH_ENTITIES, migrations: BENCH_MIGRATIONS });
  await dataSource.initialize();
  await runMigrations(dataSource);
  const head = await store.headPosition();
  const runner = new ProjectionRunner({
    store,
    dataSource,
    projectors: [benchProjector()],
    databaseUrl: url,
  });
  const started = process.hrtime.bigint();
  await runner.start();
  const reached = await runner.waitFor(head, ['bench'], 600_000);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await runner.stop();
  const { rows } = await pool.query<{ n: string }>('select count(*) as n from bench_projection');
  await dataSource.destroy();
  return {
    name: `projection catch-up over ${written} events`,
    ops: written,
    seconds,
    rate: written / seconds,
    note: `${reached ? 'reached head' : 'TIMED OUT'}; ${rows[0].n} rows written (set-based upsert per batch)`,
  };
}

/** Start the built service on a data directory and time it until /health answers. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js')], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('service exited during start');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

function table(rows: Row[], baseline: Row | null): string {
  const lines = [
    '| measurement | events/ops | seconds | per second | vs raw INSERT (events-shaped, 8 writers) | note |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const ratio = baseline ? (r.rate / baseline.rate).toFixed(2) : '–';
    lines.push(
      `| ${r.name} | ${r.ops} | ${r.seconds.toFixed(2)} | ${Math.round(r.rate)} | ${ratio} | ${r.note} |`,
    );
  }
  return lines.join('\n');
}

/** `BENCH_ONLY=settlement`: the end of day on a PostgreSQL of its own, its rows spliced into the report. */
async function endOfDayOnly(): Promise<void> {
  await alone('end-of-day', async (adminUrl, dataDir) => {
    const endOfDay = await benchEndOfDay({ adminUrl, dataDir, sizes: EOD_SIZES, merchants: EOD_MERCHANTS });
    return spliceEndOfDay(readFileSync(REPORT, 'utf8'), endOfDay, new Date());
  });
}

/** `BENCH_ONLY=recurring`: the recurring contracts on a PostgreSQL of their own, spliced into the report. */
async function recurringOnly(): Promise<void> {
  await alone('recurring', async (adminUrl, dataDir) => {
    const recurring = await benchRecurring({ adminUrl, dataDir, contracts: CONTRACTS });
    return spliceReport(readFileSync(REPORT, 'utf8'), {
      isTarget: (line) => line.includes(' contracts falling due at one clock advance '),
      targets: [recurring.target],
      heading: RECURRING_HEADING,
      section: `Measured alone by \`BENCH_ONLY=recurring npm run bench\` (${new Date().toISOString()}).\n\n${recurring.section}`,
    });
  });
}

/** One part of the bench on a fresh embedded PostgreSQL; `measure` answers the new report. */
async function alone(name: string, measure: (adminUrl: string, dataDir: string) => Promise<string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-bench-'));
  chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres') });
  try {
    const report = await measure(db.url, path.join(dir, name));
    writeFileSync(REPORT, report);
    console.log(report);
  } finally {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (ONLY?.length === 1 && ONLY[0] === 'settlement') return endOfDayOnly();
  if (ONLY?.length === 1 && ONLY[0] === 'recurring') return recurringOnly();
  const startLoad = loadavg()[0];
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-bench-'));
  chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres') });
  // Everything connects over the server's Unix socket, as the service does with its embedded
  // database (BENCH_TRANSPORT=tcp: over TCP loopback instead, to compare).
  const url = process.env.BENCH_TRANSPORT === 'tcp' ? db.url : (db.socketUrl ?? db.url);
  const pool = new Pool({ connectionString: url, max: 40 });
  // pool.end() resolves before its sockets close; the server stopping right after must not crash us.
  pool.on('error', () => undefined);
  const clock = new SystemClock();
  await PostgresEventStore.migrate(pool);
  const store = new PostgresEventStore(pool, clock);
  try {
    const rows: Row[] = [];
    const targets: string[] = [];
    let raw8: Row | null = null;
    if (runs('store')) {
      console.log('raw INSERT baseline...');
      rows.push(await rawInsert(pool, 8, 'minimal'), await rawInsert(pool, 1, 'event'));
      // The target pair runs ROUNDS times, interleaved, and reports the median of each: a busy
      // 2-core machine moves single runs by ±20%.
      const rawRuns: Row[] = [];
      const appendRuns: Row[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        console.log(`raw INSERT and appends, 8 writers, round ${round + 1} of ${ROUNDS}...`);
        rawRuns.push(await rawInsert(pool, 8, 'event'));
        appendRuns.push(await appends(store, 8));
      }
      raw8 = median(rawRuns);
      rows.push(raw8);
      for (const writers of [1, 8, 32]) {
        console.log(`appends, ${writers} writers...`);
        rows.push(writers === 8 ? median(appendRuns) : await appends(store, writers));
      }
      console.log('contended appends...');
      rows.push(await contended(store, 8));
      const append8 = rows.find((r) => r.name.startsWith('append, 8 writer(s)'))!;
      targets.push(
        `| appends at 8 writers ≥ ½ raw INSERT rate (events-shaped table, 8 writers) | ${(append8.rate / raw8.rate).toFixed(2)}× | ${append8.rate >= raw8.rate / 2 ? 'met' : 'NOT met'} |`,
      );
    }
    if (runs('catchup')) {
      console.log(`projection catch-up over ${CATCH_UP_EVENTS} events...`);
      const catch200 = await catchUp(url, store, pool);
      rows.push(catch200);
      targets.push(
        `| catch-up ≥ 10,000 events/s | ${Math.round(catch200.rate)}/s | ${catch200.rate >= 10_000 ? 'met' : 'NOT met'} |`,
      );
    }
    await store.close();
    await pool.end();

    const transactionParts = ['sale', 'sale-webhooks', 'writes', 'list'].filter(runs);
    const transactions =
      transactionParts.length > 0
        ? await benchTransactions({
            adminUrl: url,
            postgresPid: db.pid ?? 0,
            dataDir: path.join(dir, 'service'),
            durationMs: DURATION_MS,
            rounds: ROUNDS,
            listRows: LIST_ROWS,
            listRequests: LIST_REQUESTS,
            parts: new Set(transactionParts),
          })
        : null;
    const webhooks = runs('webhooks')
      ? await benchWebhooks({
          adminUrl: url,
          dataDir: path.join(dir, 'webhooks'),
          events: WEBHOOK_EVENTS,
          latencySeconds: WEBHOOK_LATENCY_SECONDS,
        })
      : null;
    const endOfDay = runs('settlement')
      ? await benchEndOfDay({
          adminUrl: url,
          dataDir: path.join(dir, 'end-of-day'),
          sizes: EOD_SIZES,
          merchants: EOD_MERCHANTS,
        })
      : null;
    const recurring = runs('recurring')
      ? await benchRecurring({
          adminUrl: url,
          dataDir: path.join(dir, 'recurring'),
          contracts: CONTRACTS,
        })
      : null;
    await db.stop();

    let startNote = '';
    if (runs('start')) {
      console.log('service start, cold and warm...');
      const startDir = path.join(dir, 'start');
      const cold = await timeStart(startDir);
      const warm = await timeStart(startDir);
      targets.push(
        `| cold start to healthy < 20 s | ${cold.toFixed(1)} s | ${cold < 20 ? 'met' : 'NOT met'} |`,
        `| warm start to healthy < 5 s | ${warm.toFixed(1)} s | ${warm < 5 ? 'met' : 'NOT met'} |`,
      );
      startNote = `Service start: cold (fresh DATA_DIR: initdb, migrations) ${cold.toFixed(1)} s, warm ${warm.toFixed(1)} s, measured from
process spawn to the first 200 from \`/api/v1/health\` (the build is already done by \`npm ci\`).`;
    }
    targets.push(
      ...(transactions?.targets ?? []),
      ...(webhooks?.targets ?? []),
      ...(endOfDay?.targets ?? []),
      ...(recurring ? [recurring.target] : []),
    );

    const cpu = cpus()[0]?.model ?? 'unknown';
    const report = `# Benchmarks

Written by \`npm run bench\` (${new Date().toISOString()}). Each throughput row runs for ${DURATION_MS / 1000} s on a fresh
embedded PostgreSQL with its durable defaults (fsync on), so the numbers include commit flushes.

Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory (${(freemem() / 2 ** 30).toFixed(1)} GiB free), Node ${process.version}, ${process.platform}/${process.arch}.
Load average (1 min) when the run started ${startLoad.toFixed(2)}, when it ended ${loadavg()[0].toFixed(2)}: anything else running on the
machine shares its cores with the measurements.

## Targets

| target | measured | |
|---|---:|---|
${targets.join('\n')}

## Throughput

${table(rows, raw8)}

${startNote}

How to read it: "append" rows are full event-store appends (expected-revision check, unique (stream, revision),
JSON data and metadata, NOTIFY) through the port; the contended row counts appends that lost the optimistic
concurrency race (WrongExpectedRevision) and were refused without writing. Catch-up time runs from runner start
until the projector's checkpoint reaches the head.

## Transactions

${transactions?.section ?? ''}

## Webhooks

${webhooks?.section ?? ''}

## Settlement

${endOfDay?.section ?? ''}

${RECURRING_HEADING}

${recurring?.section ?? ''}
`;
    if (ONLY) {
      console.log(report);
      console.log(`(BENCH_ONLY=${ONLY.join(',')}: docs/benchmarks.md is written by a whole run only)`);
      return;
    }
    writeFileSync(REPORT, report);
    console.log(report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
