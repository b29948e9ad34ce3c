import { HppCaptureModeReserved, HppSessionInvalid } from './session-errors';
import { parseSessionRequest, validateSessionRequest } from './session-request';

const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const CUSTOMER = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
const base = { merchant_id: MERCHANT, amount: '10.50' };
const plan = { recurring_amount: '10.50', frequency: 'monthly' };
const save = { page_purpose: 'save_payment_method', credential_usages: ['UNSCHEDULED_COF'] };

describe('validateSessionRequest: accepted bodies', () => {
  it.each<[string, Record<string, unknown>]>([
    ['minimal fixed payment', base],
    [
      'every payment field',
      {
        ...base,
        currency: 'USD',
        payment_method: 'card',
        rendering_mode: 'iframe',
        capture_mode: 'authorization',
        amount_mode: 'fixed',
        page_purpose: 'payment',
        save_payment_method: true,
        credential_usages: ['ONE_TIME_FUTURE'],
        customer_id: CUSTOMER,
        custom_fields: [{ name: 'invoice', value: 'INV-1' }],
      },
    ],
    ['customer_entered without amount', { merchant_id: MERCHANT, amount_mode: 'customer_entered' }],
    ['ach sale', { ...base, payment_method: 'ach', capture_mode: 'sale' }],
    ['save page', { merchant_id: MERCHANT, ...save }],
    [
      'save page with save_payment_method true',
      { merchant_id: MERCHANT, ...save, save_payment_method: true },
    ],
    ['null optional fields', { ...base, customer_id: null, recurring_plan: null, credential_usages: null }],
    ['recurring plan', { ...base, recurring_plan: plan, credential_usages: ['RECURRING'] }],
    [
      'full recurring plan',
      {
        ...base,
        credential_usages: ['INSTALLMENT'],
        recurring_plan: { ...plan, interval: 2, number_of_payments: 2, initial_charge_amount: '10.5' },
      },
    ],
    ...['daily', 'weekly', 'biweekly', 'monthly', 'quarterly', 'annually'].map(
      (frequency): [string, Record<string, unknown>] => [
        `frequency ${frequency}`,
        { ...base, recurring_plan: { ...plan, frequency }, credential_usages: ['RECURRING'] },
      ],
    ),
  ])('%s', (_, body) => expect(validateSessionRequest(body)).toEqual([]));
});

