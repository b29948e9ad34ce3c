/**
 * The list's lag behind a write, sampled on a worker thread of its own (so that the servers'
 * busy event loop does not delay the sampling itself): one SALE at a time, then `transaction_list`
 * polled every 2 ms on a connection of its own until the SALE's row is there; the lag runs from the
 * SALE's answer to the first poll that finds the row. Start it with {@link startLagProbe}; the
 * worker side is the bottom of this file.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Client } from 'pg';

export interface LagProbeSpec {
  /** `http://127.0.0.1:1234/api/v1/transactions` */
  url: string;
  headers: Record<string, string>;
  body: string;
  databaseUrl: string;
  /** Pause between one sighting and the next SALE. */
  pauseMs: number;
}

/** Starts sampling; `stop()` ends it and resolves with the lags, in ms. */
export function startLagProbe(spec: LagProbeSpec): { stop(): Promise<number[]> } {
  const worker = new Worker(path.join(__dirname, 'lag-worker.js'), { workerData: spec });
  const lags = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (message: number[]) => resolve(message));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the lag probe exited with code ${code}`)));
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      return lags;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sample(spec: LagProbeSpec, stopped: () => boolean): Promise<number[]> {
  const db = new Client({ connectionString: spec.databaseUrl });
  await db.connect();
  const lags: number[] = [];
  try {
    while (!stopped()) {
      const res = await fetch(spec.url, {
        method: 'POST',
        headers: { ...spec.headers, 'idempotency-key': randomUUID() },
        body: spec.body,
      });
      const answeredAt = performance.now();
      const answer = (await res.json()) as { id?: string };
      if (res.status !== 200 || !answer.id) continue;
      for (;;) {
        const { rows } = await db.query('select 1 from transaction_list where id = $1', [answer.id]);
        if (rows.length > 0) break;
        await sleep(2);
      }
      lags.push(performance.now() - answeredAt);
      await sleep(spec.pauseMs);
    }
  } finally {
    await db.end();
  }
  return lags;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  let stop = false;
  port.on('message', () => (stop = true));
  sample(workerData as LagProbeSpec, () => stop).then(
    (lags) => {
      port.postMessage(lags);
      port.close();
    },
    (error: unknown) => {
      throw error;
    },
  );
}
