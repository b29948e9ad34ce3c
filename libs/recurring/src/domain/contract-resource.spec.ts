import { evolve, initialState, type Contract } from './contract';
import type { ContractEvent } from './contract-events';
import { flagsNeeded, holdFor } from './contract-holds';
import { toContractListItem, toContractResource } from './contract-resource';
import { CONTRACT_WEBHOOK_EVENTS } from './contract-webhooks';
import { CONTRACT_EVENT_TYPES } from './contract-events';
import { decide, type CreateContract } from './decide';
import { isRetryableReturn, isSoftDecline, retryDate, RETRY_BACKOFF_DAYS } from './dunning';
import { contractUseType } from './payment-method';

const ID = '6a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const create = (fields: Partial<CreateContract> = {}): Contract =>
  decide(
    {
      type: 'CreateContract',
      contractId: ID,
      at: new Date('2027-01-31T08:00:00.000Z'),
      partnerId: '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10',
      merchantId: '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
      customerId: null,
      origin: 'api',
      hppSessionId: null,
      paymentMethodType: 'CARD',
      paymentMethod: {
        vaultToken: 'cvt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        storedCredentialId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 },
        bank: null,
      },
      useType: 'RECURRING',
      amountMinor: 1050n,
      currency: 'USD',
      frequency: 'MONTHLY',
      interval: 1,
      startDate: '2027-01-31',
      endDate: null,
      numberOfPayments: 12,
      maxRetries: 3,
      customFields: [{ name: 'plan', value: 'gold' }],
      level2Data: null,
      level3Data: null,
      activationDeadline: null,
      ...fields,
    },
    null,
  ).reduce<Contract | null>((s, e: ContractEvent) => evolve(s, e), initialState())!;

/** The spec's Recurring contract table, field for field. */
const SPEC_FIELDS = [
  'id',
  'partner_id',
  'merchant_id',
  'state',
  'payment_method_type',
  'amount',
  'currency',
  'frequency',
  'start_date',
  'end_date',
  'total_amount',
  'remaining_installments',
  'amount_paid',
  'last_successful_charge_date',
  'next_charge_date',
  'retry_count',
  'max_retries',
  'created_at',
  'custom_fields',
  'level2_data',
  'level3_data',
];
const LIST_FIELDS = [
  'id',
  'merchant_name',
  'rail',
  'card_last4',
  'amount_per_period',
  'currency',
  'period_unit',
  'total_periods',
  'periods_completed',
  'state',
];

