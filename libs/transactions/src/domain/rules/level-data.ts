import { amountProblemMessage, formatAmount, parseAmount } from '../../../../platform/src/money/amount';
import { compareMinor, percentOfMinor, subtractMinor, sumMinor } from '../../../../platform/src/money/money';
import { formatScaledDecimal, parseScaledDecimal, type DecimalProblem } from './decimal';
import type { FieldError } from './field-error';
import { isIsoAlpha3CountryCode } from '../../../../configuration/src/domain';
import { codePoints, isAbsent, isPlainObject, unknownKeys } from './shape';

/*
 * Level 2 and level 3 (commercial-card) data of a transaction. The spec names the fields but not
 * their sizes; the sizes below are those of the card networks' level 2/3 records, so whatever is
 * accepted can be forwarded to a processor without truncation. Free text is printable ASCII for
 * the same reason: those records carry no other characters.
 *
 * | field                                             | rule                                              |
 * |---------------------------------------------------|---------------------------------------------------|
 * | level2 po_number                                  | required; 1–25 printable ASCII, not blank         |
 * | level2 merchant_zip                               | required; US ZIP, 12345 or 12345-6789             |
 * | ship_from_zip, destination_zip                    | 1–10 letters/digits, inner spaces or hyphens      |
 * | destination_country_code                          | assigned ISO 3166-1 alpha-3, upper case (USA)     |
 * | invoice_number, order_number                      | 1–25 printable ASCII                              |
 * | duty_amount, freight_amount, discount_amount      | money                                             |
 * | line_items                                        | required; 1–99 line items                         |
 * | item product_code, commodity_code                 | 1–12 printable ASCII                              |
 * | item description                                  | required; 1–35 printable ASCII                    |
 * | item upc                                          | 1–12 digits                                       |
 * | item invoice_number                               | 1–25 printable ASCII                              |
 * | item tax_type                                     | 1–4 printable ASCII                               |
 * | item quantity                                     | required; decimal string > 0, ≤ 4 decimals, < 10^8 |
 * | item unit_of_measure                              | 1–12 printable ASCII                              |
 * | item unit_price, total_amount                     | required; money                                   |
 * | item discount_amount, tax_amount, extended_amount | money                                             |
 * | item freight_amount, duty_amount                  | money                                             |
 * | item tax_rate                                     | decimal string percentage 0–100, ≤ 4 decimals     |
 * | item tax_included                                 | boolean, false when left out                      |
 *
 * "money" is a decimal string read by parseAmount in the transaction's currency. An optional
 * field that is left out or JSON null is "not given"; any other key is an error.
 *
 * destination_country_code is alpha-3 (not the alpha-2 the customer addresses use) because the
 * networks' level 3 records carry the three-letter code; taking it as sent avoids a mapping step.
 *
 * Line arithmetic, exact in minor units, each line on its own:
 *   extended_amount = unit_price × quantity, rounded half-up to the minor unit
 *   total_amount    = extended_amount − discount_amount + tax_amount + freight_amount + duty_amount
 * where tax_amount counts as 0 when tax_included is true (it is inside unit_price already) and a
 * money field left out counts as 0. tax_amount is not recomputed from tax_rate: the taxable base
 * (before or after discount, with or without freight) varies by jurisdiction.
 */

export interface Level2Data {
  po_number: string;
  merchant_zip: string;
}

export interface Level3LineItem {
  product_code?: string;
  commodity_code?: string;
  description: string;
  upc?: string;
  invoice_number?: string;
  tax_type?: string;
  quantity: string;
  unit_of_measure?: string;
  unit_price: string;
  discount_amount?: string;
  total_amount: string;
  tax_amount?: string;
  tax_rate?: string;
  /** Always present in the stored form (computed when the partner left it out). */
  extended_amount: string;
  freight_amount?: string;
  duty_amount?: string;
  tax_included: boolean;
}

export interface Level3Data {
  ship_from_zip?: string;
  destination_zip?: string;
  destination_country_code?: string;
  invoice_number?: string;
  order_number?: string;
  duty_amount?: string;
  freight_amount?: string;
  discount_amount?: string;
  line_items: Level3LineItem[];
}

/** As a partner may send it: optional fields may also be null. */
type Loose<T> = { [K in keyof T]?: T[K] | null };
export type Level2DataInput = Level2Data;
export type Level3LineItemInput = Loose<Level3LineItem>;
export type Level3DataInput = Loose<Omit<Level3Data, 'line_items'>> & {
  line_items: readonly Level3LineItemInput[];
};

export const LEVEL3_MAX_LINE_ITEMS = 99;
const QUANTITY_SCALE = 4;
const QUANTITY_MAX_INTEGER_DIGITS = 8;
const TAX_RATE_SCALE = 4;
const HUNDRED_PERCENT = 100n * 10n ** BigInt(TAX_RATE_SCALE);

