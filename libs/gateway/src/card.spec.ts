import {
  CARD_LENGTHS,
  cardExpired,
  cardNumberProblem,
  detectBrand,
  lastFour,
  luhnValid,
  validateCard,
  type CardBrand,
  type CardInput,
} from './card';
import { isSandboxTestCard, SANDBOX_TEST_CARDS, sandboxCardFunding as funding } from './sandbox/test-cards';

/** `prefix` padded with zeros to `length - 1` digits, plus the Luhn check digit. */
function luhnNumber(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let check = 0; check <= 9; check++) {
    if (luhnValid(body + check)) return body + check;
  }
  throw new Error('unreachable');
}

const NOW = new Date('2025-03-15T12:00:00.000Z');
const VALID: CardInput = { number: '4111111111111111', expMonth: 12, expYear: 2027, cvc: '123' };

function fieldsOf(card: Partial<CardInput>, now = NOW): string[] {
  return validateCard({ ...VALID, ...card }, now).map((error) => error.field);
}

describe('luhnValid', () => {
  it.each(SANDBOX_TEST_CARDS.map((card) => card.pan))('accepts the test card %s', (pan) => {
    expect(luhnValid(pan)).toBe(true);
  });

  it.each(['79927398713', '4242424242424242', '4111 1111 1111 1111', '4111-1111-1111-1111'])(
    'accepts %p',
    (pan) => expect(luhnValid(pan)).toBe(true),
  );

  it.each([
    '4111111111111112', // last digit off by one
    '4111111111111121', // two digits swapped
    '79927398710',
    '1234567812345678',
    '',
    '0', // a single digit is not a card number
    '4111x111111111111',
    '4111.1111.1111.1111',
  ])('rejects %p', (pan) => expect(luhnValid(pan)).toBe(false));
});