describe('the contract resource', () => {
  it('has every field of the spec, filled', () => {
    const resource = toContractResource(create());
    for (const field of SPEC_FIELDS) expect(resource).toHaveProperty(field);
    expect(resource).toMatchObject({
      id: ID,
      state: 'ACTIVE',
      payment_method_type: 'CARD',
      amount: '10.50',
      currency: 'USD',
      frequency: 'MONTHLY',
      start_date: '2027-01-31',
      end_date: null,
      total_amount: '126.00',
      remaining_installments: 12,
      amount_paid: '0.00',
      last_successful_charge_date: null,
      next_charge_date: '2027-01-31',
      retry_count: 0,
      max_retries: 3,
      created_at: '2027-01-31T08:00:00.000Z',
      custom_fields: [{ name: 'plan', value: 'gold' }],
      card: { brand: 'VISA', last4: '1111', exp_month: 12, exp_year: 2030 },
      payment_method_token: 'cvt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    });
  });

  it('an open-ended contract has no total and no remaining count', () =>
    expect(toContractResource(create({ numberOfPayments: null }))).toMatchObject({
      total_amount: null,
      remaining_installments: null,
    }));

  it('the list item has every field of the spec; amount_per_period is a number', () => {
    const item = toContractListItem(create(), 'Corner Bakery');
    for (const field of LIST_FIELDS) expect(item).toHaveProperty(field);
    expect(item).toMatchObject({
      merchant_name: 'Corner Bakery',
      rail: 'CARD',
      card_last4: '1111',
      amount_per_period: 10.5,
      currency: 'USD',
      period_unit: 'MONTHLY',
      total_periods: 12,
      periods_completed: 0,
      state: 'ACTIVE',
    });
    expect(typeof item.amount_per_period).toBe('number');
  });
});

describe('holds', () => {
  const contract = create();
  const ok = { state: 'ACTIVE', transactable: true };
  const all = ['recurring_billing', 'custom_fields'];
  it.each([
    [{ state: 'SUSPENDED', transactable: false }, all, 'merchant_suspended'],
    [{ state: 'CLOSED', transactable: false }, all, 'merchant_closed'],
    [{ state: 'SUBMITTED', transactable: false }, all, 'merchant_not_transactable'],
    [ok, ['custom_fields'], 'feature_not_enabled'],
    [ok, ['recurring_billing'], 'feature_not_enabled'],
  ])('%j with %j: %s', (merchant, features, code) =>
    expect(holdFor(contract, merchant, features)).toMatchObject({ reasonCode: code }),
  );
  it('none while the merchant transacts and the flags are on', () =>
    expect(holdFor(contract, ok, all)).toBeNull());
  it('the flags a contract needs follow its use type and what it carries', () => {
    expect(flagsNeeded(create({ customFields: [] }))).toEqual(['recurring_billing']);
    expect(flagsNeeded({ ...create({ customFields: [] }), paymentMethodType: 'ACH' })).toEqual([
      'ach_payments',
      'recurring_billing',
    ]);
    expect(flagsNeeded(create({ useType: 'INSTALLMENT', level2Data: { po_number: 'P' } }))).toEqual([
      'installments',
      'custom_fields',
      'level2_level3_data',
    ]);
  });
});

describe('use type and dunning rules', () => {
  it('a plan with number_of_payments on a token scoped for INSTALLMENT charges INSTALLMENT, else RECURRING', () => {
    expect(contractUseType(['RECURRING', 'INSTALLMENT'], 6)).toBe('INSTALLMENT');
    expect(contractUseType(['RECURRING', 'INSTALLMENT'], null)).toBe('RECURRING');
    expect(contractUseType(['RECURRING'], 6)).toBe('RECURRING');
    expect(contractUseType(['INSTALLMENT'], null)).toBe('RECURRING');
  });
  it('soft declines and retryable returns', () => {
    expect(isSoftDecline('insufficient_funds')).toBe(true);
    expect(isSoftDecline('card_declined')).toBe(false);
    expect(isSoftDecline('expired_card')).toBe(false);
    expect(isRetryableReturn('R01')).toBe(true);
    expect(isRetryableReturn('R02')).toBe(false);
  });
  it('the back-off: 1, 3, 7, then 7 days', () => {
    expect(RETRY_BACKOFF_DAYS).toEqual([1, 3, 7]);
    expect([1, 2, 3, 4, 5].map((r) => retryDate('2027-02-27', r))).toEqual([
      '2027-02-28',
      '2027-03-02',
      '2027-03-06',
      '2027-03-06',
      '2027-03-06',
    ]);
  });
});

describe('the webhook catalog', () => {
  it('maps only contract events, each to a contract.* type whose object is the contract', () => {
    for (const entry of CONTRACT_WEBHOOK_EVENTS) {
      expect(CONTRACT_EVENT_TYPES).toContain(entry.eventType);
      expect(entry.webhookType).toMatch(/^contract\.[a-z_]+$/);
      expect(entry.object).toBe('contract');
    }
    expect(new Set(CONTRACT_WEBHOOK_EVENTS.map((e) => e.webhookType)).size).toBe(
      CONTRACT_WEBHOOK_EVENTS.length,
    );
  });
  it('lists every partner-visible step: created, paused, resumed, cancelled, charged, failed, retried, returned, completed', () =>
    expect(CONTRACT_WEBHOOK_EVENTS.map((e) => e.webhookType)).toEqual(
      expect.arrayContaining([
        'contract.created',
        'contract.paused',
        'contract.resumed',
        'contract.cancelled',
        'contract.installment_charged',
        'contract.installment_failed',
        'contract.retry_scheduled',
        'contract.installment_returned',
        'contract.completed',
        'contract.failed',
      ]),
    ));
});
