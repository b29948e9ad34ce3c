/**
 * An HTTP load generator on a worker thread, so the client's own work never runs on the event
 * loop of the server it measures. `connections` loops, each on its own keep-alive socket, send
 * requests back to back: a warm-up first (not counted), then `durationMs` of measured requests.
 *
 * Run it with {@link runLoad}; the worker side is the bottom of this file.
 */
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export interface LoadSpec {
  /** `http://127.0.0.1:1234/api/v1/transactions` */
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** One entry per connection (connection `c` uses entry `c % length`): its headers and body. */
  requests: { headers: Record<string, string>; body: string | null }[];
  /** A fresh `Idempotency-Key` on every request. */
  freshIdempotencyKey: boolean;
  /** A 200 counts as a success only when its body contains this text (e.g. `"CAPTURED"`). */
  expectInBody: string | null;
  /** The status of a success; default 200. */
  expectStatus?: number;
  /**
   * Requests that can each be sent once (a hosted page is completed once): connections take the
   * next one in turn, instead of `url` with their entry of `requests`; the load ends early when
   * none is left.
   */
  sequence?: { url: string; body: string }[];
}

export interface LoadResult {
  /** Every request sent, warm-up included. */
  sent: number;
  /** Measured successes (status 200, and the expected text when one is given). */
  ok: number;
  seconds: number;
  rate: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Measured non-successes by status (`200*` is a 200 without the expected text; `error` is a socket error). */
  failures: Record<string, number>;
}

/** Runs one load on a fresh worker thread and resolves with its measurements. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'load-worker.js'), { workerData: spec });
    let result: LoadResult | undefined;
    worker.once('message', (message: LoadResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`the load worker exited with code ${code}`)),
    );
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** One request on `agent`; never rejects (a socket error is status `error`). */
export function send(
  agent: http.Agent,
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number | 'error'; text: string }> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        headers: body === null ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', () => resolve({ status: 'error', text: '' }));
      },
    );
    request.on('error', () => resolve({ status: 'error', text: '' }));
    request.end(body ?? undefined);
  });
}

/**
 * What a load loop counts: every request sent, the good answers measured after the warm-up with
 * their latency, the others by status (`200*`: a 200 whose body was not the expected one).
 */
export class LoadTally {
  sent = 0;
  private ok = 0;
  private readonly latencies: number[] = [];
  private readonly failures: Record<string, number> = {};

  constructor(
    private readonly measureFrom: bigint,
    private readonly expectStatus: number = 200,
  ) {}

  /** One answer to a request timed from `sentAt`; before the warm-up ends it is only counted as sent. */
  record(sentAt: bigint, status: number | 'error', good: boolean): void {
    this.sent++;
    if (sentAt < this.measureFrom) return;
    if (good) {
      this.ok++;
      this.latencies.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
    } else {
      const key = status === this.expectStatus ? `${status}*` : String(status);
      this.failures[key] = (this.failures[key] ?? 0) + 1;
    }
  }

  /** The run's result, over the time from the warm-up's end to `endedAt` (a used-up sequence) or now. */
  result(endedAt: bigint | null = null): LoadResult {
    const seconds = Number((endedAt ?? process.hrtime.bigint()) - this.measureFrom) / 1e9;
    const latencies = [...this.latencies].sort((a, b) => a - b);
    return {
      sent: this.sent,
      ok: this.ok,
      seconds,
      rate: this.ok / seconds,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      failures: this.failures,
    };
  }
}

async function generate(spec: LoadSpec): Promise<LoadResult> {
  const target = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const started = process.hrtime.bigint();
  const measureFrom = started + BigInt(spec.warmupMs) * 1_000_000n;
  const deadline = measureFrom + BigInt(spec.durationMs) * 1_000_000n;
  const expectStatus = spec.expectStatus ?? 200;
  const tally = new LoadTally(measureFrom, expectStatus);
  let next = 0;
  let endedAt: bigint | null = null;
  await Promise.all(
    Array.from({ length: spec.connections }, async (_, c) => {
      const { headers, body } = spec.requests[c % spec.requests.length];
      for (;;) {
        const sentAt = process.hrtime.bigint();
        if (sentAt >= deadline) return;
        const item = spec.sequence ? spec.sequence[next++] : undefined;
        if (spec.sequence && !item) {
          endedAt ??= sentAt;
          return;
        }
        const { status, text } = await send(
          agent,
          item ? new URL(item.url) : target,
          spec.method,
          spec.freshIdempotencyKey ? { ...headers, 'idempotency-key': randomUUID() } : headers,
          item ? item.body : body,
        );
        const good =
          status === expectStatus && (spec.expectInBody === null || text.includes(spec.expectInBody));
        tally.record(sentAt, status, good);
      }
    }),
  );
  agent.destroy();
  return tally.result(endedAt);
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  generate(workerData as LoadSpec).then(
    (result) => port.postMessage(result),
    (error: unknown) => {
      throw error;
    },
  );
}
