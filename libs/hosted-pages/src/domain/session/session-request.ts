import { plainTextProblem } from '../../../../platform/src/validation/plain-text';
import { CURRENCY_EXPONENTS, amountProblemMessage, parseAmount } from '../../../../platform/src/money/amount';
import { USE_TYPES, type UseType } from '../../../../vault/src/domain';
import { HppCaptureModeReserved, HppSessionInvalid, type FieldError } from './session-errors';
import {
  AMOUNT_MODES,
  CAPTURE_MODES,
  HPP_PAYMENT_METHODS,
  HPP_RECURRING_FREQUENCIES,
  PAGE_PURPOSES,
  RENDERING_MODES,
  type AmountMode,
  type CaptureMode,
  type HppPaymentMethod,
  type HppRecurringFrequency,
  type PagePurpose,
  type RenderingMode,
} from './session-states';
import { UUID } from '../../../../platform/src/validation/uuid';
import { z } from 'zod';
import { MoneyInput, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import { schemaFieldErrors } from '../../../../platform/src/openapi/schema-gate';

/**
 * The body of `POST /hpp/sessions` (spec "Hosted payment pages", CONTRACT §4 and §8). Field names
 * are the spec's; nothing else is accepted (an unknown field is 400, CONTRACT §7). The spec shows
 * no return/cancel URLs, description or invoice fields, so there are none. `null` on an optional
 * field means omitted.
 *
 * Decisions:
 * 1. Defaults: `payment_method` card, `rendering_mode` redirect, `page_purpose` payment,
 *    `currency` USD; for a payment page `capture_mode` sale and `amount_mode` fixed.
 * 2. `amount` (a decimal string above zero) is required for a fixed-amount payment page and
 *    forbidden when `amount_mode` is customer_entered (the payer types it on the page).
 * 3. A `save_payment_method` page is vault-only: it charges nothing, so `amount`, `amount_mode`,
 *    `capture_mode` and `recurring_plan` are refused on it, and `save_payment_method: false`
 *    contradicts it.
 * 4. The session saves a payment method when `page_purpose` is save_payment_method, when
 *    `save_payment_method` is true, or when it has a `recurring_plan` (later charges use the
 *    stored token; spec "Recurring contracts"). Then `credential_usages` is required: a non-empty
 *    array of distinct `use_type` values (for card and ACH alike), and with a plan it must allow
 *    RECURRING or INSTALLMENT. When nothing is saved, `credential_usages` is refused.
 * 5. `recurring_plan`: payment pages with a fixed amount only. `recurring_amount` (> 0) and
 *    `frequency` (daily … annually) required; `interval` integer ≥ 1 (default 1);
 *    `number_of_payments` integer ≥ 2 or omitted (open-ended). The page's payment is the plan's
 *    first: `amount` must equal `initial_charge_amount` when given, else `recurring_amount` (the
 *    first period).
 * 6. `capture_mode: authorization` is card only, and a well-formed card one is 501
 *    (HppCaptureModeReserved: card AUTHORIZATION is reserved). `customer_id` is a UUID (that it belongs to the
 *    merchant is the handler's check). `custom_fields`: at most 20 `{name, value}` strings, names
 *    non-blank (≤ 64) and distinct, values ≤ 255 characters; the merchant's field definitions
 *    are checked by the handler.
 */
export interface HppRecurringPlan {
  recurringAmountMinor: bigint;
  frequency: HppRecurringFrequency;
  interval: number;
  /** null: open-ended. */
  numberOfPayments: number | null;
  /** null: not given (the first charge is the session's `amount`). */
  initialChargeAmountMinor: bigint | null;
}

export interface HppCustomField {
  name: string;
  value: string;
}

export interface HppSessionRequest {
  merchantId: string;
  paymentMethod: HppPaymentMethod;
  renderingMode: RenderingMode;
  pagePurpose: PagePurpose;
  /** null on a save_payment_method page. */
  captureMode: CaptureMode | null;
  /** null on a save_payment_method page. */
  amountMode: AmountMode | null;
  /** Minor units; null unless a fixed-amount payment page. */
  amountMinor: bigint | null;
  currency: string;
  /** Whether completion mints a vault entry (decision 4). */
  savesPaymentMethod: boolean;
  /** Empty when nothing is saved. */
  credentialUsages: UseType[];
  customerId: string | null;
  recurringPlan: HppRecurringPlan | null;
  customFields: HppCustomField[];
}

export const HPP_SESSION_REQUEST_FIELDS = [
  'merchant_id',
  'amount',
  'currency',
  'payment_method',
  'rendering_mode',
  'capture_mode',
  'amount_mode',
  'page_purpose',
  'save_payment_method',
  'credential_usages',
  'customer_id',
  'recurring_plan',
  'custom_fields',
] as const;

export const RECURRING_PLAN_FIELDS = [
  'recurring_amount',
  'frequency',
  'interval',
  'number_of_payments',
  'initial_charge_amount',
] as const;

export const CUSTOM_FIELD_LIMITS = { maxFields: 20, nameMax: 64, valueMax: 255 } as const;

/**
 * The body's shape as a schema (docs/adr/0007-openapi-from-code.md). The rules between fields
 * (decisions 2 to 6) are checked below.
 */
export const HppSessionRequestSchema = z
  .strictObject({
    merchant_id: Uuid,
    amount: MoneyInput.nullish().meta({
      description: 'Required for a fixed-amount payment page, refused otherwise.',
    }),
    currency: z.enum(Object.keys(CURRENCY_EXPONENTS) as [string, ...string[]]).nullish(),
    payment_method: z.enum(HPP_PAYMENT_METHODS).nullish().meta({ description: 'Default `card`.' }),
    rendering_mode: z.enum(RENDERING_MODES).nullish().meta({ description: 'Default `redirect`.' }),
    capture_mode: z
      .enum(CAPTURE_MODES)
      .nullish()
      .meta({ description: 'Default `sale`; `authorization` is reserved (501).' }),
    amount_mode: z.enum(AMOUNT_MODES).nullish().meta({ description: 'Default `fixed`.' }),
    page_purpose: z.enum(PAGE_PURPOSES).nullish().meta({ description: 'Default `payment`.' }),
    save_payment_method: z.boolean().nullish(),
    credential_usages: z.array(z.enum(USE_TYPES)).min(1).nullish().meta({
      description: 'Required (distinct values) when the session saves a payment method, refused otherwise.',
    }),
    customer_id: Uuid.nullish(),
    recurring_plan: z
      .strictObject({
        recurring_amount: MoneyInput,
        frequency: z.enum(HPP_RECURRING_FREQUENCIES),
        interval: z.int().min(1).nullish(),
        number_of_payments: z.int().min(2).nullish(),
        initial_charge_amount: MoneyInput.nullish(),
      })
      .nullish(),
    custom_fields: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(CUSTOM_FIELD_LIMITS.nameMax),
          value: z.string().max(CUSTOM_FIELD_LIMITS.valueMax),
        }),
      )
      .max(CUSTOM_FIELD_LIMITS.maxFields)
      .nullish(),
  })
  .meta({ id: 'HppSessionRequest' });

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (value: unknown): boolean => value !== undefined && value !== null;
const oneOf = <T extends string>(values: readonly T[]) => `must be one of ${values.join(', ')}`;

