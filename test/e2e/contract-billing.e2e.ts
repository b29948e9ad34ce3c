/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { CommandBus } from '@nestjs/cqrs';
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { idFor } from '../../libs/platform/src/http/request-metadata';
import { fingerprintOf, IdempotencyStore } from '../../libs/platform/src/idempotency/idempotency-store';
import { ContractBilling, emptyTally } from '../../libs/recurring/src/application/contract-billing';
import { RunContractCommand } from '../../libs/recurring/src/application/contract-commands';
import { installmentKey } from '../../libs/recurring/src/domain';
import { ProjectionRunner } from '../../libs/projections/src';
import { useTestPlatform, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY = 86_400;

/**
 * Charging contracts on the real app and database, driven by the sandbox clock
 * (docs/recurring.md "Calendar", "Charging", "Retries", "Holds"): each installment is a
 * transaction made by the command path of POST /transactions, once, in order, and the contract's
 * counters follow its transactions.
 */
describe('charging recurring contracts', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;

  const operator = () => platform().operator;
  const now = async () => new Date((await operator().get('/platform/sandbox/clock')).body.now as string);
  const today = async () => (await now()).toISOString().slice(0, 10);
  /** Moves sandbox time; the advance answers once the scheduler has charged what fell due. */
  const advance = async (seconds: number) => {
    const res = await operator().post('/platform/sandbox/clock', { advance_seconds: seconds });
    expect(res.status).toBe(200);
  };
  const gateway = () => platform().service.app.get(PaymentGateway) as SandboxGateway;
  const read = async (id: string) => (await partner.client.get(`/contracts/${id}`)).body;
  const events = async (id: string) =>
    (await operator().get(`/platform/streams/contract-${id}/events?limit=1000`)).body.data as any[];
  const transactions = async (merchantId: string) =>
    (await partner.client.get(`/transactions?merchant_id=${merchantId}&page_size=100`)).body.data as any[];

  /** A merchant of its own (so its transactions are the contract's) with a saved card. */
  const shop = async (name = 'Shop') => {
    const merchantId = await activeMerchant(operator(), partner, name);
    const card = await vaultedCredential(platform(), partner, merchantId);
    return { merchantId, token: card.vaultToken, credentialId: card.id };
  };
  const contract = async (s: { merchantId: string; token: string }, extra: Record<string, unknown> = {}) => {
    const res = await partner.client.post('/contracts', {
      merchant_id: s.merchantId,
      payment_method_type: 'CARD',
      payment_method_token: s.token,
      amount: '10.00',
      frequency: 'DAILY',
      start_date: await today(),
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };

  beforeAll(async () => {
    partner = await platform().newPartner({ name: 'Subscriptions Inc' });
  });

  it('a monthly contract started 31 January charges 31 January, the last day of February, then 31 March', async () => {
    const current = await now();
    const year = current.getUTCFullYear() + 1;
    await advance(Math.ceil((Date.UTC(year, 0, 31, 9) - current.getTime()) / 1000));
    const s = await shop('Monthly Gym');
    const c = await contract(s, { frequency: 'MONTHLY', amount: '30.00', start_date: `${year}-01-31` });
    const february = new Date(Date.UTC(year, 2, 0)).toISOString().slice(0, 10); // 28 or 29
    await advance(60);
    expect(await read(c.id)).toMatchObject({ amount_paid: '30.00', next_charge_date: february });
    await advance(Math.round((Date.parse(`${february}T09:05:00Z`) - (await now()).getTime()) / 1000));
    expect(await read(c.id)).toMatchObject({ amount_paid: '60.00', next_charge_date: `${year}-03-31` });
    await advance(31 * DAY);
    const after = await read(c.id);
    expect(after).toMatchObject({ amount_paid: '90.00', next_charge_date: `${year}-04-30` });
    const due = (await events(c.id))
      .filter((e) => e.type === 'ContractInstallmentAttempted')
      .map((e) => e.data.dueDate);
    expect(due).toEqual([`${year}-01-31`, february, `${year}-03-31`]);
  });

  it('a clock jump over several periods charges each missed period once, in order; each is a transaction like any other', async () => {
    const s = await shop('Daily Paper');
    const c = await contract(s, { amount: '2.00' });
    const start = await today();
    await advance(4 * DAY);
    const attempts = (await events(c.id)).filter((e) => e.type === 'ContractInstallmentAttempted');
    expect(attempts.map((e) => e.data.installment)).toEqual([1, 2, 3, 4, 5]);
    const dueDates = attempts.map((e) => e.data.dueDate);
    expect(dueDates[0]).toBe(start);
    expect([...dueDates].sort()).toEqual(dueDates);
    expect(new Set(dueDates).size).toBe(5);
    // One after another: each attempt starts after the previous one's outcome.
    const types = (await events(c.id)).map((e) => e.type).filter((t) => t.startsWith('ContractInstallment'));
    expect(types).toEqual(
      Array(5).fill(['ContractInstallmentAttempted', 'ContractInstallmentCharged']).flat(),
    );

    const charged = await transactions(s.merchantId);
    expect(charged).toHaveLength(5);
    expect(charged.every((t) => t.type === 'SALE' && t.state === 'CAPTURED' && t.amount === 200)).toBe(true);
    const one = (await partner.client.get(`/transactions/${charged[0].id}`)).body;
    expect(one).toMatchObject({
      use_type: 'RECURRING',
      entry_mode: 'CREDENTIAL_ON_FILE',
      surcharge_amount: '0.00',
    });
    const found = await partner.client.get(`/transactions?q=${charged[2].id}`);
    expect(found.body.data.map((t: any) => t.id)).toEqual([charged[2].id]);
    // The counters agree with the transactions.
    expect(await read(c.id)).toMatchObject({
      amount_paid: '10.00',
      last_successful_charge_date: await today(),
    });
    const item = (await partner.client.get(`/contracts?merchant_id=${s.merchantId}`)).body.data[0];
    expect(item).toMatchObject({ periods_completed: 5, total_periods: null });
  });

  it('an installment’s key is answered by the transaction’s own last commit (the PostgreSQL store writes records in its appends)', async () => {
    const s = await shop('Ledger Weekly');
    const c = await contract(s, { amount: '3.00' });
    await advance(60);
    const [charged] = await transactions(s.merchantId);
    expect(charged).toMatchObject({ state: 'CAPTURED', amount: 300 });
    const key = installmentKey(c.id, 1, 0);
    const commandId = idFor(c.id, `charge:${key}`, () => c.id);
    const pool = platform().service.infra.pool;
    const {
      rows: [record],
    } = await pool.query(
      `select state, response_status, xmin::text as xid from platform.idempotency_records where command_id = $1`,
      [commandId],
    );
    expect(record).toMatchObject({ state: 'completed', response_status: 200 });
    // The record's last write is the transaction's last append: same database transaction.
    const {
      rows: [last],
    } = await pool.query(
      `select type, (transaction_id::text::bigint % 4294967296)::text as xid from event_store.events
        where stream_name = $1 order by revision desc limit 1`,
      [`transaction-${charged.id}`],
    );
    expect(last.type).toBe('TransactionApproved');
    expect(record.xid).toBe(last.xid);
  });

  it('a key that has a record already (an attempt given back, a run that died): the attempt is written alone, the key taken over, the installment charged once', async () => {
    const s = await shop('Almanac');
    const c = await contract(s, { amount: '4.00' });
    const key = installmentKey(c.id, 1, 0);
    const commandId = idFor(c.id, `charge:${key}`, () => c.id);
    // As a run that took the key and gave it back leaves it: in progress, its lease over.
    const store = platform().service.app.get(IdempotencyStore);
    const fingerprint = fingerprintOf('POST', `/contracts/${c.id}/installments/1`, {
      attempt: 0,
      amount: '400',
      token: s.token,
    });
    const begun = await store.begin(`partner:${partner.id}`, key, fingerprint, { commandId });
    expect(begun.kind).toBe('execute');
    if (begun.kind === 'execute') await store.abandon(`partner:${partner.id}`, key, begun.lease);

    await advance(60);
    const attempts = (await events(c.id)).filter((e) => e.type === 'ContractInstallmentAttempted');
    expect(attempts).toHaveLength(1);
    const charged = await transactions(s.merchantId);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ state: 'CAPTURED', amount: 400 });
    expect(await read(c.id)).toMatchObject({ amount_paid: '4.00' });
    const {
      rows: [record],
    } = await platform().service.infra.pool.query(
      'select state, command_id from platform.idempotency_records where command_id = $1',
      [commandId],
    );
    expect(record).toEqual({ state: 'completed', command_id: commandId });
  });

  it('end_date and number_of_payments end a contract: COMPLETED, nothing charged after', async () => {
    const s = await shop('Finite Plans');
    const byDate = await contract(s, {
      amount: '3.00',
      end_date: new Date(Date.parse(`${await today()}T00:00:00Z`) + 2 * DAY * 1000)
        .toISOString()
        .slice(0, 10),
    });
    const byCount = await contract(s, { amount: '4.00', frequency: 'WEEKLY', number_of_payments: 2 });
    await advance(20 * DAY);
    expect(await read(byDate.id)).toMatchObject({
      state: 'COMPLETED',
      amount_paid: '9.00',
      remaining_installments: 0,
      next_charge_date: null,
    });
    expect(await read(byCount.id)).toMatchObject({
      state: 'COMPLETED',
      amount_paid: '8.00',
      total_amount: '8.00',
    });
    const amounts = (await transactions(s.merchantId)).map((t) => t.amount).sort();
    expect(amounts).toEqual([300, 300, 300, 400, 400]);
    await advance(10 * DAY);
    expect(await transactions(s.merchantId)).toHaveLength(5);
  });

  it('interval multiplies the period', async () => {
    const s = await shop('Every Third Day');
    const c = await contract(s, { amount: '1.00', interval: 3 });
    await advance(7 * DAY);
    expect((await read(c.id)).amount_paid).toBe('3.00'); // days 0, 3 and 6
  });

  it('soft declines are retried after 1 then 3 days; exhausted retries make the contract FAILED, each step an event', async () => {
    const s = await shop('Thin Wallet');
    const c = await contract(s, { amount: '10.05', frequency: 'MONTHLY', max_retries: 2 }); // .05: insufficient_funds
    const start = await today();
    await advance(60);
    expect(await read(c.id)).toMatchObject({ state: 'ACTIVE', retry_count: 1, amount_paid: '0.00' });
    expect((await read(c.id)).next_charge_date).toBe(
      new Date(Date.parse(`${start}T00:00:00Z`) + DAY * 1000).toISOString().slice(0, 10),
    );
    await advance(DAY);
    expect(await read(c.id)).toMatchObject({ state: 'ACTIVE', retry_count: 2 });
    await advance(3 * DAY);
    const failed = await read(c.id);
    expect(failed).toMatchObject({
      state: 'FAILED',
      state_reason: { by: 'system', code: 'retries_exhausted' },
    });
    expect((await events(c.id)).map((e) => e.type)).toEqual([
      'ContractCreated',
      'ContractInstallmentAttempted',
      'ContractInstallmentFailed',
      'ContractRetryScheduled',
      'ContractInstallmentAttempted',
      'ContractInstallmentFailed',
      'ContractRetryScheduled',
      'ContractInstallmentAttempted',
      'ContractInstallmentFailed',
      'ContractFailed',
    ]);
    const declined = await transactions(s.merchantId);
    expect(declined).toHaveLength(3);
    expect(declined.every((t) => t.state === 'FAILED' && t.decline_code === 'insufficient_funds')).toBe(true);
    // Each try ran under its own reserved key.
    const keys = (await events(c.id))
      .filter((e) => e.type === 'ContractInstallmentAttempted')
      .map((e) => e.data.idempotencyKey);
    expect(keys).toEqual([
      `recurring:${c.id}:1`,
      `recurring:${c.id}:1:retry-1`,
      `recurring:${c.id}:1:retry-2`,
    ]);
  });

  it('each step of the dunning is delivered as a contract.* webhook whose object is the contract at that step', async () => {
    const hooks = await WebhookReceiver.start();
    try {
      const endpoint = await partner.client.post('/webhook-endpoints', {
        url: hooks.url(),
        enabled_events: [
          'contract.created',
          'contract.installment_charged',
          'contract.installment_failed',
          'contract.retry_scheduled',
          'contract.failed',
        ],
      });
      expect(endpoint.status).toBe(201);
      const s = await shop('Webhook Wallet');
      const c = await contract(s, { amount: '10.05', frequency: 'MONTHLY', max_retries: 1 });
      await advance(60);
      await advance(DAY);
      expect(await read(c.id)).toMatchObject({ state: 'FAILED' });
      const ofContract = (received: { envelope: any }[]) =>
        received.filter((r) => r.envelope.data?.object?.id === c.id);
      const received = ofContract(await hooks.waitFor((all) => ofContract(all).length >= 5));
      // Deliveries are not ordered: the object's version orders them.
      const steps = received
        .map((r) => r.envelope)
        .sort((a, b) => a.data.object.version - b.data.object.version)
        .map((e) => [e.type, e.data.object.state, e.data.object.retry_count, e.merchant_id]);
      expect(steps).toEqual([
        ['contract.created', 'ACTIVE', 0, s.merchantId],
        ['contract.installment_failed', 'ACTIVE', 0, s.merchantId],
        ['contract.retry_scheduled', 'ACTIVE', 1, s.merchantId],
        ['contract.installment_failed', 'ACTIVE', 1, s.merchantId],
        ['contract.failed', 'FAILED', 1, s.merchantId],
      ]);
      const scheduled = received.find((r) => r.envelope.type === 'contract.retry_scheduled')!.envelope;
      expect(scheduled.data.object.next_charge_date).not.toBeNull();
    } finally {
      await hooks.close();
    }
  });

  it.each([
    ['card_declined', '10.51'],
    ['expired_card', '10.54'],
  ])('a hard decline (%s) makes the contract FAILED at once', async (code, amount) => {
    const s = await shop(`Hard ${code}`);
    const c = await contract(s, { amount, frequency: 'MONTHLY' });
    await advance(60);
    expect(await read(c.id)).toMatchObject({ state: 'FAILED', state_reason: { code } });
    expect(await transactions(s.merchantId)).toHaveLength(1);
  });

  describe('ACH', () => {
    let bankShop: { merchantId: string; token: string };
    beforeAll(async () => {
      expect(
        (await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status,
      ).toBe(200);
      const merchantId = await activeMerchant(operator(), partner, 'Utility Co');
      const bank = await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING });
      bankShop = { merchantId, token: bank.vaultToken };
    });
    const achContract = () =>
      contract(bankShop, { payment_method_type: 'ACH', amount: '12.00', frequency: 'MONTHLY' });
    const returned = (transactionId: string, code: string) =>
      operator().post(`/platform/sandbox/transactions/${transactionId}/ach-return`, { return_code: code });

    it('an R01 return makes the installment unpaid again and retries it; the retry is a new debit', async () => {
      const c = await achContract();
      await advance(60);
      const first = (await events(c.id)).find((e) => e.type === 'ContractInstallmentCharged').data
        .transactionId;
      expect((await partner.client.get(`/transactions/${first}`)).body.state).toBe('SUBMITTED');
      expect(await read(c.id)).toMatchObject({ amount_paid: '12.00' });
      expect((await returned(first, 'R01')).body.state).toBe('RETURNED');
      await advance(60);
      expect(await read(c.id)).toMatchObject({ state: 'ACTIVE', amount_paid: '0.00', retry_count: 1 });
      await advance(DAY);
      const after = await read(c.id);
      expect(after).toMatchObject({ state: 'ACTIVE', amount_paid: '12.00', retry_count: 0 });
      const types = (await events(c.id)).map((e) => e.type);
      expect(types).toEqual([
        'ContractCreated',
        'ContractInstallmentAttempted',
        'ContractInstallmentCharged',
        'ContractInstallmentReturned',
        'ContractRetryScheduled',
        'ContractInstallmentAttempted',
        'ContractInstallmentCharged',
      ]);
      const debits = (await events(c.id)).filter((e) => e.type === 'ContractInstallmentCharged');
      expect(debits.map((e) => e.data.installment)).toEqual([1, 1]);
      expect(debits[1].data.transactionId).not.toBe(first);
    });

    it('a hard return code (R02, account closed) makes the contract FAILED', async () => {
      const c = await achContract();
      await advance(60);
      const first = (await events(c.id)).find((e) => e.type === 'ContractInstallmentCharged').data
        .transactionId;
      await returned(first, 'R02');
      await advance(60);
      expect(await read(c.id)).toMatchObject({
        state: 'FAILED',
        state_reason: { code: 'R02' },
        amount_paid: '0.00',
      });
    });
  });

  describe('holds: the merchant suspended or closed, a flag off', () => {
    it('a SUSPENDED merchant pauses charging with its reason; reactivated, charging resumes', async () => {
      const s = await shop('Suspended Store');
      const c = await contract(s);
      await advance(60);
      expect((await read(c.id)).amount_paid).toBe('10.00');
      await operator().post(`/platform/merchants/${s.merchantId}/transitions`, {
        action: 'suspend',
        reason: 'review',
      });
      await advance(DAY);
      expect(await read(c.id)).toMatchObject({
        state: 'PAUSED',
        state_reason: {
          by: 'system',
          code: 'merchant_suspended',
          reason: expect.stringContaining('SUSPENDED'),
        },
      });
      expect(await transactions(s.merchantId)).toHaveLength(1);
      await operator().post(`/platform/merchants/${s.merchantId}/transitions`, { action: 'reactivate' });
      await advance(DAY);
      expect(await read(c.id)).toMatchObject({ state: 'ACTIVE', state_reason: null });
      // The day missed while held is skipped; today's period is charged.
      expect(await transactions(s.merchantId)).toHaveLength(2);
    });

    it('a CLOSED merchant pauses charging with its reason', async () => {
      const s = await shop('Closed Store');
      const c = await contract(s, { frequency: 'WEEKLY' });
      await operator().post(`/platform/merchants/${s.merchantId}/transitions`, {
        action: 'close',
        reason: 'gone',
      });
      await advance(60);
      expect(await read(c.id)).toMatchObject({ state: 'PAUSED', state_reason: { code: 'merchant_closed' } });
      expect(await transactions(s.merchantId)).toHaveLength(0);
    });

    it('recurring_billing off holds the contracts; on again, they are released and charged', async () => {
      const other = await platform().newPartner({ name: 'Flag Flipper' });
      const merchantId = await activeMerchant(operator(), other, 'Flag Shop');
      const card = await vaultedCredential(platform(), other, merchantId);
      const created = await other.client.post('/contracts', {
        merchant_id: merchantId,
        payment_method_type: 'CARD',
        payment_method_token: card.vaultToken,
        amount: '5.00',
        frequency: 'MONTHLY',
        start_date: await today(),
      });
      expect(
        (await other.client.put('/config/feature-flags/me/recurring_billing', { enabled: false })).status,
      ).toBe(200);
      await advance(60);
      const paused = (await events(created.body.id)).find((e) => e.type === 'ContractPaused');
      expect(paused.data).toMatchObject({ by: 'system', reasonCode: 'feature_not_enabled' });
      expect(paused.data.reason).toContain('recurring_billing');
      expect(
        (await other.client.put('/config/feature-flags/me/recurring_billing', { enabled: true })).status,
      ).toBe(200);
      await advance(60);
      expect((await other.client.get(`/contracts/${created.body.id}`)).body).toMatchObject({
        state: 'ACTIVE',
        amount_paid: '5.00',
      });
    });
  });

  describe('charges in flight, crashes and a second scheduler', () => {
    afterEach(() => gateway().setUnknownOutcomeMode(false));

    it('an unknown gateway answer leaves the installment in flight; the next pass resolves it without charging again', async () => {
      const s = await shop('Flaky Line');
      const c = await contract(s, { frequency: 'MONTHLY' });
      const before = gateway().effects().captures;
      gateway().setUnknownOutcomeMode(true);
      await advance(60);
      expect((await events(c.id)).map((e) => e.type).pop()).toBe('ContractInstallmentAttempted');
      const listed = (await partner.client.get(`/contracts?merchant_id=${s.merchantId}`)).body.data[0];
      expect(listed.periods_completed).toBe(0);
      gateway().setUnknownOutcomeMode(false);
      await advance(60);
      expect(await read(c.id)).toMatchObject({ amount_paid: '10.00', remaining_installments: null });
      expect(gateway().effects().captures - before).toBe(1);
      const txs = await transactions(s.merchantId);
      expect(txs.map((t) => t.state)).toEqual(['CAPTURED']);
    });

    it('paused while its charge is in flight: the charge stands, the counters agree with the transactions, nothing more is charged', async () => {
      const s = await shop('Paused Mid-flight');
      const c = await contract(s);
      gateway().setUnknownOutcomeMode(true);
      await advance(60);
      expect(
        (await partner.client.post(`/contracts/${c.id}/pause`, { reason: 'on holiday' })).body.state,
      ).toBe('PAUSED');
      gateway().setUnknownOutcomeMode(false);
      await advance(3 * DAY);
      const after = await read(c.id);
      expect(after).toMatchObject({ state: 'PAUSED', amount_paid: '10.00' });
      const txs = await transactions(s.merchantId);
      expect(txs.map((t) => [t.state, t.amount])).toEqual([['CAPTURED', 1000]]);
    });

    it('cancelled after its attempt began but before its transaction: the charge never happens', async () => {
      const s = await shop('Cancelled Mid-flight');
      const c = await contract(s, { frequency: 'MONTHLY' });
      // The attempt recorded, then the process died before the transaction was written.
      const key = installmentKey(c.id, 1, 0);
      const commandId = idFor(c.id, `charge:${key}`, () => c.id);
      await platform()
        .service.app.get(CommandBus)
        .execute(
          new RunContractCommand(
            {
              type: 'StartInstallmentAttempt',
              contractId: c.id,
              installment: 1,
              attempt: 0,
              transactionId: idFor(commandId, 'transaction', () => commandId),
              idempotencyKey: key,
            },
            testMetadata({ partner_id: partner.id, causation_id: commandId }),
          ),
        );
      expect((await partner.client.post(`/contracts/${c.id}/cancel`)).body.state).toBe('CANCELLED');
      const before = gateway().effects().captures;
      await advance(60);
      expect((await events(c.id)).map((e) => e.type).slice(-2)).toEqual([
        'ContractCancelled',
        'ContractInstallmentAttemptWithdrawn',
      ]);
      expect(await read(c.id)).toMatchObject({ state: 'CANCELLED', amount_paid: '0.00' });
      expect(await transactions(s.merchantId)).toHaveLength(0);
      expect(gateway().effects().captures).toBe(before);
    });

    it('two schedulers bringing one contract up to date at once charge each installment exactly once', async () => {
      const s = await shop('Raced Contract');
      const c = await contract(s, { amount: '1.00' });
      const billing = platform().service.app.get(ContractBilling);
      const before = gateway().effects().captures;
      // Five daily periods fall due, recorded without running the scheduler (as a process that
      // has not looked yet would see them); then three schedulers work the contract at once,
      // straight through the billing: no claim keeps them apart, only the keys and the stream.
      await platform().service.infra.sandboxClock!.advance(4 * DAY, testMetadata());
      const facts = billing.facts();
      await Promise.all([1, 2, 3].map(() => billing.settle(c.id, facts, emptyTally())));
      // One that met a key another held stops there; the next pass (or this one) finishes.
      for (let i = 0; i < 20 && (await read(c.id)).amount_paid !== '5.00'; i++) {
        await billing.settle(c.id, billing.facts(), emptyTally());
        await new Promise((r) => setTimeout(r, 100));
      }
      const charged = (await events(c.id)).filter((e) => e.type === 'ContractInstallmentCharged');
      expect(charged.map((e) => e.data.installment)).toEqual([1, 2, 3, 4, 5]);
      // Called outside a scheduler pass, nothing waited for the list: wait for it here.
      await platform()
        .service.app.get(ProjectionRunner)
        .waitFor(billing.lastWrittenPosition, ['transaction-list'], 30_000);
      expect(await transactions(s.merchantId)).toHaveLength(5);
      expect(gateway().effects().captures - before).toBe(5);
    });
  });
});
