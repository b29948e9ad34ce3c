import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { RATE_LIMITS, reservationSize } from '../../libs/platform/src/auth/rate-limiter';
import {
  CLUSTER_PUBLIC_BASE_URL,
  CLUSTER_RETRY_SCHEDULE,
  Cluster,
  clusterPartner,
  completeHostedPage,
  inParallel,
  savedCard,
  type Member,
} from '../support/cluster';
import { readModelDifferences } from '../support/convergence';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { CARD_FORM, csrfOf, submitForm } from '../support/hosted-form';
import { activeMerchant } from '../support/payments';
import { expectProblem } from '../support/problems';
import { retryUntilDefinite } from '../support/retry';
import { WebhookReceiver } from '../support/webhook-receiver';
import { checkedFetch } from '../support/checked-fetch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Three service processes, as `npm start` runs them, on one PostgreSQL: every request of the
 * scenario goes to a different one than the last (a load balancer's round robin), so every rule
 * that must hold across processes is met by requests that cross them (docs/operations.md,
 * "Several processes").
 */
describe('three processes on one database', () => {
  let databaseUrl: string;
  let db: Pool;
  let cluster: Cluster;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase('scale_out');
    db = new Pool({ connectionString: databaseUrl, max: 2 });
    receiver = await WebhookReceiver.start();
    cluster = await Cluster.start(3, databaseUrl);
  }, 180_000);
  afterAll(async () => {
    const codes = await cluster?.stop();
    await receiver?.close();
    await db?.end();
    await dropTestDatabase(databaseUrl);
    expect(codes).toEqual([0, 0, 0]); // every process shut down cleanly
  }, 60_000);

  const eventTypesOf = async (stream: string): Promise<string[]> =>
    (
      await db.query<{ type: string }>(
        'select type from event_store.events where stream_name = $1 order by revision',
        [stream],
      )
    ).rows.map((row) => row.type);

  it('SALEs, refunds and hosted-page completions through all three: no charge twice, every read model converges, every webhook delivered once', async () => {
    const partner = await clusterPartner(cluster);
    const endpoint = await partner
      .on(cluster.at(0))
      .post('/webhook-endpoints', { url: receiver.url('/scale') });
    expect(endpoint.status).toBe(201);
    const merchantId = await activeMerchant(cluster.at(1).client(), { client: partner.on(cluster.at(2)) });
    // Walked to ACTIVE on processes 1 and 2, read at once on 0.
    expect((await partner.on(cluster.at(0)).get(`/merchants/${merchantId}`)).body.state).toBe('ACTIVE');

    // A saved card, from a hosted page that also charges: created, shown and paid on three processes.
    const saver = await savedCard(cluster, partner, merchantId);

    // More hosted pages, each one crossing the processes; one submitted twice at once, to two of them.
    const pages = await inParallel([1, 2, 3, 4, 5], 3, (n) =>
      completeHostedPage(partner.on(cluster.at(n)), cluster.at(n + 1), cluster.at(n + 2), {
        merchant_id: merchantId,
      }),
    );
    expect(pages.map((p) => p.status)).toEqual([303, 303, 303, 303, 303]);
    const twice = await partner.on(cluster.at(0)).post('/hpp/sessions', {
      merchant_id: merchantId,
      amount: '21.00',
      currency: 'USD',
    });
    const form = await checkedFetch(cluster.at(0).here(twice.body.hpp_url));
    const fields = { csrf_token: csrfOf(await form.text()), ...CARD_FORM };
    const both = await Promise.all([
      submitForm(cluster.at(1).here(twice.body.hpp_url), fields),
      submitForm(cluster.at(2).here(twice.body.hpp_url), fields),
    ]);
    expect(both.map((r) => r.status)).toEqual([303, 303]);
    const sessions = [saver.sessionId, ...pages.map((p) => p.sessionId), twice.body.id as string];
    for (const sessionId of sessions) {
      const types = await eventTypesOf(`hpp_session-${sessionId}`);
      expect({ sessionId, completed: types.filter((t) => t === 'HppSessionCompleted').length }).toEqual({
        sessionId,
        completed: 1,
      });
    }

    // SALEs with the saved card, round robin, eight in flight at a time.
    const saleKeys = Array.from({ length: 30 }, () => randomUUID());
    // Each answer is read back at once from the next process: a single GET is strongly
    // consistent whichever process wrote (docs/api.md, "Consistency").
    const readBack: unknown[] = [];
    const sales = await inParallel(saleKeys, 8, async (key, i) => {
      const sale = await retryUntilDefinite(() =>
        partner.on(cluster.at(i)).post(
          '/transactions',
          {
            type: 'SALE',
            merchant_id: merchantId,
            amount: '10.00',
            currency: 'USD',
            vault_token: saver.vaultToken,
            use_type: 'ONE_TIME_FUTURE',
          },
          { idempotencyKey: key },
        ),
      );
      if (sale.status === 200) {
        const read = await partner.on(cluster.at(i + 1)).get(`/transactions/${sale.body.id}`);
        readBack[i] = read.status === 200 ? read.body : read.status;
      }
      return sale;
    });
    expect(sales.map((s) => `${s.status} ${s.body.state}`)).toEqual(saleKeys.map(() => '200 CAPTURED'));
    expect(readBack).toEqual(sales.map((s) => s.body));

    // End of day, then three partial refunds of 4.00 of each of ten 10.00 sales, one to each
    // process at once: the parent's stream lets two through and refuses the third.
    const run = await cluster.at(1).client().post('/platform/settlement/run', {});
    expect(run.status).toBe(200);
    const parents = sales.slice(0, 10).map((s) => s.body.id as string);
    const refunds = await inParallel(parents, 2, (parentId) =>
      Promise.all(
        cluster.members.map((member) => {
          const key = randomUUID();
          return retryUntilDefinite(() =>
            partner.on(member).post(
              '/transactions',
              {
                type: 'PARTIAL_REFUND',
                merchant_id: merchantId,
                parent_transaction_id: parentId,
                amount: '4.00',
                refund_reason: 'customer_requested',
              },
              { idempotencyKey: key },
            ),
          );
        }),
      ),
    );
    for (const [i, answers] of refunds.entries()) {
      const statuses = answers.map((a) => a.status).sort();
      expect({ parent: parents[i], statuses }).toEqual({ parent: parents[i], statuses: [200, 200, 422] });
      const refused = answers.find((a) => a.status === 422)!;
      expectProblem(refused, 422, 'amount_exceeds_refundable');
      const parent = await partner.on(cluster.at(i)).get(`/transactions/${parents[i]}`);
      expect({ state: parent.body.state, refundable: parent.body.refundable_amount }).toEqual({
        state: 'PARTIALLY_REFUNDED',
        refundable: '2.00',
      });
    }

    // No charge twice: one transaction per key, one approval per transaction, one gateway id each.
    const { rows: perKey } = await db.query<{ key: string; transactions: string }>(
      `select metadata->>'idempotency_key' as key, count(*)::text as transactions from event_store.events
        where type = 'TransactionInitiated' and metadata->>'idempotency_key' = any($1::text[])
        group by 1`,
      [saleKeys],
    );
    expect(perKey.map((r) => r.transactions)).toEqual(saleKeys.map(() => '1'));
    const { rows: approvals } = await db.query<{ stream: string; n: string; gateway_ids: string }>(
      `select stream_name as stream, count(*)::text as n,
              count(distinct data->>'gatewayTransactionId')::text as gateway_ids
         from event_store.events where type = 'TransactionApproved' group by stream_name`,
    );
    expect(approvals.filter((a) => a.n !== '1')).toEqual([]);
    const { rows: gateway } = await db.query<{ ids: string; distinct_ids: string }>(
      `select count(data->>'gatewayTransactionId')::text as ids,
              count(distinct data->>'gatewayTransactionId')::text as distinct_ids
         from event_store.events where type = 'TransactionApproved'`,
    );
    expect(gateway[0].ids).toBe(gateway[0].distinct_ids);
    // 30 sales, 7 hosted-page charges and 20 refunds were approved, each once, and the gateway
    // (whose records every process shares) made exactly as many.
    expect(approvals).toHaveLength(30 + sessions.length + 20);
    const { rows: made } = await db.query<{ kind: string; n: number }>(
      'select kind, count(*)::int as n from sandbox_gateway.transactions group by kind order by kind',
    );
    expect(made).toEqual([
      { kind: 'CAPTURE', n: 30 + sessions.length },
      { kind: 'REFUND', n: 20 },
    ]);

    // Every read model is what the events make of it, whichever process applied them.
    expect(
      await readModelDifferences(databaseUrl, {
        publicBaseUrl: CLUSTER_PUBLIC_BASE_URL,
        webhookRetrySchedule: CLUSTER_RETRY_SCHEDULE.split(',').map(Number),
      }),
    ).toEqual([]);

    // Every envelope made for the partner arrives, once, whichever process claimed it.
    const { rows: envelopes } = await db.query<{ id: string }>(
      'select id from webhook_events where partner_id = $1',
      [partner.id],
    );
    expect(envelopes.length).toBeGreaterThan(100);
    await receiver.waitFor(
      (received) => new Set(received.map((r) => r.envelope.id)).size >= envelopes.length,
      30_000,
    );
    await sleep(500); // a second attempt of any of them would have come by now
    const counts = new Map<string, number>();
    for (const received of receiver.received) {
      counts.set(received.envelope.id, (counts.get(received.envelope.id) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(envelopes.map((e) => e.id).sort());
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }, 240_000);

  it('one Idempotency-Key sent to all three processes at once runs once, and each of them answers the original', async () => {
    const key = randomUUID();
    const body = { name: 'Twin Co', contact_email: 'twin@scale.test', contact_name: 'Tw In' };
    const send = (member: Member) =>
      member.client().post('/platform/partners', body, { idempotencyKey: key });
    const first = await Promise.all(cluster.members.map(send));
    // One ran it; a twin that came while it ran heard "in progress", one that came after it, the answer.
    for (const res of first) {
      if (res.status === 409) expectProblem(res, 409, 'idempotency_key_in_progress', { retryable: true });
      else expect(res.status).toBe(201);
    }
    const answers = await Promise.all(
      cluster.members.map((member) => retryUntilDefinite(() => send(member))),
    );
    const ids = new Set(answers.map((a) => a.body.id));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(ids.size).toBe(1);
    const original = first.find((a) => a.status === 201 && a.headers.get('x-idempotent-replay') === null)!;
    expect(original.body.id).toBe([...ids][0]);
    for (const replay of await Promise.all(cluster.members.map(send))) {
      expect(replay.headers.get('x-idempotent-replay')).toBe('true');
      expect(replay.text).toBe(original.text);
    }
    expect(await eventTypesOf(`partner-${[...ids][0]}`)).toEqual(['PartnerCreated']);
    const { rows } = await db.query(
      `select 1 from event_store.events where type = 'PartnerCreated' and metadata->>'idempotency_key' = $1`,
      [key],
    );
    expect(rows).toHaveLength(1);
  }, 60_000);

  it('rate limits hold across processes: two processes together never let a partner past its limit', async () => {
    const partner = await clusterPartner(cluster, 'SANDBOX');
    const limit = RATE_LIMITS.SANDBOX;
    // Windows are whole minutes: start early in one, so that the run does not straddle two.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 200);
    const [a, b] = [partner.on(cluster.members[0]), partner.on(cluster.members[1])];
    let allowed = 0;
    let firstRefusal: number | null = null;
    for (let i = 0; i < limit + 20; i++) {
      const res = await (i % 2 === 0 ? a : b).get('/partner/me');
      if (res.status === 200) allowed += 1;
      else {
        expectProblem(res, 429, 'rate_limited', { retryable: true });
        firstRefusal ??= allowed;
      }
    }
    // Each process alone would have let 120 through: 240 in all.
    expect(allowed).toBeLessThanOrEqual(limit);
    // Refused early by at most the share the other process holds and has not spent.
    expect(firstRefusal).not.toBeNull();
    expect(firstRefusal!).toBeGreaterThanOrEqual(limit - reservationSize(limit));
    // A third process, which reserved nothing, has nothing left for this partner either.
    expectProblem(await partner.on(cluster.members[2]).get('/partner/me'), 429, 'rate_limited');
  }, 120_000);
});
