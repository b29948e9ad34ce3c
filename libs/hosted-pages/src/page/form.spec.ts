import { FORM_ERROR_KEY } from './fields';
import { maxEnteredAmountMinor, parseHostedForm, type HostedFormResult } from './form';

const NOW = new Date('2026-11-01T10:00:00.000Z');
const card = { paymentMethod: 'card', amountMode: 'fixed', currency: 'USD' } as const;
const cardEntered = { ...card, amountMode: 'customer_entered' } as const;
const saveCard = { ...card, amountMode: null } as const;
const ach = { paymentMethod: 'ach', amountMode: 'fixed', currency: 'USD' } as const;
const achEntered = { ...ach, amountMode: 'customer_entered' } as const;

const CARD_BODY = {
  csrf_token: 'token',
  card_number: '4111111111111111',
  exp_month: '12',
  exp_year: '2030',
  cvc: '123',
  postal_code: '94105',
};
const ACH_BODY = {
  csrf_token: 'token',
  routing_number: '011000015',
  account_number: '000123456789',
  account_type: 'CHECKING',
  name_on_account: 'Jane Payer',
};

function failed(result: HostedFormResult) {
  if (result.ok) throw new Error('expected the form to be refused');
  return result;
}

function accepted(result: HostedFormResult) {
  if (!result.ok) throw new Error(`expected the form to be accepted: ${JSON.stringify(result.errors)}`);
  return result.input;
}

const errorsOf = (session: Parameters<typeof parseHostedForm>[0], body: Record<string, unknown>) =>
  failed(parseHostedForm(session, body, NOW)).errors;

