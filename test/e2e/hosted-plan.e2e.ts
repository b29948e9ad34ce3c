/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { useTestPlatform, type TestPartner } from '../support/api';
import { activeMerchant, payHostedPageByCard } from '../support/payments';

/**
 * A hosted page with a `recurring_plan` (docs/recurring.md "From a hosted page"): the payer's
 * first submit opens the plan's contract, the approved payment vaults the card with the plan's
 * scope and `enrollment_terms` and activates the contract as installment 1, the session read and
 * `hpp_session.completed` name it, and the scheduler charges the rest on the plan's schedule.
 */
describe('a hosted page with a recurring plan', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;

  const pay = payHostedPageByCard;
  const session = async (body: Record<string, unknown>) => {
    const res = await partner.client.post('/hpp/sessions', { merchant_id: merchantId, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const today = async () =>
    ((await platform().operator.get('/platform/sandbox/clock')).body.now as string).slice(0, 10);
  const advanceDays = (days: number) =>
    platform().operator.post('/platform/sandbox/clock', { advance_seconds: days * 86_400 });

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner, 'Gym Club');
  });

  it('charges the first period, vaults the card with RECURRING scope and enrollment_terms, creates the contract and names it', async () => {
    const s = await session({
      amount: '25.00',
      recurring_plan: { recurring_amount: '25.00', frequency: 'monthly', number_of_payments: 3 },
      credential_usages: ['RECURRING'],
    });
    const paidOn = await today();
    expect((await pay(s.hpp_url)).status).toBe(303);

    const read = (await partner.client.get(`/hpp/sessions/${s.id}`)).body;
    expect(read).toMatchObject({
      state: 'COMPLETED',
      tokenization_outcome: 'stored',
      contract_id: expect.any(String),
    });

    // The vault entry: RECURRING scope, the plan's terms in the payer's words.
    const credentials = (await partner.client.get(`/merchants/${merchantId}/stored-credentials`)).body
      .data as any[];
    expect(credentials.find((c) => c.vault_token === read.vault_token)).toMatchObject({
      scope: ['RECURRING'],
      enrollment_terms: { amount: '25.00 USD', frequency: 'every month', duration: '3 payments' },
      consent_captured: true,
    });

    // The contract: the page's payment is installment 1; the plan's number, interval and frequency.
    const contract = (await partner.client.get(`/contracts/${read.contract_id}`)).body;
    const [year, month, day] = paidOn.split('-').map(Number);
    expect(contract).toMatchObject({
      state: 'ACTIVE',
      hpp_session_id: s.id,
      payment_method_type: 'CARD',
      payment_method_token: read.vault_token,
      use_type: 'RECURRING',
      amount: '25.00',
      frequency: 'MONTHLY',
      interval: 1,
      number_of_payments: 3,
      start_date: paidOn,
      amount_paid: '25.00',
      remaining_installments: 2,
      total_amount: '75.00',
      last_successful_charge_date: paidOn,
    });
    const expectedNext = new Date(
      Date.UTC(year, month, Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate())),
    )
      .toISOString()
      .slice(0, 10);
    expect(contract.next_charge_date).toBe(expectedNext);

    // hpp_session.completed: its data.object is the read form after the event, and the contract
    // was named on the stream before it.
    const events = (await platform().operator.get(`/platform/streams/hpp_session-${s.id}/events`)).body
      .data as any[];
    const types = events.map((e) => e.type);
    expect(types.indexOf('HppSessionContractLinked')).toBeGreaterThan(-1);
    expect(types.indexOf('HppSessionContractLinked')).toBeLessThan(types.indexOf('HppSessionCompleted'));
    expect(events.find((e) => e.type === 'HppSessionContractLinked').data.contractId).toBe(read.contract_id);

    // A month on, the scheduler charges installment 2 with the stored card, merchant-initiated.
    await advanceDays(32);
    const after = (await partner.client.get(`/contracts/${read.contract_id}`)).body;
    expect(after).toMatchObject({ amount_paid: '50.00', remaining_installments: 1, state: 'ACTIVE' });
    const charges = (await partner.client.get(`/transactions?merchant_id=${merchantId}`)).body.data as any[];
    const second = charges.find((t) => t.id !== read.transaction_id && t.amount === 2500);
    const full = (await partner.client.get(`/transactions/${second.id}`)).body;
    expect(full).toMatchObject({
      type: 'SALE',
      state: 'CAPTURED',
      use_type: 'RECURRING',
      entry_mode: 'CREDENTIAL_ON_FILE',
    });
  });

  it('initial_charge_amount is the first payment; the later periods charge recurring_amount', async () => {
    expect(
      (await partner.client.put('/config/feature-flags/me/installments', { enabled: true })).status,
    ).toBe(200);
    const s = await session({
      amount: '5.00',
      recurring_plan: {
        recurring_amount: '20.00',
        frequency: 'weekly',
        interval: 2,
        number_of_payments: 4,
        initial_charge_amount: '5.00',
      },
      credential_usages: ['RECURRING', 'INSTALLMENT'],
    });
    expect((await pay(s.hpp_url)).status).toBe(303);
    const read = (await partner.client.get(`/hpp/sessions/${s.id}`)).body;
    const contract = (await partner.client.get(`/contracts/${read.contract_id}`)).body;
    expect(contract).toMatchObject({
      state: 'ACTIVE',
      frequency: 'WEEKLY',
      interval: 2,
      // A plan with a fixed number of payments on a card saved for installments.
      use_type: 'INSTALLMENT',
      amount: '20.00',
      amount_paid: '5.00',
      remaining_installments: 3,
      total_amount: '65.00',
    });
  });

  it('a declined first payment leaves the plan waiting (PENDING_ACTIVATION); unpaid at the session’s expiry, it is cancelled', async () => {
    const s = await session({
      amount: '30.05', // the sandbox declines .05: insufficient_funds
      recurring_plan: { recurring_amount: '30.05', frequency: 'daily' },
      credential_usages: ['RECURRING'],
    });
    expect((await pay(s.hpp_url)).status).toBe(402);
    const read = (await partner.client.get(`/hpp/sessions/${s.id}`)).body;
    expect(read.state).toBe('PENDING');
    const waiting = (await partner.client.get(`/contracts/${read.contract_id}`)).body;
    expect(waiting).toMatchObject({
      state: 'PENDING_ACTIVATION',
      hpp_session_id: s.id,
      payment_method_token: null,
      amount_paid: '0.00',
      next_charge_date: null,
    });
    const listed = (await partner.client.get('/contracts?state=PENDING_ACTIVATION')).body.data as any[];
    expect(listed.map((c) => c.id)).toContain(read.contract_id);

    await advanceDays(1); // past expires_at (30 minutes)
    const cancelled = (await partner.client.get(`/contracts/${read.contract_id}`)).body;
    expect(cancelled).toMatchObject({
      state: 'CANCELLED',
      state_reason: { by: 'system', code: 'activation_expired' },
      amount_paid: '0.00',
    });
  });
});