type Kind = 'text' | 'money' | 'quantity' | 'rate' | 'flag';
type Check = (value: unknown, currency: string) => string | null;
interface FieldRule {
  kind: Kind;
  check: Check;
  required?: boolean;
}
type Rules = Readonly<Record<string, FieldRule>>;

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const US_ZIP = /^[0-9]{5}(?:-[0-9]{4})?$/;
const POSTAL_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;
const UPC = /^[0-9]{1,12}$/;

function text(max: number, required = false): FieldRule {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.trim() === '') return 'must not be blank';
    if (codePoints(value) > max) return `must be at most ${max} characters`;
    return PRINTABLE_ASCII.test(value) ? null : 'must contain printable ASCII characters only';
  };
  return { kind: 'text', check, required };
}

function pattern(regex: RegExp, message: string, max = Infinity): FieldRule {
  const check: Check = (value) => {
    if (typeof value !== 'string') return 'must be a string';
    return value.length <= max && regex.test(value) ? null : message;
  };
  return { kind: 'text', check };
}

function money(required = false): FieldRule {
  const check: Check = (value, currency) => {
    const parsed = parseAmount(value, currency);
    return parsed.ok ? null : amountProblemMessage(parsed.problem);
  };
  return { kind: 'money', check, required };
}

function decimalMessage(problem: DecimalProblem, example: string, tooBig: string): string {
  if (problem === 'not_a_string') return `must be a decimal string such as "${example}", not a number`;
  if (problem === 'malformed') return `must be a decimal string such as "${example}"`;
  return problem === 'too_many_decimals' ? 'must have at most 4 decimals' : tooBig;
}

const parseQuantity = (value: unknown) =>
  parseScaledDecimal(value, QUANTITY_SCALE, QUANTITY_MAX_INTEGER_DIGITS);
const parseTaxRate = (value: unknown) => parseScaledDecimal(value, TAX_RATE_SCALE, 3);

const quantity: FieldRule = {
  kind: 'quantity',
  required: true,
  check: (value) => {
    const parsed = parseQuantity(value);
    if (!parsed.ok) return decimalMessage(parsed.problem, '2.5', 'must be less than 100000000');
    return parsed.scaled > 0n ? null : 'must be greater than 0';
  },
};

const taxRate: FieldRule = {
  kind: 'rate',
  check: (value) => {
    const parsed = parseTaxRate(value);
    const range = 'must be a percentage from 0 to 100';
    if (!parsed.ok) return decimalMessage(parsed.problem, '8.25', range);
    return parsed.scaled <= HUNDRED_PERCENT ? null : range;
  },
};

const flag: FieldRule = {
  kind: 'flag',
  check: (value) => (typeof value === 'boolean' ? null : 'must be true or false'),
};

const POSTAL_MESSAGE = 'must be a postal code of at most 10 letters and digits, with inner spaces or hyphens';

const LEVEL2_RULES: Rules = {
  po_number: text(25, true),
  merchant_zip: { ...pattern(US_ZIP, 'must be a US ZIP code (12345 or 12345-6789)'), required: true },
};

const LEVEL3_RULES: Rules = {
  ship_from_zip: pattern(POSTAL_CODE, POSTAL_MESSAGE, 10),
  destination_zip: pattern(POSTAL_CODE, POSTAL_MESSAGE, 10),
  destination_country_code: {
    kind: 'text',
    check: (value) =>
      isIsoAlpha3CountryCode(value)
        ? null
        : 'must be an ISO 3166-1 alpha-3 country code in upper case (e.g. USA)',
  },
  invoice_number: text(25),
  order_number: text(25),
  duty_amount: money(),
  freight_amount: money(),
  discount_amount: money(),
};

const LINE_ITEM_RULES: Rules = {
  product_code: text(12),
  commodity_code: text(12),
  description: text(35, true),
  upc: pattern(UPC, 'must be 1 to 12 digits'),
  invoice_number: text(25),
  tax_type: text(4),
  quantity,
  unit_of_measure: text(12),
  unit_price: money(true),
  discount_amount: money(),
  total_amount: money(true),
  tax_amount: money(),
  tax_rate: taxRate,
  extended_amount: money(),
  freight_amount: money(),
  duty_amount: money(),
  tax_included: flag,
};

function checkFields(
  input: Record<string, unknown>,
  rules: Rules,
  path: string,
  currency: string,
  otherKeys: readonly string[] = [],
): FieldError[] {
  const errors = unknownKeys(input, [...Object.keys(rules), ...otherKeys], path);
  for (const [key, rule] of Object.entries(rules)) {
    const value = input[key];
    const message = isAbsent(value) ? (rule.required ? 'is required' : null) : rule.check(value, currency);
    if (message) errors.push({ field: `${path}.${key}`, message });
  }
  return errors;
}