describe('parseHostedForm: card', () => {
  it.each([
    ['4111111111111111', 'VISA', '123'],
    ['5555555555554444', 'MASTERCARD', '123'],
    ['378282246310005', 'AMEX', '1234'],
    ['6011111111111117', 'DISCOVER', '123'],
    ['4000056655665556', 'VISA', '123'],
  ])('accepts test card %s (%s)', (pan, brand, cvc) => {
    const input = accepted(parseHostedForm(card, { ...CARD_BODY, card_number: pan, cvc }, NOW));
    expect(input).toEqual({
      paymentMethod: 'card',
      amountMinor: null,
      card: {
        pan,
        brand,
        last4: pan.slice(-4),
        expMonth: 12,
        expYear: 2030,
        cvc,
        postalCode: '94105',
      },
    });
  });

  it.each(['4111 1111 1111 1111', '4111-1111-1111-1111', ' 4111 1111-1111 1111 '])(
    'normalises spaces and dashes in %p',
    (typed) => {
      const input = accepted(parseHostedForm(card, { ...CARD_BODY, card_number: typed }, NOW));
      expect(input.paymentMethod === 'card' && input.card.pan).toBe('4111111111111111');
    },
  );

  it.each([
    ['', 'Enter your card number.'],
    ['4111x11111111111', 'Enter the card number using digits only.'],
    ['41111111111', 'Enter the card number: it has 12 to 19 digits.'],
    ['41111111111111111111', 'Enter the card number: it has 12 to 19 digits.'],
    ['4111111111111112', 'This card number is not valid. Check it and try again.'],
    ['555555555555444', 'This card number is not valid. Check it and try again.'],
    ['9111111111111111', 'This type of card is not accepted. Use another card.'],
  ])('refuses card number %p: %s', (pan, message) => {
    expect(errorsOf(card, { ...CARD_BODY, card_number: pan }).card_number).toBe(message);
  });

  it('refuses a missing card number like an empty one', () => {
    const { card_number: _omitted, ...body } = CARD_BODY;
    expect(errorsOf(card, body).card_number).toBe('Enter your card number.');
  });

  it.each([
    ['1', 1],
    ['01', 1],
    ['12', 12],
  ])('accepts expiry month %p', (month, expMonth) => {
    const input = accepted(parseHostedForm(card, { ...CARD_BODY, exp_month: month }, NOW));
    expect(input.paymentMethod === 'card' && input.card.expMonth).toBe(expMonth);
  });

  it.each([
    ['', 'Enter the expiry month.'],
    ['0', 'Enter the expiry month as a number from 1 to 12.'],
    ['13', 'Enter the expiry month as a number from 1 to 12.'],
    ['1.5', 'Enter the expiry month as a number from 1 to 12.'],
  ])('refuses expiry month %p', (month, message) => {
    expect(errorsOf(card, { ...CARD_BODY, exp_month: month }).exp_month).toBe(message);
  });

  it.each([
    ['30', 2030],
    ['2030', 2030],
    ['26', 2026],
  ])('turns expiry year %p into %p', (year, expYear) => {
    const input = accepted(parseHostedForm(card, { ...CARD_BODY, exp_year: year }, NOW));
    expect(input.paymentMethod === 'card' && input.card.expYear).toBe(expYear);
  });

  it.each([
    ['', 'Enter the expiry year.'],
    ['203', 'Enter the expiry year as 2 or 4 digits, for example 2030.'],
    ['20300', 'Enter the expiry year as 2 or 4 digits, for example 2030.'],
    ['2025', 'This card has expired. Use another card.'],
    ['2099', 'Check the expiry year: it is too far in the future.'],
  ])('refuses expiry year %p', (year, message) => {
    expect(errorsOf(card, { ...CARD_BODY, exp_year: year }).exp_year).toBe(message);
  });

  it('accepts a card in its expiry month and refuses it the month after (now is 2026-11)', () => {
    expect(parseHostedForm(card, { ...CARD_BODY, exp_month: '11', exp_year: '2026' }, NOW).ok).toBe(true);
    expect(errorsOf(card, { ...CARD_BODY, exp_month: '10', exp_year: '2026' }).exp_month).toBe(
      'This card has expired. Use another card.',
    );
  });

  it.each([
    ['4111111111111111', '12', 'Enter the 3-digit security code from the back of the card.'],
    ['4111111111111111', '1234', 'Enter the 3-digit security code from the back of the card.'],
    ['4111111111111111', '12a', 'Enter the 3-digit security code from the back of the card.'],
    ['378282246310005', '123', 'Enter the 4-digit security code from the front of the card.'],
    ['4111111111111111', '', 'Enter the 3-digit security code from the back of the card.'],
  ])('card %s refuses CVC %p', (pan, cvc, message) => {
    expect(errorsOf(card, { ...CARD_BODY, card_number: pan, cvc }).cvc).toBe(message);
  });

  it.each([
    ['94105', '94105'],
    ['94105-1234', '94105-1234'],
    ['sw1a 1aa', 'SW1A 1AA'],
    ['K1A  0B1', 'K1A 0B1'],
    ['123', '123'],
  ])('accepts postal code %p as %p', (typed, stored) => {
    const input = accepted(parseHostedForm(card, { ...CARD_BODY, postal_code: typed }, NOW));
    expect(input.paymentMethod === 'card' && input.card.postalCode).toBe(stored);
  });

  it.each([
    ['', 'Enter your billing postal code.'],
    ['12', 'Enter a valid postal code, for example 94105.'],
    ['12345678901', 'Enter a valid postal code, for example 94105.'],
    ['-1234', 'Enter a valid postal code, for example 94105.'],
    ['94105;', 'Enter a valid postal code, for example 94105.'],
  ])('refuses postal code %p', (typed, message) => {
    expect(errorsOf(card, { ...CARD_BODY, postal_code: typed }).postal_code).toBe(message);
  });

  it('reports every broken field at once', () => {
    expect(Object.keys(errorsOf(card, { csrf_token: 't' })).sort()).toEqual(
      ['card_number', 'cvc', 'exp_month', 'exp_year', 'postal_code'].sort(),
    );
  });

  it('never puts the card number or CVC in the re-fill values, or in any message', () => {
    const result = failed(
      parseHostedForm(
        card,
        { ...CARD_BODY, card_number: '4111 1111 1111 1111', cvc: '98', postal_code: '' },
        NOW,
      ),
    );
    expect(result.values).toEqual({ exp_month: '12', exp_year: '2030', postal_code: '' });
    const everything = JSON.stringify(result);
    expect(everything).not.toContain('4111');
    expect(everything).not.toContain('98');
  });

  it('refuses the ACH fields on a card page', () => {
    expect(errorsOf(card, { ...CARD_BODY, routing_number: '011000015' })[FORM_ERROR_KEY]).toMatch(
      /fields this page does not use/,
    );
  });

  it('refuses an amount on a fixed-amount page', () => {
    expect(errorsOf(card, { ...CARD_BODY, amount: '1.00' })[FORM_ERROR_KEY]).toBeDefined();
  });

  it('refuses a field sent twice (an array), without using either value', () => {
    const result = failed(
      parseHostedForm(card, { ...CARD_BODY, card_number: ['4111111111111111', '5555555555554444'] }, NOW),
    );
    expect(result.errors.card_number).toBe('This field was sent more than once. Enter it again.');
    const twiceMonth = failed(parseHostedForm(card, { ...CARD_BODY, exp_month: ['12', '1'] }, NOW));
    expect(twiceMonth.errors.exp_month).toBe('This field was sent more than once. Enter it again.');
    expect(twiceMonth.values).not.toHaveProperty('exp_month');
  });

  it('refuses a value that is not text, and one that is too long', () => {
    expect(errorsOf(card, { ...CARD_BODY, exp_month: 12 }).exp_month).toBe('Enter this field again.');
    expect(errorsOf(card, { ...CARD_BODY, postal_code: '9'.repeat(201) }).postal_code).toBe(
      'This entry is too long.',
    );
  });

  it('accepts csrf_token without reading it, and accepts its absence (csrf.ts checks it)', () => {
    const { csrf_token: _t, ...body } = CARD_BODY;
    expect(parseHostedForm(card, body, NOW).ok).toBe(true);
  });

  it('a save-card page takes the card fields and no amount', () => {
    expect(accepted(parseHostedForm(saveCard, CARD_BODY, NOW)).amountMinor).toBeNull();
    expect(errorsOf(saveCard, { ...CARD_BODY, amount: '1.00' })[FORM_ERROR_KEY]).toBeDefined();
  });
});