describe('validateSessionRequest: refused bodies', () => {
  it.each<[string, unknown, string[]]>([
    ['not an object', [], ['body']],
    ['null body', null, ['body']],
    ['missing merchant_id', { amount: '1.00' }, ['merchant_id']],
    ['bad merchant_id', { ...base, merchant_id: 'm1' }, ['merchant_id']],
    ['unknown field', { ...base, return_url: 'https://x' }, ['return_url']],
    ['bad payment_method', { ...base, payment_method: 'CARD' }, ['payment_method']],
    ['bad rendering_mode', { ...base, rendering_mode: 'popup' }, ['rendering_mode']],
    ['bad capture_mode', { ...base, capture_mode: 'later' }, ['capture_mode']],
    [
      'authorization on ach',
      { ...base, payment_method: 'ach', capture_mode: 'authorization' },
      ['capture_mode'],
    ],
    ['bad amount_mode', { ...base, amount_mode: 'open' }, ['amount_mode']],
    ['bad page_purpose', { ...base, page_purpose: 'donation' }, ['page_purpose']],
    ['bad currency', { ...base, currency: 'EUR' }, ['currency']],
    ['fixed without amount', { merchant_id: MERCHANT }, ['amount']],
    ['amount as a number', { ...base, amount: 10.5 }, ['amount']],
    ['amount with 3 decimals', { ...base, amount: '1.005' }, ['amount']],
    ['negative amount', { ...base, amount: '-1.00' }, ['amount']],
    ['zero amount', { ...base, amount: '0.00' }, ['amount']],
    ['amount on customer_entered', { ...base, amount_mode: 'customer_entered' }, ['amount']],
    ['save_payment_method not boolean', { ...base, save_payment_method: 'yes' }, ['save_payment_method']],
    ['saving card without usages', { ...base, save_payment_method: true }, ['credential_usages']],
    [
      'save page without usages',
      { merchant_id: MERCHANT, page_purpose: 'save_payment_method' },
      ['credential_usages'],
    ],
    ['empty usages', { merchant_id: MERCHANT, ...save, credential_usages: [] }, ['credential_usages']],
    [
      'usages not an array',
      { merchant_id: MERCHANT, ...save, credential_usages: 'RECURRING' },
      ['credential_usages'],
    ],
    [
      'unknown usage',
      { merchant_id: MERCHANT, ...save, credential_usages: ['RECURRING', 'recurring'] },
      ['credential_usages[1]'],
    ],
    [
      'duplicate usage',
      { merchant_id: MERCHANT, ...save, credential_usages: ['RECURRING', 'RECURRING'] },
      ['credential_usages[1]'],
    ],
    ['usages when nothing saved', { ...base, credential_usages: ['RECURRING'] }, ['credential_usages']],
    ['amount on a save page', { merchant_id: MERCHANT, ...save, amount: '1.00' }, ['amount']],
    ['amount_mode on a save page', { merchant_id: MERCHANT, ...save, amount_mode: 'fixed' }, ['amount_mode']],
    [
      'capture_mode on a save page',
      { merchant_id: MERCHANT, ...save, capture_mode: 'sale' },
      ['capture_mode'],
    ],
    ['plan on a save page', { merchant_id: MERCHANT, ...save, recurring_plan: plan }, ['recurring_plan']],
    [
      'save page with save_payment_method false',
      { merchant_id: MERCHANT, ...save, save_payment_method: false },
      ['save_payment_method'],
    ],
    ['bad customer_id', { ...base, customer_id: 'c-1' }, ['customer_id']],
    ['plan without usages', { ...base, recurring_plan: plan }, ['credential_usages']],
    [
      'plan with usages lacking RECURRING',
      { ...base, recurring_plan: plan, credential_usages: ['UNSCHEDULED_COF'] },
      ['credential_usages'],
    ],
    [
      'plan with save_payment_method false',
      { ...base, recurring_plan: plan, save_payment_method: false, credential_usages: ['RECURRING'] },
      ['save_payment_method'],
    ],
    [
      'plan on customer_entered',
      {
        merchant_id: MERCHANT,
        amount_mode: 'customer_entered',
        recurring_plan: plan,
        credential_usages: ['RECURRING'],
      },
      ['recurring_plan'],
    ],
    [
      'plan not an object',
      { ...base, recurring_plan: 'monthly', credential_usages: ['RECURRING'] },
      ['recurring_plan'],
    ],
    [
      'plan without recurring_amount',
      { ...base, recurring_plan: { frequency: 'daily' }, credential_usages: ['RECURRING'] },
      ['recurring_plan.recurring_amount'],
    ],
    [
      'plan without frequency',
      { ...base, recurring_plan: { recurring_amount: '10.50' }, credential_usages: ['RECURRING'] },
      ['recurring_plan.frequency'],
    ],
    [
      'upper-case frequency',
      { ...base, recurring_plan: { ...plan, frequency: 'MONTHLY' }, credential_usages: ['RECURRING'] },
      ['recurring_plan.frequency'],
    ],
    [
      'interval 0',
      { ...base, recurring_plan: { ...plan, interval: 0 }, credential_usages: ['RECURRING'] },
      ['recurring_plan.interval'],
    ],
    [
      'interval 1.5',
      { ...base, recurring_plan: { ...plan, interval: 1.5 }, credential_usages: ['RECURRING'] },
      ['recurring_plan.interval'],
    ],
    [
      'number_of_payments 1',
      { ...base, recurring_plan: { ...plan, number_of_payments: 1 }, credential_usages: ['RECURRING'] },
      ['recurring_plan.number_of_payments'],
    ],
    [
      'initial_charge_amount unlike amount',
      {
        ...base,
        recurring_plan: { ...plan, initial_charge_amount: '9.00' },
        credential_usages: ['RECURRING'],
      },
      ['recurring_plan.initial_charge_amount'],
    ],
    [
      'amount unlike recurring_amount without initial_charge_amount (the page charges the first period)',
      { ...base, recurring_plan: { ...plan, recurring_amount: '25.00' }, credential_usages: ['RECURRING'] },
      ['amount'],
    ],
    [
      'unknown plan field',
      { ...base, recurring_plan: { ...plan, period: 'x' }, credential_usages: ['RECURRING'] },
      ['recurring_plan.period'],
    ],
    ['custom_fields not an array', { ...base, custom_fields: {} }, ['custom_fields']],
    [
      '21 custom fields',
      { ...base, custom_fields: Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, value: 'v' })) },
      ['custom_fields'],
    ],
    [
      'blank custom field name',
      { ...base, custom_fields: [{ name: ' ', value: 'v' }] },
      ['custom_fields[0].name'],
    ],
    [
      'duplicate custom field',
      {
        ...base,
        custom_fields: [
          { name: 'a', value: '1' },
          { name: 'a', value: '2' },
        ],
      },
      ['custom_fields[1].name'],
    ],
    [
      'custom field value not a string',
      { ...base, custom_fields: [{ name: 'a', value: 1 }] },
      ['custom_fields[0].value'],
    ],
    [
      'custom field value too long',
      { ...base, custom_fields: [{ name: 'a', value: 'x'.repeat(256) }] },
      ['custom_fields[0].value'],
    ],
    [
      'unknown custom field key',
      { ...base, custom_fields: [{ name: 'a', value: 'b', c: 1 }] },
      ['custom_fields[0].c'],
    ],
    ['several at once', { amount: 5, payment_method: 'cash' }, ['merchant_id', 'payment_method', 'amount']],
  ])('%s', (_, body, fields) => {
    const errors = validateSessionRequest(body);
    expect(errors.map((error) => error.field)).toEqual(fields);
    for (const error of errors) expect(error.message).toEqual(expect.any(String));
  });
});

