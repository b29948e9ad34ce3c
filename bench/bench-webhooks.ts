/**
 * The webhook benchmarks of `npm run bench`, on the real service started in this process on a
 * fresh database of the bench's embedded PostgreSQL, delivering to a receiver on its own thread:
 *
 * 1. Deliveries per second: events appended in bulk (customer events, through the event store
 *    port) for a partner with five endpoints subscribed to every type; from the first delivery to
 *    the last, through the whole pipeline (projector, worker, HTTP, recording).
 * 2. Latency at 100 events/s: one event every 10 ms for a partner with one endpoint; from the
 *    moment the append (its commit) returned to the first attempt's arrival at the receiver.
 */
import { randomUUID } from 'node:crypto';
import type { RunningService } from '../apps/api/src/server';
import { envelopeIdFor } from '../libs/webhooks/src';
import { call, expectStatus, metadataFor, newPartner, startBenchService } from './bench-transactions';
import { freePort } from '../libs/platform/src/database/embedded-postgres';
import { percentile } from './load-worker';
import { BenchReceiver } from './receiver-worker';

const THROUGHPUT_TARGET = 1000;
const LATENCY_TARGET_P99_MS = 200;
const ENDPOINTS = 5;

export interface WebhookBenchOptions {
  adminUrl: string;
  dataDir: string;
  /** Events of the throughput run (each makes one delivery per endpoint). */
  events: number;
  /** Seconds of the 100 events/s latency run. */
  latencySeconds: number;
}

/** A customer created: a partner-visible event (`customer.created`) with the given event id. */
function customerCreated(partnerId: string, merchantId: string) {
  const customerId = randomUUID();
  return {
    stream: `customer-${customerId}`,
    event: {
      id: randomUUID(),
      type: 'CustomerCreated',
      data: {
        customerId,
        merchantId,
        partnerId,
        email: 'payer@bench.test',
        displayName: 'Bench Payer',
        phone: null,
        address: null,
        createdAt: new Date().toISOString(),
      },
    },
  };
}

async function partnerWithEndpoints(
  service: RunningService,
  operator: string,
  name: string,
  receiver: BenchReceiver,
  endpoints: number,
) {
  const partner = await newPartner(service, operator, name);
  for (let i = 0; i < endpoints; i++) {
    await expectStatus(
      'webhook endpoint',
      201,
      call(service, partner.key, 'POST', '/webhook-endpoints', { url: receiver.url(`/${name}/${i}`) }),
    );
  }
  return partner;
}

/** Collects arrivals until `count` or the timeout. */
async function collect(receiver: BenchReceiver, count: number, timeoutMs: number) {
  const received: [string, number][] = [];
  const deadline = Date.now() + timeoutMs;
  while (received.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    received.push(...(await receiver.take()));
  }
  return received;
}

/**
 * A backlog, then its drain: the events are appended while the endpoints' receiver is down (each
 * first attempt is refused at once and scheduled 30 s later); then the receiver starts on that
 * port and the sandbox clock moves 31 minutes, so every delivery is due at once. What is timed is the
 * worker alone: claims, signatures, HTTP, recording.
 */
async function throughput(service: RunningService, operator: string, events: number) {
  const port = await freePort();
  const down = { url: (pathname: string) => `http://127.0.0.1:${port}${pathname}` } as BenchReceiver;
  const partner = await partnerWithEndpoints(service, operator, 'throughput', down, ENDPOINTS);
  const merchantId = randomUUID();
  const store = service.infra.eventStore;
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < events) {
        next++;
        const { stream, event } = customerCreated(partner.id, merchantId);
        await store.appendToStream(stream, [event], {
          expectedRevision: 'no_stream',
          metadata: metadataFor(partner.id),
        });
      }
    }),
  );
  const appendedSeconds = (Date.now() - started) / 1000;
  const expected = events * ENDPOINTS;
  const { pool } = service.infra;
  const count = async (condition: string) =>
    Number(
      (
        await pool.query<{ n: string }>(
          `select count(*)::text as n from webhook_deliveries where partner_id = $1 and ${condition}`,
          [partner.id],
        )
      ).rows[0].n,
    );
  // Every delivery attempted (and refused) at least once; on a slow machine some are on their
  // second or third attempt already, which the clock's move below makes due as well.
  for (let waited = 0; (await count(`state = 'PENDING' and run_attempts >= 1`)) < expected; waited += 200) {
    if (waited > 300_000) throw new Error('the backlog was not attempted within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const backlogSeconds = (Date.now() - started) / 1000;
  const receiver = await BenchReceiver.start(port);
  try {
    await expectStatus(
      'sandbox clock',
      200,
      call(service, operator, 'POST', '/platform/sandbox/clock', { advance_seconds: 31 * 60 }),
    );
    const received = await collect(receiver, expected, 300_000);
    const first = received[0]?.[1] ?? Date.now();
    const last = received[received.length - 1]?.[1] ?? first;
    // The outcomes are written in batches a moment after the arrivals.
    for (let waited = 0; waited < 10_000 && (await count(`state = 'SUCCEEDED'`)) < expected; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      expected,
      received: received.length,
      succeeded: await count(`state = 'SUCCEEDED'`),
      appendedSeconds,
      backlogSeconds,
      seconds: (last - first) / 1000,
      rate: received.length / Math.max(0.001, (last - first) / 1000),
    };
  } finally {
    await receiver.stop();
  }
}

async function latency(service: RunningService, operator: string, receiver: BenchReceiver, seconds: number) {
  const partner = await partnerWithEndpoints(service, operator, 'latency', receiver, 1);
  await receiver.take();
  const merchantId = randomUUID();
  const store = service.infra.eventStore;
  const committed = new Map<string, number>();
  const total = seconds * 100;
  const started = Date.now();
  const appends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    // One event every 10 ms on the wall clock, whatever the previous append took.
    const wait = started + i * 10 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { stream, event } = customerCreated(partner.id, merchantId);
    appends.push(
      store
        .appendToStream(stream, [event], { expectedRevision: 'no_stream', metadata: metadataFor(partner.id) })
        .then(() => void committed.set(envelopeIdFor(event.id, 'customer.created'), Date.now())),
    );
  }
  await Promise.all(appends);
  const rate = total / ((Date.now() - started) / 1000);
  const received = await collect(receiver, total, 60_000);
  const latencies = received
    .map(([id, at]) => at - (committed.get(id) ?? Number.NaN))
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  return {
    events: total,
    rate,
    received: received.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
  };
}