describe('parseHostedForm: ACH', () => {
  it('accepts routing 011000015 with an account number', () => {
    expect(accepted(parseHostedForm(ach, ACH_BODY, NOW))).toEqual({
      paymentMethod: 'ach',
      amountMinor: null,
      bank: {
        routingNumber: '011000015',
        accountNumber: '000123456789',
        accountType: 'CHECKING',
        nameOnAccount: 'Jane Payer',
      },
    });
  });

  it.each([
    ['', 'Enter the routing number.'],
    ['01100001', 'Enter the routing number: it has 9 digits.'],
    ['0110000155', 'Enter the routing number: it has 9 digits.'],
    ['01100001a', 'Enter the routing number: it has 9 digits.'],
    ['011000016', 'This routing number is not valid. Check it and try again.'],
  ])('refuses routing number %p', (routing, message) => {
    expect(errorsOf(ach, { ...ACH_BODY, routing_number: routing }).routing_number).toBe(message);
  });

  it.each([
    ['1234', '1234'],
    ['12345678901234567', '12345678901234567'],
    ['1234 5678-90', '1234567890'],
  ])('accepts account number %p as %p', (typed, stored) => {
    const input = accepted(parseHostedForm(ach, { ...ACH_BODY, account_number: typed }, NOW));
    expect(input.paymentMethod === 'ach' && input.bank.accountNumber).toBe(stored);
  });

  it.each([
    ['', 'Enter the account number.'],
    ['123', 'Enter the account number: it has 4 to 17 digits.'],
    ['123456789012345678', 'Enter the account number: it has 4 to 17 digits.'],
    ['12345x', 'Enter the account number using digits only.'],
  ])('refuses account number %p', (typed, message) => {
    expect(errorsOf(ach, { ...ACH_BODY, account_number: typed }).account_number).toBe(message);
  });

  it.each(['SAVINGS', 'CHECKING'])('accepts account type %s', (type) => {
    const input = accepted(parseHostedForm(ach, { ...ACH_BODY, account_type: type }, NOW));
    expect(input.paymentMethod === 'ach' && input.bank.accountType).toBe(type);
  });

  it.each(['', 'checking', 'BUSINESS'])('refuses account type %p', (type) => {
    expect(errorsOf(ach, { ...ACH_BODY, account_type: type }).account_type).toBe(
      'Choose checking or savings.',
    );
  });

  it('trims the name on the account and bounds it at 100 characters', () => {
    const input = accepted(parseHostedForm(ach, { ...ACH_BODY, name_on_account: '  Zoë Payer  ' }, NOW));
    expect(input.paymentMethod === 'ach' && input.bank.nameOnAccount).toBe('Zoë Payer');
    expect(parseHostedForm(ach, { ...ACH_BODY, name_on_account: 'é'.repeat(100) }, NOW).ok).toBe(true);
    expect(errorsOf(ach, { ...ACH_BODY, name_on_account: 'é'.repeat(101) }).name_on_account).toBe(
      'Enter the name in 100 characters or fewer.',
    );
    expect(errorsOf(ach, { ...ACH_BODY, name_on_account: '   ' }).name_on_account).toBe(
      'Enter the name on the account.',
    );
    expect(errorsOf(ach, { ...ACH_BODY, name_on_account: 'Jane\u202EPayer' }).name_on_account).toBe(
      'Enter the name without special characters.',
    );
  });

  it('never puts the account number in the re-fill values', () => {
    const result = failed(
      parseHostedForm(ach, { ...ACH_BODY, account_number: '987654321', account_type: '' }, NOW),
    );
    expect(result.values).toEqual({
      routing_number: '011000015',
      account_type: '',
      name_on_account: 'Jane Payer',
    });
    expect(JSON.stringify(result)).not.toContain('987654321');
  });

  it('refuses card fields on an ACH page', () => {
    expect(errorsOf(ach, { ...ACH_BODY, card_number: '4111111111111111' })[FORM_ERROR_KEY]).toBeDefined();
  });
});

