import { z } from 'zod';
import { amountProblemMessage, parseAmount } from '../../../platform/src/money/amount';
import { schemaFieldErrors } from '../../../platform/src/openapi/schema-gate';
import { CustomFieldValue, DateOnly, MoneyInput, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { plainTextProblem } from '../../../platform/src/validation/plain-text';
import { VERSIONED_UUID } from '../../../platform/src/validation/uuid';
import { customFieldValuesFormErrors } from '../../../merchants/src';
import {
  Level2DataSchema,
  Level3DataSchema,
  MAX_TRANSACTION_AMOUNT_MINOR,
  validateLevel2,
  validateLevel3,
} from '../../../transactions/src';
import { isVaultTokenFormat, VAULT_TOKEN_PATTERN } from '../../../vault/src';
import {
  CONTRACT_FREQUENCIES,
  CONTRACT_RAILS,
  ContractInvalid,
  DEFAULT_MAX_RETRIES,
  isCalendarDate,
  isContractFrequency,
  MAX_CONTRACT_INTERVAL,
  MAX_MAX_RETRIES,
  RecurringUpdateNotSupported,
  type ContractFrequency,
  type ContractRail,
  type FieldError,
} from '../domain';

/**
 * The body of `POST /contracts` (spec "Recurring contracts"; docs/recurring.md "Create"). Field
 * names are the spec's, plus `currency`, `interval`, `number_of_payments` and `max_retries`
 * (the spec's optional set is "not fully shown"); anything else is 400 naming the field. Every
 * rule that needs no lookup is checked here, all at once, against `today` (the platform clock's
 * UTC date): a `start_date` in the past, an `end_date` before `start_date`.
 */
export const CONTRACT_REQUEST_FIELDS = [
  'merchant_id',
  'payment_method_type',
  'payment_method_token',
  'amount',
  'currency',
  'frequency',
  'interval',
  'start_date',
  'end_date',
  'number_of_payments',
  'max_retries',
  'custom_fields',
  'level2_data',
  'level3_data',
] as const;

export const CONTRACT_PAYMENT_METHOD_TYPES: readonly ContractRail[] = CONTRACT_RAILS;
/** At most this many payments in one contract (ten years of daily ones). */
export const MAX_NUMBER_OF_PAYMENTS = 3660;
export const MAX_REASON_LENGTH = 500;

/**
 * The shape of `POST /contracts` as the OpenAPI document publishes it (docs/adr/0007): the
 * reader below names every broken rule in the API's words first, then this schema has the last
 * word on the shape (a null optional field is "not given", as the reader takes it).
 */
export const ContractRequestSchema = z
  .strictObject({
    merchant_id: Uuid,
    payment_method_type: z.enum(CONTRACT_RAILS),
    payment_method_token: z
      .string()
      .regex(VAULT_TOKEN_PATTERN)
      .meta({ description: 'A vault token whose scope allows RECURRING or INSTALLMENT.' }),
    amount: MoneyInput,
    currency: z.literal('USD').nullish(),
    frequency: z.enum(CONTRACT_FREQUENCIES),
    interval: z.int().min(1).max(MAX_CONTRACT_INTERVAL).nullish().meta({ description: 'Default 1.' }),
    start_date: DateOnly.meta({ description: 'Today or later (UTC).' }),
    end_date: DateOnly.nullish(),
    number_of_payments: z.int().min(1).max(MAX_NUMBER_OF_PAYMENTS).nullish(),
    max_retries: z
      .int()
      .min(0)
      .max(MAX_MAX_RETRIES)
      .nullish()
      .meta({ description: `Default ${DEFAULT_MAX_RETRIES}.` }),
    custom_fields: z.array(CustomFieldValue).nullish(),
    level2_data: Level2DataSchema.nullish(),
    level3_data: Level3DataSchema.nullish(),
  })
  .meta({ id: 'ContractRequest' });

/** The shape of `PATCH /contracts/{id}` (and of pause, resume and cancel's `reason`). */
export const ContractUpdateSchema = z
  .strictObject({
    next_charge_date: DateOnly.optional(),
    end_date: DateOnly.nullable().optional().meta({ description: 'null removes the end date.' }),
    reason: z.string().max(MAX_REASON_LENGTH).nullish(),
  })
  .meta({
    id: 'ContractUpdate',
    description:
      'Changes next_charge_date or end_date (at least one). Naming amount, frequency or max_retries is 422 recurring_update_not_supported: cancel and create another.',
  });

export interface ContractRequest {
  merchantId: string;
  paymentMethodType: ContractRail;
  vaultToken: string;
  amountMinor: bigint;
  currency: string;
  frequency: ContractFrequency;
  interval: number;
  startDate: string;
  endDate: string | null;
  numberOfPayments: number | null;
  maxRetries: number;
  /** Their form is checked here; their values against the merchant's configuration later (422). */
  customFields: { name: string; value: unknown }[] | null;
  level2Data: Record<string, unknown> | null;
  level3Data: Record<string, unknown> | null;
}

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;

class Fields {
  readonly errors: FieldError[] = [];

  constructor(private readonly body: Body) {}

  fail(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  required(field: string): unknown {
    const value = this.body[field];
    if (absent(value)) return this.fail(field, 'is required');
    return value;
  }

  integer(field: string, min: number, max: number, fallback: number | null): number | null {
    const value = this.body[field];
    if (absent(value)) return fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    return this.fail(field, `must be a whole number from ${min} to ${max}`) ?? fallback;
  }

  date(field: string, today: string, required: boolean): string | null {
    const value = required ? this.required(field) : this.body[field];
    if (absent(value)) return null;
    if (!isCalendarDate(value)) return this.fail(field, 'must be a date written YYYY-MM-DD') ?? null;
    if (value < today) return this.fail(field, `must not be in the past (today is ${today}, UTC)`) ?? null;
    return value;
  }

  reason(field: string): string | null {
    const value = this.body[field];
    if (absent(value)) return null;
    if (typeof value !== 'string') return this.fail(field, 'must be a string') ?? null;
    const trimmed = value.trim();
    if ([...trimmed].length > MAX_REASON_LENGTH) {
      return this.fail(field, `must be at most ${MAX_REASON_LENGTH} characters`) ?? null;
    }
    const problem = plainTextProblem(trimmed);
    if (problem) return this.fail(field, problem) ?? null;
    return trimmed === '' ? null : trimmed;
  }
}

/** The body as a request, or 400 {@link ContractInvalid} naming every broken field. */
export function parseContractRequest(body: unknown, today: string): ContractRequest {
  if (!isObject(body)) throw new ContractInvalid([{ field: 'body', message: 'must be a JSON object' }]);
  const f = new Fields(body);
  for (const key of Object.keys(body)) {
    if (!(CONTRACT_REQUEST_FIELDS as readonly string[]).includes(key))
      f.fail(key, 'is not a field of a contract');
  }

  const merchantId = f.required('merchant_id');
  if (merchantId !== undefined && (typeof merchantId !== 'string' || !VERSIONED_UUID.test(merchantId))) {
    f.fail('merchant_id', 'must be a UUID');
  }
  const method = f.required('payment_method_type');
  if (method !== undefined && !(CONTRACT_PAYMENT_METHOD_TYPES as readonly unknown[]).includes(method)) {
    f.fail('payment_method_type', `must be one of ${CONTRACT_PAYMENT_METHOD_TYPES.join(', ')}`);
  }
  const token = f.required('payment_method_token');
  if (token !== undefined && !isVaultTokenFormat(token)) {
    f.fail('payment_method_token', 'must be a vault token (cvt_…)');
  }

  let currency = 'USD';
  if (!absent(body.currency)) {
    if (body.currency === 'USD') currency = body.currency;
    else f.fail('currency', 'must be USD (the only currency served)');
  }
  let amountMinor = 0n;
  const amount = f.required('amount');
  if (amount !== undefined) {
    const parsed = parseAmount(amount, currency);
    if (!parsed.ok) f.fail('amount', amountProblemMessage(parsed.problem));
    else if (parsed.minor <= 0n) f.fail('amount', 'must be greater than zero');
    else if (parsed.minor > MAX_TRANSACTION_AMOUNT_MINOR) f.fail('amount', 'must be at most 999999.99');
    else amountMinor = parsed.minor;
  }

  const frequency = f.required('frequency');
  if (frequency !== undefined && !isContractFrequency(frequency)) {
    f.fail('frequency', `must be one of ${CONTRACT_FREQUENCIES.join(', ')}`);
  }
  const interval = f.integer('interval', 1, MAX_CONTRACT_INTERVAL, 1) ?? 1;
  const numberOfPayments = f.integer('number_of_payments', 1, MAX_NUMBER_OF_PAYMENTS, null);
  const maxRetries = f.integer('max_retries', 0, MAX_MAX_RETRIES, DEFAULT_MAX_RETRIES) ?? DEFAULT_MAX_RETRIES;

  const startDate = f.date('start_date', today, true);
  const endDate = f.date('end_date', today, false);
  if (startDate !== null && endDate !== null && endDate < startDate) {
    f.fail('end_date', 'must not be before start_date');
  }

  f.errors.push(...customFieldValuesFormErrors(body.custom_fields));
  f.errors.push(...validateLevel2(body.level2_data));
  f.errors.push(...validateLevel3(body.level3_data, currency, amountMinor > 0n ? amountMinor : null));

  if (f.errors.length > 0) throw new ContractInvalid(f.errors);
  const shape = schemaFieldErrors(ContractRequestSchema, body);
  if (shape.length > 0) throw new ContractInvalid(shape);
  return {
    merchantId: (merchantId as string).toLowerCase(),
    paymentMethodType: method as ContractRail,
    vaultToken: token as string,
    amountMinor,
    currency,
    frequency: frequency as ContractFrequency,
    interval,
    startDate: startDate as string,
    endDate,
    numberOfPayments,
    maxRetries,
    customFields: absent(body.custom_fields)
      ? null
      : (body.custom_fields as { name: string; value: unknown }[]),
    level2Data: absent(body.level2_data) ? null : (body.level2_data as Record<string, unknown>),
    level3Data: absent(body.level3_data) ? null : (body.level3_data as Record<string, unknown>),
  };
}

/** What a PATCH changes: left out means unchanged; `endDate: null` removes the end date. */
export interface ContractUpdateRequest {
  nextChargeDate?: string;
  endDate?: string | null;
  reason: string | null;
}

/** The fields a PATCH may never change (spec: cancel and recreate instead). */
export const FIXED_CONTRACT_FIELDS = ['amount', 'frequency', 'max_retries'] as const;
export const CONTRACT_UPDATE_FIELDS = ['next_charge_date', 'end_date', 'reason'] as const;

/**
 * The body of `PATCH /contracts/{id}`: `next_charge_date`, `end_date` (null removes it) and
 * `reason`. Naming `amount`, `frequency` or `max_retries` is 422 `recurring_update_not_supported`
 * (whatever else the body holds); any other field, a malformed value, a date in the past or a
 * body that changes nothing is 400.
 */
export function parseContractUpdate(body: unknown, today: string): ContractUpdateRequest {
  if (!isObject(body)) throw new ContractInvalid([{ field: 'body', message: 'must be a JSON object' }]);
  const fixed = FIXED_CONTRACT_FIELDS.filter((field) => field in body);
  if (fixed.length > 0) throw new RecurringUpdateNotSupported(fixed);
  const f = new Fields(body);
  for (const key of Object.keys(body)) {
    if (!(CONTRACT_UPDATE_FIELDS as readonly string[]).includes(key)) {
      f.fail(key, 'is not a field a contract PATCH takes (next_charge_date, end_date, reason)');
    }
  }
  const update: ContractUpdateRequest = { reason: f.reason('reason') };
  if (!absent(body.next_charge_date))
    update.nextChargeDate = f.date('next_charge_date', today, true) ?? undefined;
  else if (body.next_charge_date === null)
    f.fail('next_charge_date', 'must be a date (it cannot be removed)');
  if ('end_date' in body)
    update.endDate = body.end_date === null ? null : (f.date('end_date', today, true) ?? undefined);
  if (f.errors.length === 0 && update.nextChargeDate === undefined && update.endDate === undefined) {
    f.fail('body', 'must change next_charge_date or end_date');
  }
  if (f.errors.length > 0) throw new ContractInvalid(f.errors);
  const shape = schemaFieldErrors(ContractUpdateSchema, body);
  if (shape.length > 0) throw new ContractInvalid(shape);
  return update;
}