/** Minor units of a money field already known to be well-formed; 0 when it was left out. */
function minorOf(value: unknown, currency: string): bigint {
  if (isAbsent(value)) return 0n;
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) throw new RangeError(`not an amount: ${String(value)}`);
  return parsed.minor;
}

/** Like {@link minorOf} but null instead of throwing, for checks that run over unchecked input. */
function minorOrNull(value: unknown, currency: string): bigint | null {
  if (isAbsent(value)) return 0n;
  const parsed = parseAmount(value, currency);
  return parsed.ok ? parsed.minor : null;
}

/**
 * unit_price × quantity, rounded half-up once. The quantity is read as an integer count of
 * 1/10,000ths, which is exactly the scale of basis points, so percentOfMinor multiplies by it
 * without a float and rounds the exact product; quantity < 10^8 keeps that count (< 10^12) a
 * safe integer.
 */
export function extendedAmountMinor(unitPriceMinor: bigint, quantityText: string, currency = 'USD'): bigint {
  const parsed = parseQuantity(quantityText);
  if (!parsed.ok) throw new RangeError(`not a quantity: ${quantityText}`);
  return percentOfMinor(unitPriceMinor, Number(parsed.scaled), currency);
}

/** The line total the formula in the header comment gives; negative when the discount is too big. */
export function expectedLineTotalMinor(
  line: {
    extended: bigint;
    discount: bigint;
    tax: bigint;
    taxIncluded: boolean;
    freight: bigint;
    duty: bigint;
  },
  currency = 'USD',
): bigint {
  const charges = sumMinor(
    [line.extended, line.taxIncluded ? 0n : line.tax, line.freight, line.duty],
    currency,
  );
  return subtractMinor(charges, line.discount, currency);
}

function lineArithmetic(item: Record<string, unknown>, currency: string, path: string): FieldError[] {
  const amount = (key: string) => minorOf(item[key], currency);
  const extended = extendedAmountMinor(amount('unit_price'), item.quantity as string, currency);
  if (!isAbsent(item.extended_amount) && compareMinor(amount('extended_amount'), extended, currency) !== 0) {
    const message = `must equal unit_price × quantity rounded half-up to the minor unit: expected "${formatAmount(extended, currency)}"`;
    // The total is then judged against a value the partner did not send, so it is not checked.
    return [{ field: `${path}.extended_amount`, message }];
  }
  const taxIncluded = item.tax_included === true;
  const expected = expectedLineTotalMinor(
    {
      extended,
      discount: amount('discount_amount'),
      tax: amount('tax_amount'),
      taxIncluded,
      freight: amount('freight_amount'),
      duty: amount('duty_amount'),
    },
    currency,
  );
  if (compareMinor(expected, 0n, currency) < 0) {
    const message = 'must not exceed extended_amount plus tax_amount, freight_amount and duty_amount';
    return [{ field: `${path}.discount_amount`, message }];
  }
  if (compareMinor(amount('total_amount'), expected, currency) === 0) return [];
  const formula = taxIncluded
    ? 'extended_amount − discount_amount + freight_amount + duty_amount (tax_amount is included)'
    : 'extended_amount − discount_amount + tax_amount + freight_amount + duty_amount';
  return [
    {
      field: `${path}.total_amount`,
      message: `must equal ${formula}: expected "${formatAmount(expected, currency)}"`,
    },
  ];
}

function validateLineItem(item: unknown, currency: string, path: string): FieldError[] {
  if (!isPlainObject(item)) return [{ field: path, message: 'must be an object' }];
  const errors = checkFields(item, LINE_ITEM_RULES, path, currency);
  // Arithmetic on a malformed value would only repeat the error already reported.
  return errors.length > 0 ? errors : lineArithmetic(item, currency, path);
}

function validateLineItems(items: unknown, currency: string, path: string): FieldError[] {
  if (isAbsent(items)) return [{ field: path, message: 'is required' }];
  if (!Array.isArray(items)) return [{ field: path, message: 'must be an array of line items' }];
  if (items.length < 1 || items.length > LEVEL3_MAX_LINE_ITEMS) {
    return [{ field: path, message: `must have 1 to ${LEVEL3_MAX_LINE_ITEMS} items` }];
  }
  return items.flatMap((item, index) => validateLineItem(item, currency, `${path}[${index}]`));
}

/**
 * Line totals plus the order's freight and duty, less its discount, may not come to more than
 * the transaction amount. Skipped when any of those values is malformed (reported elsewhere).
 */