describe('parseHostedForm: customer-entered amount', () => {
  it.each([
    ['10', 1000n],
    ['10.5', 1050n],
    ['10.50', 1050n],
    [' 0.01 ', 1n],
    ['999999.99', 99999999n],
  ])('accepts %p as %p minor units', (amount, minor) => {
    expect(accepted(parseHostedForm(cardEntered, { ...CARD_BODY, amount }, NOW)).amountMinor).toBe(minor);
    expect(accepted(parseHostedForm(achEntered, { ...ACH_BODY, amount }, NOW)).amountMinor).toBe(minor);
  });

  it.each([
    ['', 'Enter the amount to pay.'],
    ['0', 'Enter an amount greater than zero.'],
    ['0.00', 'Enter an amount greater than zero.'],
    ['-5', 'Enter the amount as a number, for example 25.00.'],
    ['$10', 'Enter the amount as a number, for example 25.00.'],
    ['1,000', 'Enter the amount as a number, for example 25.00.'],
    ['1e3', 'Enter the amount as a number, for example 25.00.'],
    ['10.505', 'Enter the amount with at most 2 decimal places.'],
    ['1000000', 'Enter an amount of $999,999.99 or less.'],
    ['1000000.00', 'Enter an amount of $999,999.99 or less.'],
  ])('refuses %p', (amount, message) => {
    expect(errorsOf(cardEntered, { ...CARD_BODY, amount }).amount).toBe(message);
  });

  it('requires the amount field', () => {
    expect(errorsOf(cardEntered, CARD_BODY).amount).toBe('Enter the amount to pay.');
  });

  it('re-fills the amount as typed', () => {
    expect(failed(parseHostedForm(cardEntered, { ...CARD_BODY, amount: '12.345' }, NOW)).values.amount).toBe(
      '12.345',
    );
  });

  it('refuses a currency the platform has no exponent for', () => {
    expect(errorsOf({ ...cardEntered, currency: 'XXX' }, { ...CARD_BODY, amount: '1.00' }).amount).toBe(
      'Payments in XXX cannot be taken on this page.',
    );
  });

  it('caps at 999,999.99 in minor units', () => {
    expect(maxEnteredAmountMinor('USD')).toBe(99999999n);
  });
});
