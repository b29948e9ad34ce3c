/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { EventStore, PostgresEventStore } from '../../libs/event-store/src';
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { hashOf } from '../../libs/platform/src/idempotency/idempotency-store';
import { useTestPlatform, type TestPartner } from '../support/api';
import { eventually } from '../support/eventually';
import { activeMerchant, saleBody, vaultedCredential } from '../support/payments';
import { expectProblem } from '../support/problems';
import { retryUntilDefinite } from '../support/retry';

/**
 * The write path of `POST /transactions` (docs/adr/0008-write-path.md): a SALE commits twice,
 * its idempotency record with `TransactionInitiated` (before the gateway is called) and its
 * stored answer with the gateway's; the answer is the decided state, which the transaction's own
 * read serves at once, under load too, while the list catches up a moment later.
 */
describe('POST /transactions: two commits, and the answer readable at once', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let token: string;

  const body = (amount = '12.00') => saleBody(merchantId, token, amount);
  const gateway = () => platform().service.app.get(PaymentGateway) as SandboxGateway;
  const pool = () => platform().service.infra.pool;

  /** The record's last writing transaction (xmin) and state, found as the store finds it. */
  async function record(key: string) {
    const scope = `partner:${partner.id}`;
    const { rows } = await pool().query<{ xmin: string; state: string }>(
      'select xmin::text, state from platform.idempotency_records where scope = $1 and key_hash = $2',
      [scope, hashOf(scope, key)],
    );
    return rows[0];
  }

  /** The transaction (as a 32-bit xid, like xmin) that appended each of the stream's events. */
  async function appendedBy(transactionId: string): Promise<Record<string, string>> {
    const { rows } = await pool().query<{ type: string; xid: string }>(
      `select type, (transaction_id::text::bigint % 4294967296)::text as xid
         from event_store.events where stream_name = $1 order by revision`,
      [`transaction-${transactionId}`],
    );
    return Object.fromEntries(rows.map((r) => [r.type, r.xid]));
  }

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner);
    token = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
  });

  it('writes the record with TransactionInitiated, durable before the gateway is called, and the answer with the approval', async () => {
    const key = randomUUID();
    const original = gateway().authorizeAndCapture.bind(gateway());
    let atTheGateway: { state: string; xmin: string } | undefined;
    let reference = '';
    const spy = jest.spyOn(gateway(), 'authorizeAndCapture').mockImplementation(async (request) => {
      reference = request.reference;
      atTheGateway = await record(key);
      return original(request);
    });
    let res;
    try {
      res = await partner.client.post('/transactions', body(), { idempotencyKey: key });
    } finally {
      spy.mockRestore();
    }
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('CAPTURED');
    const xids = await appendedBy(res.body.id);
    expect(reference).toBe(res.body.id);
    // At the gateway the record was there, in progress, committed by the append of the transaction.
    expect(atTheGateway).toEqual({ state: 'in_progress', xmin: xids.TransactionInitiated });
    // The answer was stored by the transaction that recorded the gateway's answer.
    expect(await record(key)).toEqual({ state: 'completed', xmin: xids.TransactionApproved });
    expect(xids.TransactionApproved).not.toBe(xids.TransactionInitiated);

    const again = await partner.client.post('/transactions', body(), { idempotencyKey: key });
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.text).toBe(res.text);
  });

  it('stores a decline with the decline, and replays it', async () => {
    const key = randomUUID();
    // The sandbox declines amounts ending in .05 (docs/gateway.md).
    const res = await partner.client.post('/transactions', body('20.05'), { idempotencyKey: key });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('FAILED');
    expect(await record(key)).toEqual({
      state: 'completed',
      xmin: (await appendedBy(res.body.id)).TransactionDeclined,
    });
    const again = await partner.client.post('/transactions', body('20.05'), { idempotencyKey: key });
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.text).toBe(res.text);
  });

  it('refused before anything was written, the answer is stored on its own and replayed', async () => {
    const key = randomUUID();
    const unknownMerchant = { ...body(), merchant_id: randomUUID() };
    const refused = await partner.client.post('/transactions', unknownMerchant, { idempotencyKey: key });
    expect(refused.status).toBe(404);
    expect((await record(key)).state).toBe('completed');
    const again = await partner.client.post('/transactions', unknownMerchant, { idempotencyKey: key });
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.text).toBe(refused.text);
  });

  it('under concurrency, GET /transactions/{id} right after each answer reads the same transaction; the list catches up', async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const sale = await partner.client.post('/transactions', body(`${30 + i}.00`));
        expect(sale.status).toBe(200);
        const read = await partner.client.get(`/transactions/${sale.body.id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(sale.body);
        return sale.body.id as string;
      }),
    );
    // The list is eventually consistent: every one of them shows up, with nothing else written.
    const page = await eventually(
      () => partner.client.get('/transactions?page_size=100'),
      (res) => answers.every((id) => res.body.data.some((item: any) => item.id === id)),
    );
    expect(answers.filter((id) => !page.body.data.some((item: any) => item.id === id))).toEqual([]);
  });
  it('a group commit that fails fails every request in it cleanly: 503, nothing written, the same key then runs once', async () => {
    const store = platform().service.app.get(EventStore) as PostgresEventStore;
    const merchantBody = (n: number) => ({
      business_name: `Batch Bistro ${n}`,
      contact_email: 'owner@bistro.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
    });
    const requests = [
      { path: '/merchants', body: merchantBody(0), key: randomUUID() },
      { path: '/merchants', body: merchantBody(1), key: randomUUID() },
      { path: '/transactions', body: body('41.00'), key: randomUUID() },
      { path: '/merchants', body: merchantBody(2), key: randomUUID() },
      { path: '/transactions', body: body('42.00'), key: randomUUID() },
    ];
    const send = (r: (typeof requests)[number]) =>
      partner.client.post(r.path, r.body, { idempotencyKey: r.key });
    /** The backend of a batch waiting for the table, once there is one other than `not`. */
    const waitingBatch = async (not?: number): Promise<number> => {
      for (;;) {
        const { rows } = await pool().query<{ pid: number }>(
          `select pid from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%append_batch%' and pid <> $1`,
          [not ?? 0],
        );
        if (rows.length > 0) return rows[0].pid;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const gatewayCalls = jest.spyOn(gateway(), 'authorizeAndCapture');
    // Every append inserts into the events table: with it locked, each batch waits at its insert,
    // its record and positions taken, until its connection is killed.
    const holder = await pool().connect();
    let answers;
    try {
      await holder.query('begin');
      await holder.query('lock table event_store.events in share mode');
      const first = send(requests[0]);
      const firstBatch = await waitingBatch();
      // The others arrive while the first batch is in flight: they wait to go together, next.
      const rest = requests.slice(1).map(send);
      await eventually(
        async () => store.appendsWaiting,
        (waiting) => waiting >= requests.length - 1,
      );
      expect(store.appendsWaiting).toBeGreaterThanOrEqual(requests.length - 1);
      await pool().query('select pg_terminate_backend($1)', [firstBatch]);
      const secondBatch = await waitingBatch(firstBatch);
      await pool().query('select pg_terminate_backend($1)', [secondBatch]);
      answers = await Promise.all([first, ...rest]);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    for (const answer of answers) expectProblem(answer, 503, 'service_unavailable', { retryable: true });
    expect(gatewayCalls).not.toHaveBeenCalled();
    gatewayCalls.mockRestore();
    // Nothing of them was written: no record, no event.
    for (const r of requests) expect(await record(r.key)).toBeUndefined();
    const { rows: written } = await pool().query(
      `select 1 from event_store.events where metadata->>'idempotency_key' = any($1::text[])`,
      [requests.map((r) => r.key)],
    );
    expect(written).toEqual([]);

    // The same keys run once each, as new, and replay after.
    const retried = await Promise.all(requests.map((r) => retryUntilDefinite(() => send(r))));
    expect(retried.map((res) => res.status)).toEqual([201, 201, 200, 201, 200]);
    for (const [i, r] of requests.entries()) {
      const again = await send(r);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.text).toBe(retried[i].text);
    }
    const { rows: perKey } = await pool().query<{ n: number }>(
      `select count(*)::int as n from event_store.events
        where type in ('MerchantCreated', 'TransactionInitiated') and metadata->>'idempotency_key' = any($1::text[])
        group by metadata->>'idempotency_key'`,
      [requests.map((r) => r.key)],
    );
    expect(perKey.map((row) => row.n)).toEqual(requests.map(() => 1));
  });
});