function checkAgainstAmount(
  input: Record<string, unknown>,
  currency: string,
  amountMinor: bigint,
  path: string,
): FieldError[] {
  const items = Array.isArray(input.line_items) ? input.line_items : [];
  const totals = items.map((item) => (isPlainObject(item) ? minorOrNull(item.total_amount, currency) : null));
  const [freight, duty, discount] = ['freight_amount', 'duty_amount', 'discount_amount'].map((key) =>
    minorOrNull(input[key], currency),
  );
  const parts = [...totals, freight, duty, discount];
  if (items.length === 0 || parts.some((part) => part === null)) return [];
  const charges = sumMinor([...(totals as bigint[]), freight as bigint, duty as bigint], currency);
  const net = subtractMinor(charges, discount as bigint, currency);
  if (compareMinor(net, amountMinor, currency) <= 0) return [];
  const message =
    `line-item total_amount values plus freight_amount and duty_amount less discount_amount come to ` +
    `"${formatAmount(net, currency)}", more than the transaction amount "${formatAmount(amountMinor, currency)}"`;
  return [{ field: `${path}.line_items`, message }];
}

/** `level2_data`; left out or null means none was sent, which is fine (it is optional). */
export function validateLevel2(input: unknown, path = 'level2_data'): FieldError[] {
  if (isAbsent(input)) return [];
  if (!isPlainObject(input)) return [{ field: path, message: 'must be an object' }];
  return checkFields(input, LEVEL2_RULES, path, 'USD');
}

/**
 * `level3_data` in the transaction's `currency`; left out or null is fine. When
 * `transactionAmountMinor` is given the level 3 amounts must also fit within it (null skips that,
 * e.g. for a REFUND whose amount is derived later).
 */
export function validateLevel3(
  input: unknown,
  currency: string,
  transactionAmountMinor: bigint | null,
  path = 'level3_data',
): FieldError[] {
  if (isAbsent(input)) return [];
  if (!isPlainObject(input)) return [{ field: path, message: 'must be an object' }];
  const errors = [
    ...checkFields(input, LEVEL3_RULES, path, currency, ['line_items']),
    ...validateLineItems(input.line_items, currency, `${path}.line_items`),
  ];
  if (transactionAmountMinor === null) return errors;
  return [...errors, ...checkAgainstAmount(input, currency, transactionAmountMinor, path)];
}

function assertValid(errors: FieldError[], what: string): void {
  if (errors.length === 0) return;
  const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  throw new RangeError(`${what} must be validated first: ${detail}`);
}

function canonical(rule: FieldRule, value: unknown, currency: string): string | boolean {
  switch (rule.kind) {
    case 'money':
      return formatAmount(minorOf(value, currency), currency);
    case 'quantity':
      return formatScaledDecimal((parseQuantity(value) as { scaled: bigint }).scaled, QUANTITY_SCALE);
    case 'rate':
      return formatScaledDecimal((parseTaxRate(value) as { scaled: bigint }).scaled, TAX_RATE_SCALE);
    case 'flag':
      return value === true;
    default:
      return value as string;
  }
}

/** The given fields in rule order, canonical; fields left out (or null) stay out. */
function canonicalFields(
  input: Record<string, unknown>,
  rules: Rules,
  currency: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(rules)) {
    if (!isAbsent(input[key])) out[key] = canonical(rule, input[key], currency);
  }
  return out;
}

/** The stored form of a level 2 object that {@link validateLevel2} accepted. */
export function toLevel2Data(input: Level2DataInput): Level2Data {
  assertValid(validateLevel2(input), 'level2_data');
  return { po_number: input.po_number, merchant_zip: input.merchant_zip };
}

function toLineItem(item: Level3LineItemInput, currency: string): Level3LineItem {
  const extended = extendedAmountMinor(minorOf(item.unit_price, currency), item.quantity as string, currency);
  const complete = {
    ...item,
    extended_amount: formatAmount(extended, currency),
    tax_included: item.tax_included === true,
  };
  return canonicalFields(complete, LINE_ITEM_RULES, currency) as unknown as Level3LineItem;
}

/**
 * The stored form of a level 3 object that {@link validateLevel3} accepted, for events and
 * responses: the same snake_case shape, amounts with exactly the currency's decimals ("5" →
 * "5.00"), quantity and tax_rate in their shortest exact form ("2.50" → "2.5"), every line's
 * extended_amount filled in and tax_included set. Fields that were not given stay out.
 */
export function toLevel3Data(input: Level3DataInput, currency = 'USD'): Level3Data {
  assertValid(validateLevel3(input, currency, null), 'level3_data');
  const header = canonicalFields(input, LEVEL3_RULES, currency);
  return { ...header, line_items: input.line_items.map((item) => toLineItem(item, currency)) } as Level3Data;
}