describe('parseSessionRequest', () => {
  it('applies the defaults and converts amounts to minor units', () =>
    expect(parseSessionRequest({ ...base, merchant_id: MERCHANT.toUpperCase() })).toEqual({
      merchantId: MERCHANT,
      paymentMethod: 'card',
      renderingMode: 'redirect',
      pagePurpose: 'payment',
      captureMode: 'sale',
      amountMode: 'fixed',
      amountMinor: 1050n,
      currency: 'USD',
      savesPaymentMethod: false,
      credentialUsages: [],
      customerId: null,
      recurringPlan: null,
      customFields: [],
    }));

  it('a save page has no amount, modes or capture and saves', () =>
    expect(parseSessionRequest({ merchant_id: MERCHANT, ...save })).toMatchObject({
      pagePurpose: 'save_payment_method',
      captureMode: null,
      amountMode: null,
      amountMinor: null,
      savesPaymentMethod: true,
      credentialUsages: ['UNSCHEDULED_COF'],
    }));

  it('a recurring plan saves and defaults interval to 1', () =>
    expect(
      parseSessionRequest({ ...base, recurring_plan: plan, credential_usages: ['RECURRING'] }),
    ).toMatchObject({
      savesPaymentMethod: true,
      recurringPlan: {
        recurringAmountMinor: 1050n,
        frequency: 'monthly',
        interval: 1,
        numberOfPayments: null,
        initialChargeAmountMinor: null,
      },
    }));

  it('throws a 400 naming every broken rule', () => {
    let thrown: unknown;
    try {
      parseSessionRequest({ amount: '1.00', extra: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HppSessionInvalid);
    expect(thrown).toMatchObject({
      code: 'validation_error',
      errors: [
        { field: 'extra', message: 'is not a known field' },
        { field: 'merchant_id', message: 'is required' },
      ],
    });
  });

  it('a well-formed card session with capture_mode authorization is 501: card AUTHORIZATION is reserved', () => {
    expect(() => parseSessionRequest({ ...base, capture_mode: 'authorization' })).toThrow(
      HppCaptureModeReserved,
    );
    expect(new HppCaptureModeReserved().code).toBe('not_implemented');
    // Broken fields are still 400 first.
    expect(() => parseSessionRequest({ ...base, capture_mode: 'authorization', extra: 1 })).toThrow(
      HppSessionInvalid,
    );
    expect(parseSessionRequest({ ...base, capture_mode: 'sale' }).captureMode).toBe('sale');
  });
});
