import { Pool } from 'pg';
import {
  CLUSTER_PUBLIC_BASE_URL,
  CLUSTER_RETRY_SCHEDULE,
  Cluster,
  clusterPartner,
  inParallel,
  savedCard,
} from '../support/cluster';
import { readModelDifferences } from '../support/convergence';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { activeMerchant } from '../support/payments';
import { duplicatesIn, resend, writeLoad } from './load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `kill -9` of one of three service processes on one PostgreSQL while writes pour in through all
 * of them, then the process started again (docs/operations.md, "Several processes" and "The
 * service process dies"): nothing acknowledged is lost, a retry with the same key answers exactly
 * what was acknowledged, every write that was in flight at the kill ends with one outcome, no
 * charge is made twice, and every read model is what the events make of it.
 */
describe('kill -9 of an app process under write load', () => {
  let databaseUrl: string;
  let db: Pool;
  let cluster: Cluster;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase('chaos_process');
    db = new Pool({ connectionString: databaseUrl, max: 2 });
    db.on('error', () => undefined); // an idle connection lost: the next query opens another
    cluster = await Cluster.start(3, databaseUrl);
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await db?.end();
    await dropTestDatabase(databaseUrl);
  }, 60_000);

  it('loses nothing acknowledged, replays it to the byte, resolves each write in flight once, charges once, and converges', async () => {
    const partner = await clusterPartner(cluster);
    const merchantId = await activeMerchant(cluster.at(0).client(), { client: partner.on(cluster.at(1)) });
    const { vaultToken } = await savedCard(cluster, partner, merchantId);

    const load = writeLoad(cluster, partner, merchantId, vaultToken);
    await load.untilAcknowledged(30);
    const victim = cluster.members[1];
    await victim.kill();
    // The others go on serving while it is down.
    await load.untilAcknowledged(20);
    await victim.start();
    await load.untilAcknowledged(20);
    const writes = await load.stop();

    const acknowledged = writes.filter((w) => w.answer && w.answer.status < 300);
    const unanswered = writes.filter((w) => !w.answer);
    const refused = writes.filter((w) => w.answer && w.answer.status >= 300);
    // The kill cut some writes off in flight (their process died before answering).
    expect(unanswered.filter((w) => w.member === victim.index).length).toBeGreaterThan(0);
    // What the others answered meanwhile: successes, or "retry" (a twin of a write the dead
    // process held is in progress until its lease runs down).
    for (const write of refused) {
      expect({ status: write.answer!.status, retryable: write.answer!.body?.retryable }).toEqual({
        status: write.answer!.status,
        retryable: true,
      });
    }

    // Each write in flight (or refused for now) ends with one outcome when retried with its key,
    // on any process: the restarted one included.
    await inParallel([...unanswered, ...refused], 6, async (write, i) => {
      const answer = await resend(partner, cluster.at(i), write);
      expect({ key: write.key, status: answer.status }).toEqual({
        key: write.key,
        status: write.op === 'sale' ? 200 : 201,
      });
      write.answer = answer;
    });

    // Every acknowledged write is there, and its retry answers the original, byte for byte.
    await inParallel(acknowledged, 6, async (write, i) => {
      const member = cluster.at(i);
      const replay = await partner.on(member).post(write.path, write.body, { idempotencyKey: write.key });
      expect({
        key: write.key,
        status: replay.status,
        replayed: replay.headers.get('x-idempotent-replay'),
      }).toEqual({ key: write.key, status: write.answer!.status, replayed: 'true' });
      expect(replay.text).toBe(write.answer!.text);
      const path =
        write.op === 'sale'
          ? `/transactions/${write.answer!.body.id}`
          : `/merchants/${merchantId}/customers/${write.answer!.body.id}`;
      const read = await partner.on(member).get(path);
      expect({ key: write.key, status: read.status }).toEqual({ key: write.key, status: 200 });
      if (write.op === 'sale') expect(read.body.state).toBe('CAPTURED');
    });

    expect(await duplicatesIn(db, writes)).toEqual([]);
    await sleep(500);
    expect(
      await readModelDifferences(databaseUrl, {
        publicBaseUrl: CLUSTER_PUBLIC_BASE_URL,
        webhookRetrySchedule: CLUSTER_RETRY_SCHEDULE.split(',').map(Number),
      }),
    ).toEqual([]);
  }, 300_000);
});