export async function benchWebhooks(
  options: WebhookBenchOptions,
): Promise<{ targets: string[]; section: string }> {
  const { service, operator } = await startBenchService(options.adminUrl, 'bench_webhooks', options.dataDir);
  const receiver = await BenchReceiver.start();
  try {
    console.log(`webhooks: ${options.events} events to ${ENDPOINTS} endpoints...`);
    const t = await throughput(service, operator, options.events);
    // Right after the drain: its dead index entries are still there (no vacuum has run yet).
    console.log(`webhooks: latency at 100 events/s for ${options.latencySeconds} s...`);
    const l = await latency(service, operator, receiver, options.latencySeconds);
    const targets = [
      `| webhook deliveries ≥ ${THROUGHPUT_TARGET.toLocaleString('en-US')}/s to a local receiver | ${Math.round(t.rate)}/s | ${t.rate >= THROUGHPUT_TARGET ? 'met' : 'NOT met'} |`,
      `| event commit → first attempt p99 < ${LATENCY_TARGET_P99_MS} ms at 100 events/s | ${l.p99.toFixed(1)} ms | ${l.p99 < LATENCY_TARGET_P99_MS ? 'met' : 'NOT met'} |`,
    ];
    const section = `| measurement | events | deliveries | seconds | per second | note |
|---|---:|---:|---:|---:|---|
| a backlog of deliveries drained to a local receiver, ${ENDPOINTS} endpoints per event | ${options.events} | ${t.received} of ${t.expected} | ${t.seconds.toFixed(2)} | ${Math.round(t.rate)} | first to last arrival; ${t.succeeded} recorded SUCCEEDED; events appended in ${t.appendedSeconds.toFixed(1)} s (8 writers), every delivery attempted and refused once after ${t.backlogSeconds.toFixed(1)} s |

| event commit → first attempt, 100 events/s | events | received | p50 ms | p95 ms | p99 ms | max ms | p99 < ${LATENCY_TARGET_P99_MS} ms |
|---|---:|---:|---:|---:|---:|---:|---|
| one endpoint, ${options.latencySeconds} s at ${l.rate.toFixed(0)} events/s | ${l.events} | ${l.received} | ${l.p50.toFixed(1)} | ${l.p95.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.max.toFixed(1)} | ${l.p99 < LATENCY_TARGET_P99_MS ? 'met' : 'NOT met'} |

Both run on the real service in this process (sandbox, default schedule and timeout) on its own
database; the receiver is a node:http server on a worker thread answering 204 at once. Events are
\`CustomerCreated\` appended through the event store port (8 writers). Throughput: the events are appended
while the receiver is down, so the \`webhooks\` projector writes ${ENDPOINTS} delivery rows per event and every
first attempt is refused and scheduled 30 s later; then the receiver starts on that port and the sandbox
clock moves 31 minutes (every retry due), and the drain is timed from the first arrival to the last: the worker alone (lease
claims of up to 100 rows, signatures, HTTP over kept-alive connections, up to 128 in flight, outcomes
recorded in batches). Latency, right after that drain (before autovacuum has cleared its dead rows): one
event every 10 ms, from the moment its append returned (its commit)
to the arrival of its first attempt at the receiver, matched by \`webhook-id\`: the whole pipeline
(the projector's snapshot, envelope and delivery row in its checkpoint's transaction, its NOTIFY, the
worker's claim, the request).`;
    return { targets, section };
  } finally {
    await receiver.stop();
    await service.stop();
  }
}
