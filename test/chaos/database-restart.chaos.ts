import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import {
  freePort,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../../libs/platform/src/database/embedded-postgres';
import type { ApiResponse } from '../support/api';
import {
  CLUSTER_PUBLIC_BASE_URL,
  CLUSTER_RETRY_SCHEDULE,
  Cluster,
  clusterPartner,
  inParallel,
  savedCard,
} from '../support/cluster';
import { readModelDifferences } from '../support/convergence';
import { activeMerchant } from '../support/payments';
import { expectProblem } from '../support/problems';
import { waitForHealth } from '../support/process';
import { duplicatesIn, resend, writeLoad } from './load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PostgreSQL stopped (a fast shutdown, as an operator's restart or a failover does it) and
 * started again under write and read load on two service processes (docs/operations.md, "An
 * external database is unreachable or restarted"): while it is down every answer is 503
 * problem+json with `Retry-After`, never a 500 and never a dropped connection; both processes
 * recover without a restart or an operator; and afterwards nothing is lost, nothing doubled,
 * and the read models are what the events make of them.
 */
describe('PostgreSQL stopped and started again under load', () => {
  let dataRoot: string;
  let dir: string;
  let port: number;
  let database: EmbeddedPostgres;
  let cluster: Cluster;
  let db: Pool;

  const startDatabase = async () => {
    const deadline = performance.now() + 30_000;
    for (;;) {
      try {
        database = await startEmbeddedPostgres({ dir, port });
        return;
      } catch (error) {
        if (performance.now() > deadline) throw error;
        await sleep(200);
      }
    }
  };

  beforeAll(async () => {
    dataRoot = mkdtempSync(path.join(tmpdir(), 'payments-chaos-db-'));
    chmodSync(dataRoot, 0o755); // the server may run as the `postgres` user
    dir = path.join(dataRoot, 'postgres');
    port = await freePort();
    await startDatabase();
    cluster = await Cluster.start(2, database.url);
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.end();
    await database?.stop();
    rmSync(dataRoot, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 problem+json with Retry-After while it is down, recovers by itself, and loses or doubles nothing', async () => {
    const partner = await clusterPartner(cluster);
    const merchantId = await activeMerchant(cluster.at(0).client(), { client: partner.on(cluster.at(1)) });
    const { vaultToken } = await savedCard(cluster, partner, merchantId);
    const pids = cluster.members.map((m) => m.proc.child.pid);

    const reads: ApiResponse[] = [];
    let reading = true;
    const readers = Promise.all(
      cluster.members.map(async (member) => {
        while (reading) {
          reads.push(await partner.on(member).get(`/transactions?merchant_id=${merchantId}&page_size=5`));
          await sleep(20);
        }
      }),
    );
    const load = writeLoad(cluster, partner, merchantId, vaultToken, 4);
    await load.untilAcknowledged(20);

    await database.stop();
    // Each process notices within seconds, and says what is down.
    for (const member of cluster.members) {
      const deadline = performance.now() + 10_000;
      let health = await member.client(null).get('/health');
      while (health.status !== 503 && performance.now() < deadline) {
        await sleep(100);
        health = await member.client(null).get('/health');
      }
      expectProblem(health, 503, 'service_unavailable', { retryable: true, checks: { database: 'down' } });
      expect(Number(health.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    await sleep(2_000); // the load goes on against no database

    await startDatabase();
    for (const member of cluster.members) await waitForHealth(member.base, member.proc, 30_000);
    await load.untilAcknowledged(20);
    const writes = await load.stop();
    reading = false;
    await readers;

    // Neither process went down: the same processes serve again.
    expect(cluster.members.map((m) => [m.alive, m.proc.child.pid])).toEqual(pids.map((pid) => [true, pid]));
    // Every answer is a success or a 503 that says when to come back; every request got one.
    expect(writes.filter((w) => !w.answer)).toEqual([]);
    const answers = [...reads, ...writes.map((w) => w.answer!)];
    const refusals = answers.filter((a) => a.status >= 300);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expectProblem(refusal, 503, 'service_unavailable', { retryable: true });
      expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    // Each write refused while the database was away ends with one outcome when retried with its key.
    const refused = writes.filter((w) => w.answer!.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    await inParallel(refused, 4, async (write, i) => {
      const answer = await resend(partner, cluster.at(i), write);
      expect({ key: write.key, status: answer.status }).toEqual({
        key: write.key,
        status: write.op === 'sale' ? 200 : 201,
      });
      write.answer = answer;
    });
    // Every acknowledged SALE is there, captured.
    await inParallel(
      writes.filter((w) => w.op === 'sale'),
      4,
      async (write, i) => {
        const read = await partner.on(cluster.at(i)).get(`/transactions/${write.answer!.body.id}`);
        expect({ key: write.key, status: read.status, state: read.body.state }).toEqual({
          key: write.key,
          status: 200,
          state: 'CAPTURED',
        });
      },
    );

    db = new Pool({ connectionString: database.url, max: 2 });
    // A connection the database's stop ends while the pool closes is not the test's failure.
    db.on('error', () => undefined);
    expect(await duplicatesIn(db, writes)).toEqual([]);
    expect(
      await readModelDifferences(database.url, {
        publicBaseUrl: CLUSTER_PUBLIC_BASE_URL,
        webhookRetrySchedule: CLUSTER_RETRY_SCHEDULE.split(',').map(Number),
      }),
    ).toEqual([]);
  }, 300_000);
});
