/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { hashOf } from '../../libs/platform/src/idempotency/idempotency-store';
import { useTestPlatform, type TestPartner } from '../support/api';
import { eventually } from '../support/eventually';
import { activeMerchant, vaultedCredential } from '../support/payments';

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

  const body = (amount = '12.00') => ({
    type: 'SALE',
    merchant_id: merchantId,
    amount,
    currency: 'USD',
    vault_token: token,
    use_type: 'ONE_TIME_FUTURE',
  });
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
});