describe('detectBrand', () => {
  it.each<[string, CardBrand]>([
    ['4', 'VISA'],
    ['51', 'MASTERCARD'],
    ['53', 'MASTERCARD'],
    ['55', 'MASTERCARD'],
    ['50', 'UNKNOWN'],
    ['56', 'UNKNOWN'],
    ['2221', 'MASTERCARD'],
    ['2500', 'MASTERCARD'],
    ['2720', 'MASTERCARD'],
    ['2220', 'UNKNOWN'],
    ['2721', 'UNKNOWN'],
    ['34', 'AMEX'],
    ['37', 'AMEX'],
    ['6011', 'DISCOVER'],
    ['6010', 'UNKNOWN'],
    ['6012', 'UNKNOWN'],
    ['644', 'DISCOVER'],
    ['649', 'DISCOVER'],
    ['643', 'UNKNOWN'],
    ['65', 'DISCOVER'],
    ['622126', 'DISCOVER'],
    ['622500', 'DISCOVER'],
    ['622925', 'DISCOVER'],
    ['622125', 'UNIONPAY'],
    ['622926', 'UNIONPAY'],
    ['620000', 'UNIONPAY'],
    ['625000', 'UNIONPAY'],
    ['3528', 'JCB'],
    ['3589', 'JCB'],
    ['3527', 'UNKNOWN'],
    ['3590', 'UNKNOWN'],
    ['300', 'DINERS'],
    ['305', 'DINERS'],
    ['306', 'UNKNOWN'],
    ['36', 'DINERS'],
    ['38', 'DINERS'],
    ['39', 'DINERS'],
    ['1', 'UNKNOWN'],
    ['7', 'UNKNOWN'],
  ])('a number starting %s is %s', (prefix, brand) => {
    expect(detectBrand(prefix.padEnd(16, '0'))).toBe(brand);
  });

  it.each(SANDBOX_TEST_CARDS)('knows the test card $pan as $brand', ({ pan, brand }) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it('reads a formatted number and refuses non-digits', () => {
    expect(detectBrand('3782 822463 10005')).toBe('AMEX');
    expect(detectBrand('4111x')).toBe('UNKNOWN');
    expect(detectBrand('')).toBe('UNKNOWN');
  });
});

describe('card number lengths per brand', () => {
  const prefixes: Record<keyof typeof CARD_LENGTHS, string> = {
    VISA: '4',
    MASTERCARD: '51',
    AMEX: '37',
    DISCOVER: '6011',
    JCB: '3530',
    DINERS: '36',
    UNIONPAY: '62',
  };
  const cases = Object.entries(prefixes).flatMap(([brand, prefix]) =>
    Array.from({ length: 10 }, (_, i) => i + 12).map(
      (length) =>
        [brand, length, CARD_LENGTHS[brand as keyof typeof CARD_LENGTHS].includes(length), prefix] as const,
    ),
  );

  it.each(cases)('%s with %i digits: accepted %p', (brand, length, accepted, prefix) => {
    const pan = luhnNumber(prefix, length);
    expect(detectBrand(pan)).toBe(brand);
    expect(luhnValid(pan)).toBe(true);
    expect(cardNumberProblem(pan) === null).toBe(accepted);
    if (!accepted) expect(cardNumberProblem(pan)).toMatch(/digits long/);
  });

  it('has the lengths the networks publish', () => {
    expect(CARD_LENGTHS).toEqual({
      VISA: [13, 16, 19],
      MASTERCARD: [16],
      AMEX: [15],
      DISCOVER: [16, 17, 18, 19],
      JCB: [16, 17, 18, 19],
      DINERS: [14, 15, 16, 17, 18, 19],
      UNIONPAY: [16, 17, 18, 19],
    });
  });
});

describe('validateCard: card_number', () => {
  it.each(SANDBOX_TEST_CARDS)('accepts the test card $pan', ({ pan, brand }) => {
    const cvc = brand === 'AMEX' ? '1234' : '123';
    expect(validateCard({ ...VALID, number: pan, cvc }, NOW)).toEqual([]);
  });

  it('strips spaces and dashes', () => {
    expect(fieldsOf({ number: '4111 1111-1111 1111' })).toEqual([]);
  });

  it.each([
    ['', 'is required'],
    ['4111.1111.1111.1111', 'must contain only digits, spaces or dashes'],
    ['4111111111111112', 'is not a valid card number'],
    [luhnNumber('7', 16), 'is not a number of a supported card network'],
    [luhnNumber('51', 15), 'must be 16 digits long for MASTERCARD'],
  ])('refuses %p: %s', (number, message) => {
    expect(validateCard({ ...VALID, number }, NOW)).toEqual([{ field: 'card_number', message }]);
  });
});

describe('validateCard: expiry', () => {
  it('the month of now is still valid', () => {
    expect(fieldsOf({ expMonth: 3, expYear: 2025 })).toEqual([]);
  });

  it('last month is expired', () => {
    expect(validateCard({ ...VALID, expMonth: 2, expYear: 2025 }, NOW)).toEqual([
      { field: 'exp_month', message: 'the card has expired' },
    ]);
  });

  it('a past year is expired', () => {
    expect(validateCard({ ...VALID, expMonth: 12, expYear: 2024 }, NOW)).toEqual([
      { field: 'exp_year', message: 'the card has expired' },
    ]);
  });

  it('is valid through the last instant of the month (UTC) and expired from the next', () => {
    const card = { expMonth: 3, expYear: 2025 };
    expect(fieldsOf(card, new Date('2025-03-31T23:59:59.999Z'))).toEqual([]);
    expect(fieldsOf(card, new Date('2025-04-01T00:00:00.000Z'))).toEqual(['exp_month']);
    expect(cardExpired(12, 2025, new Date('2025-12-31T23:59:59.999Z'))).toBe(false);
    expect(cardExpired(12, 2025, new Date('2026-01-01T00:00:00.000Z'))).toBe(true);
  });

  it.each([0, 13, -1, 1.5, '', 'ab', '123'])('refuses exp_month %p', (expMonth) => {
    expect(fieldsOf({ expMonth })).toEqual(['exp_month']);
  });

  it.each([1, '01', ' 12 ', '7'])('accepts exp_month %p', (expMonth) => {
    expect(fieldsOf({ expMonth, expYear: 2026 })).toEqual([]);
  });

  it('reads a two-digit year as 20YY', () => {
    expect(fieldsOf({ expYear: '27' })).toEqual([]);
    expect(fieldsOf({ expYear: '24' })).toEqual(['exp_year']);
  });

  it.each(['202', '20277', 'abcd', ''])('refuses exp_year %p', (expYear) => {
    expect(fieldsOf({ expYear })).toEqual(['exp_year']);
  });

  it('refuses a year more than 20 years ahead', () => {
    expect(fieldsOf({ expYear: 2045 })).toEqual([]);
    expect(fieldsOf({ expYear: 2046 })).toEqual(['exp_year']);
  });
});

describe('validateCard: cvc', () => {
  it.each([
    ['378282246310005', '1234', true],
    ['378282246310005', '123', false],
    ['4111111111111111', '123', true],
    ['4111111111111111', '1234', false],
    ['5555555555554444', '12', false],
    ['6011111111111117', '000', true],
    ['4111111111111111', '12a', false],
    ['4111111111111111', '', false],
  ])('%s with cvc %p: accepted %p', (number, cvc, accepted) => {
    expect(fieldsOf({ number, cvc })).toEqual(accepted ? [] : ['cvc']);
  });

  it('names the length the brand needs', () => {
    expect(validateCard({ ...VALID, number: '378282246310005', cvc: '123' }, NOW)).toEqual([
      { field: 'cvc', message: 'must be 4 digits for AMEX' },
    ]);
  });
});

describe('validateCard: postal_code', () => {
  it.each([undefined, null, '', '   ', '12345', '12345-6789', ' 02134 '])('accepts %p', (postalCode) => {
    expect(fieldsOf({ postalCode })).toEqual([]);
  });

  it.each(['1234', '123456', '12345-678', '12345-67890', '123456789', '12345 6789', 'ABCDE', 'SW1A 1AA'])(
    'refuses %p',
    (postalCode) => expect(fieldsOf({ postalCode })).toEqual(['postal_code']),
  );
});

it('validateCard reports every broken field at once', () => {
  expect(
    fieldsOf({ number: '4111111111111112', expMonth: 13, expYear: 'x', cvc: '1', postalCode: '1' }),
  ).toEqual(['card_number', 'exp_month', 'exp_year', 'cvc', 'postal_code']);
});

describe('funding, lastFour, test cards', () => {
  it('4000056655665556 is a Visa debit card', () => {
    expect(funding('4000056655665556')).toBe('debit');
    expect(funding('4000 0566 5566 5556')).toBe('debit');
    expect(detectBrand('4000056655665556')).toBe('VISA');
  });

  it.each([
    '4111111111111111',
    '5555555555554444',
    '378282246310005',
    '6011111111111117',
    '4242424242424242',
  ])('%s is credit', (pan) => expect(funding(pan)).toBe('credit'));

  it('lastFour gives the last four digits only', () => {
    expect(lastFour('4111 1111 1111 1234')).toBe('1234');
    expect(lastFour('378282246310005')).toBe('0005');
  });

  it('knows the test cards', () => {
    expect(isSandboxTestCard('4111-1111-1111-1111')).toBe(true);
    expect(isSandboxTestCard('4242424242424242')).toBe(false);
  });
});