class Reader {
  readonly errors: FieldError[] = [];

  fail(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  unknownFields(body: Body, known: readonly string[], prefix = ''): void {
    for (const key of Object.keys(body)) {
      if (!known.includes(key)) this.fail(`${prefix}${key}`, 'is not a known field');
    }
  }

  forbidden(body: Body, field: string, why: string): void {
    if (present(body[field])) this.fail(field, why);
  }

  enumValue<T extends string>(field: string, value: unknown, values: readonly T[], fallback: T): T {
    if (!present(value)) return fallback;
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    return this.fail(field, oneOf(values)) ?? fallback;
  }

  uuid(field: string, value: unknown, required: boolean): string | null {
    if (!present(value)) return required ? (this.fail(field, 'is required') ?? null) : null;
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    return this.fail(field, 'must be a UUID') ?? null;
  }

  /** A positive decimal-string amount in `currency`'s minor units. */
  amount(field: string, value: unknown, currency: string): bigint | null {
    if (!present(value)) return this.fail(field, 'is required') ?? null;
    const parsed = parseAmount(value, currency);
    if (!parsed.ok) return this.fail(field, amountProblemMessage(parsed.problem)) ?? null;
    if (parsed.minor <= 0n) return this.fail(field, 'must be greater than zero') ?? null;
    return parsed.minor;
  }

  integer(field: string, value: unknown, min: number): number | null {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return value;
    return this.fail(field, `must be an integer of at least ${min}`) ?? null;
  }
}

function read(body: unknown): { errors: FieldError[]; request: HppSessionRequest | null } {
  const r = new Reader();
  if (!isObject(body))
    return { errors: [{ field: 'body', message: 'must be a JSON object' }], request: null };
  r.unknownFields(body, HPP_SESSION_REQUEST_FIELDS);

  const merchantId = r.uuid('merchant_id', body.merchant_id, true);
  const paymentMethod = r.enumValue('payment_method', body.payment_method, HPP_PAYMENT_METHODS, 'card');
  const renderingMode = r.enumValue('rendering_mode', body.rendering_mode, RENDERING_MODES, 'redirect');
  const pagePurpose = r.enumValue('page_purpose', body.page_purpose, PAGE_PURPOSES, 'payment');
  const customerId = r.uuid('customer_id', body.customer_id, false);

  let currency = 'USD';
  if (present(body.currency)) {
    if (typeof body.currency === 'string' && CURRENCY_EXPONENTS[body.currency] !== undefined) {
      currency = body.currency;
    } else {
      r.fail('currency', `must be one of ${Object.keys(CURRENCY_EXPONENTS).join(', ')}`);
    }
  }

  let savePaymentMethod: boolean | null = null;
  if (present(body.save_payment_method)) {
    if (typeof body.save_payment_method === 'boolean') savePaymentMethod = body.save_payment_method;
    else r.fail('save_payment_method', 'must be a boolean');
  }

  const payment = pagePurpose === 'payment';
  let captureMode: CaptureMode | null = null;
  let amountMode: AmountMode | null = null;
  let amountMinor: bigint | null = null;
  if (payment) {
    captureMode = r.enumValue('capture_mode', body.capture_mode, CAPTURE_MODES, 'sale');
    if (captureMode === 'authorization' && paymentMethod === 'ach') {
      r.fail('capture_mode', 'authorization is for card sessions only (ACH has no authorization)');
    }
    amountMode = r.enumValue('amount_mode', body.amount_mode, AMOUNT_MODES, 'fixed');
    if (amountMode === 'fixed') amountMinor = r.amount('amount', body.amount, currency);
    else r.forbidden(body, 'amount', 'must be omitted when amount_mode is customer_entered');
  } else {
    const why = 'must be omitted when page_purpose is save_payment_method (nothing is charged)';
    for (const field of ['amount', 'amount_mode', 'capture_mode', 'recurring_plan'])
      r.forbidden(body, field, why);
    if (savePaymentMethod === false) {
      r.fail('save_payment_method', 'must not be false when page_purpose is save_payment_method');
    }
  }

  let recurringPlan: HppRecurringPlan | null = null;
  if (payment && present(body.recurring_plan)) {
    recurringPlan = readPlan(r, body.recurring_plan, currency, amountMode, amountMinor);
    if (savePaymentMethod === false) {
      r.fail(
        'save_payment_method',
        'must not be false with a recurring_plan (the plan charges the saved method)',
      );
    }
  }

  const withPlan = payment && present(body.recurring_plan);
  const saves = !payment || savePaymentMethod === true || withPlan;
  let credentialUsages: UseType[] = [];
  if (saves) {
    credentialUsages = readUsages(r, body.credential_usages);
    if (
      withPlan &&
      credentialUsages.length > 0 &&
      !credentialUsages.some((usage) => usage === 'RECURRING' || usage === 'INSTALLMENT')
    ) {
      r.fail('credential_usages', 'must include RECURRING or INSTALLMENT with a recurring_plan');
    }
  } else {
    r.forbidden(body, 'credential_usages', 'must be omitted when the session saves no payment method');
  }

  const customFields = readCustomFields(r, body.custom_fields);

  if (r.errors.length > 0 || merchantId === null) return { errors: r.errors, request: null };
  return {
    errors: [],
    request: {
      merchantId,
      paymentMethod,
      renderingMode,
      pagePurpose,
      captureMode,
      amountMode,
      amountMinor,
      currency,
      savesPaymentMethod: saves,
      credentialUsages,
      customerId,
      recurringPlan,
      customFields,
    },
  };
}

function readPlan(
  r: Reader,
  value: unknown,
  currency: string,
  amountMode: AmountMode | null,
  amountMinor: bigint | null,
): HppRecurringPlan | null {
  if (!isObject(value)) return r.fail('recurring_plan', 'must be an object') ?? null;
  r.unknownFields(value, RECURRING_PLAN_FIELDS, 'recurring_plan.');
  if (amountMode !== 'fixed') r.fail('recurring_plan', 'requires amount_mode fixed');
  const recurringAmountMinor = r.amount('recurring_plan.recurring_amount', value.recurring_amount, currency);
  let frequency: HppRecurringFrequency | null = null;
  if (!present(value.frequency)) r.fail('recurring_plan.frequency', 'is required');
  else
    frequency = r.enumValue('recurring_plan.frequency', value.frequency, HPP_RECURRING_FREQUENCIES, 'daily');
  const interval = present(value.interval) ? r.integer('recurring_plan.interval', value.interval, 1) : 1;
  const numberOfPayments = present(value.number_of_payments)
    ? r.integer('recurring_plan.number_of_payments', value.number_of_payments, 2)
    : null;
  let initialChargeAmountMinor: bigint | null = null;
  if (present(value.initial_charge_amount)) {
    initialChargeAmountMinor = r.amount(
      'recurring_plan.initial_charge_amount',
      value.initial_charge_amount,
      currency,
    );
    if (
      initialChargeAmountMinor !== null &&
      amountMinor !== null &&
      initialChargeAmountMinor !== amountMinor
    ) {
      r.fail('recurring_plan.initial_charge_amount', 'must equal amount (the page charges amount now)');
    }
  } else if (recurringAmountMinor !== null && amountMinor !== null && recurringAmountMinor !== amountMinor) {
    // Without an initial amount the page's payment is the plan's first period.
    r.fail(
      'amount',
      'must equal recurring_plan.recurring_amount, or recurring_plan.initial_charge_amount when given',
    );
  }
  if (recurringAmountMinor === null || frequency === null || interval === null) return null;
  return { recurringAmountMinor, frequency, interval, numberOfPayments, initialChargeAmountMinor };
}

function readUsages(r: Reader, value: unknown): UseType[] {
  const why = 'is required when the session saves a payment method';
  if (!present(value)) return r.fail('credential_usages', why) ?? [];
  if (!Array.isArray(value) || value.length === 0) {
    return r.fail('credential_usages', `must be a non-empty array of ${USE_TYPES.join(', ')}`) ?? [];
  }
  const usages: UseType[] = [];
  value.forEach((usage: unknown, index) => {
    if (typeof usage !== 'string' || !(USE_TYPES as readonly string[]).includes(usage)) {
      r.fail(`credential_usages[${index}]`, oneOf(USE_TYPES));
    } else if (usages.includes(usage as UseType)) {
      r.fail(`credential_usages[${index}]`, 'is a duplicate');
    } else {
      usages.push(usage as UseType);
    }
  });
  return usages;
}

function readCustomFields(r: Reader, value: unknown): HppCustomField[] {
  if (!present(value)) return [];
  const { maxFields, nameMax, valueMax } = CUSTOM_FIELD_LIMITS;
  if (!Array.isArray(value)) return r.fail('custom_fields', 'must be an array of {name, value}') ?? [];
  if (value.length > maxFields)
    return r.fail('custom_fields', `must have at most ${maxFields} entries`) ?? [];
  const fields: HppCustomField[] = [];
  value.forEach((entry: unknown, index) => {
    const at = `custom_fields[${index}]`;
    if (!isObject(entry)) return r.fail(at, 'must be an object {name, value}');
    r.unknownFields(entry, ['name', 'value'], `${at}.`);
    const { name, value: text } = entry;
    if (typeof name !== 'string' || name.trim() === '') r.fail(`${at}.name`, 'must be a non-blank string');
    else if ([...name].length > nameMax) r.fail(`${at}.name`, `must be at most ${nameMax} characters`);
    else if (plainTextProblem(name)) r.fail(`${at}.name`, plainTextProblem(name) as string);
    else if (fields.some((field) => field.name === name)) r.fail(`${at}.name`, 'is a duplicate');
    if (typeof text !== 'string') r.fail(`${at}.value`, 'must be a string');
    else if ([...text].length > valueMax) r.fail(`${at}.value`, `must be at most ${valueMax} characters`);
    else if (plainTextProblem(text)) r.fail(`${at}.value`, plainTextProblem(text) as string);
    if (typeof name === 'string' && typeof text === 'string') fields.push({ name, value: text });
    return undefined;
  });
  return fields;
}

/** Every broken rule of a `POST /hpp/sessions` body, by wire path (`recurring_plan.frequency`). */
export function validateSessionRequest(body: unknown): FieldError[] {
  return read(body).errors;
}

/** The body as a request, or 400 {@link HppSessionInvalid} naming every broken rule. */
export function parseSessionRequest(body: unknown): HppSessionRequest {
  const { errors, request } = read(body);
  if (errors.length > 0 || request === null) throw new HppSessionInvalid(errors);
  // The schema the document publishes has the last word on the shape.
  const shape = schemaFieldErrors(HppSessionRequestSchema, body);
  if (shape.length > 0) throw new HppSessionInvalid(shape);
  if (request.captureMode === 'authorization') throw new HppCaptureModeReserved();
  return request;
}
