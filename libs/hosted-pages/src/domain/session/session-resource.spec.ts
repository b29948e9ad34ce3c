import { evolve, type HppSession } from './session';
import { decide } from './session-decide';
import type { HppSessionEvent } from './session-events';
import { parseSessionRequest } from './session-request';
import { toSessionCreateResource, toSessionResource } from './session-resource';

const ID = '5d8e2a10-3c4b-4f6a-9b7c-1d2e3f405162';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-01T10:05:00.000Z');
const urls = {
  hppUrl: `https://pay.example.com/hpp/${ID}`,
  iframeUrl: `https://pay.example.com/hpp/${ID}?embed=1`,
};
const CREATE_FIELDS = [
  'id',
  'merchant_id',
  'payment_method',
  'state',
  'hpp_url',
  'iframe_url',
  'rendering_mode',
  'capture_mode',
  'amount_mode',
  'page_purpose',
  'recurring_plan',
  'customer_id',
  'amount',
  'surcharge_amount',
  'convenience_fee_amount',
  'total_amount',
  'currency',
  'expires_at',
  'created_at',
];
const READ_FIELDS = [
  ...CREATE_FIELDS,
  'tokenization_outcome',
  'vault_token',
  'transaction_id',
  'contract_id',
  'completed_at',
  'last_attempt',
  'card',
  'bank',
  'token_capture_failure',
  'level3_data',
];

const session = (body: Record<string, unknown>): HppSession => {
  const request = parseSessionRequest({ merchant_id: MERCHANT, ...body });
  const price =
    request.amountMinor === null
      ? null
      : {
          baseMinor: request.amountMinor,
          surchargeMinor: 31n,
          convenienceFeeMinor: 0n,
          totalMinor: request.amountMinor + 31n,
        };
  return decide(
    { type: 'CreateHppSession', sessionId: ID, partnerId: 'p', at: T0, request, price },
    null,
  ).reduce(evolve, null)!;
};
const then = (s: HppSession, events: HppSessionEvent[]) => events.reduce(evolve, s)!;

describe('toSessionResource', () => {
  it('has exactly the spec create and read fields', () => {
    const s = session({ amount: '10.50' });
    expect(Object.keys(toSessionCreateResource(s, urls)).sort()).toEqual([...CREATE_FIELDS].sort());
    expect(Object.keys(toSessionResource(s, urls)).sort()).toEqual([...READ_FIELDS].sort());
  });

  it('shows a pending fixed payment with decimal-string amounts', () =>
    expect(
      toSessionResource(
        session({ amount: '10.5', customer_id: '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11' }),
        urls,
      ),
    ).toEqual({
      id: ID,
      merchant_id: MERCHANT,
      payment_method: 'card',
      state: 'PENDING',
      hpp_url: urls.hppUrl,
      iframe_url: urls.iframeUrl,
      rendering_mode: 'redirect',
      capture_mode: 'sale',
      amount_mode: 'fixed',
      page_purpose: 'payment',
      recurring_plan: null,
      customer_id: '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11',
      amount: '10.50',
      surcharge_amount: '0.31',
      convenience_fee_amount: '0.00',
      total_amount: '10.81',
      currency: 'USD',
      expires_at: '2026-11-01T10:30:00.000Z',
      created_at: T0.toISOString(),
      tokenization_outcome: 'not_requested',
      vault_token: null,
      transaction_id: null,
      contract_id: null,
      completed_at: null,
      last_attempt: null,
      card: null,
      bank: null,
      token_capture_failure: null,
      level3_data: null,
    }));

  it('shows the recurring plan in wire form', () =>
    expect(
      toSessionResource(
        session({
          amount: '1.00',
          credential_usages: ['RECURRING'],
          recurring_plan: {
            recurring_amount: '9.9',
            frequency: 'annually',
            number_of_payments: 3,
            initial_charge_amount: '1.00',
          },
        }),
        urls,
      ).recurring_plan,
    ).toEqual({
      recurring_amount: '9.90',
      frequency: 'annually',
      interval: 1,
      number_of_payments: 3,
      initial_charge_amount: '1.00',
    }));

  it('names the contract of its plan once the payer opened it', () => {
    const s = session({
      amount: '9.90',
      credential_usages: ['RECURRING'],
      recurring_plan: { recurring_amount: '9.9', frequency: 'monthly' },
    });
    const contractId = '3f0c7b1e-2a4d-4c5e-8f60-718293a4b5c6';
    const linked = then(s, decide({ type: 'LinkHppSessionContract', sessionId: ID, at: T1, contractId }, s));
    expect(toSessionResource(s, urls).contract_id).toBeNull();
    expect(toSessionResource(linked, urls).contract_id).toBe(contractId);
    // The same contract again changes nothing; a session without a plan has none.
    expect(decide({ type: 'LinkHppSessionContract', sessionId: ID, at: T1, contractId }, linked)).toEqual([]);
    expect(() =>
      decide(
        { type: 'LinkHppSessionContract', sessionId: ID, at: T1, contractId },
        session({ amount: '1.00' }),
      ),
    ).toThrow(expect.objectContaining({ code: 'hpp_session_command_invalid' }));
  });

  it('a saving session reads pending until completed, then the completion', () => {
    const s = session({
      page_purpose: 'save_payment_method',
      credential_usages: ['UNSCHEDULED_COF'],
      payment_method: 'ach',
    });
    expect(toSessionResource(s, urls)).toMatchObject({
      tokenization_outcome: 'pending',
      amount: null,
      total_amount: null,
      capture_mode: null,
      amount_mode: null,
    });
    const done = then(
      s,
      decide(
        {
          type: 'CompleteHppSession',
          sessionId: ID,
          at: T1,
          vaultToken: 'cvt_x',
          storedCredentialId: 'sc',
          transactionId: null,
          card: null,
          bank: { routingLast4: '0021', accountLast4: '6789', accountType: 'SAVINGS' },
          tokenizationOutcome: 'stored',
        },
        s,
      ),
    );
    expect(toSessionResource(done, urls)).toMatchObject({
      state: 'COMPLETED',
      tokenization_outcome: 'stored',
      vault_token: 'cvt_x',
      completed_at: T1.toISOString(),
      card: null,
      bank: { account_type: 'SAVINGS', account_last4: '6789', routing_last4: '0021' },
    });
  });

  it('shows the card and the last failed attempt', () => {
    let s = session({ amount: '2.00' });
    s = then(
      s,
      decide({ type: 'RecordHppSessionFailedAttempt', sessionId: ID, at: T0, reason: 'reversed' }, s),
    );
    s = then(
      s,
      decide(
        {
          type: 'CompleteHppSession',
          sessionId: ID,
          at: T1,
          vaultToken: null,
          storedCredentialId: null,
          transactionId: 't',
          card: { brand: 'visa', last4: '4242', expMonth: 1, expYear: 2031 },
          bank: null,
          tokenizationOutcome: 'not_requested',
        },
        s,
      ),
    );
    expect(toSessionResource(s, urls)).toMatchObject({
      last_attempt: { at: T0.toISOString(), reason: 'reversed' },
      transaction_id: 't',
      card: { last4: '4242', expiry_month: 1, expiry_year: 2031, brand: 'visa' },
    });
  });

  it('with now, a pending session past expires_at reads EXPIRED', () => {
    const s = session({ amount: '1.00' });
    expect(toSessionResource(s, urls, new Date('2026-11-01T10:29:59.999Z')).state).toBe('PENDING');
    expect(toSessionResource(s, urls, new Date('2026-11-01T10:30:00.000Z')).state).toBe('EXPIRED');
  });
});
