import { z } from 'zod';
import { DateOnly, MoneyInput } from '../../../../platform/src/openapi/wire-schemas';
import { schemaFieldErrors } from '../../../../platform/src/openapi/schema-gate';
import { parseAmount } from '../../../../platform/src/money/amount';
import type { FieldError } from './fee-errors';
import {
  CARD_TYPES,
  CONVENIENCE_FEE_AMOUNT_TYPES,
  FEE_PAYMENT_METHODS,
  PRICING_MODELS,
  type CardType,
  type ConvenienceFeeTerms,
  type FeeProfileTerms,
} from './fee-events';
import { isCalendarDate } from '../../../../platform/src/validation/calendar-date';

export { isCalendarDate };

/**
 * Validation of the three fee bodies. Bodies arrive as `unknown` (parsed JSON) and are read
 * strictly: amounts are decimal strings (a JSON number is refused), rates are JSON integers (a
 * string is refused), flags are booleans, unknown fields are refused (CONTRACT §7). Every broken
 * rule is reported, each with the path of its field.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** 10%: no card or ACH rate of the platform is near it; a larger value is a typo (e.g. 2900 for 2.9%). */
export const MAX_RATE_BPS = 1000;
/** $10.00: per-transaction fixed fees of the fee profile. */
export const MAX_FIXED_FEE_MINOR = 1_000n;
/** $1,000.00: the ACH fee cap and the monthly fee. */
export const MAX_ACH_FEE_CAP_MINOR = 100_000n;
export const MAX_MONTHLY_FEE_MINOR = 100_000n;
/** $100.00: a convenience fee (fixed, or the floor and ceiling of a percentage one). */
export const MAX_CONVENIENCE_FEE_MINOR = 10_000n;
export const MAX_CONVENIENCE_FEE_PERCENT_BPS = 1000;
/** A surcharge rate must be a percentage (1 bp to 100%); the business caps are checked after. */
export const MAX_SURCHARGE_REQUEST_BPS = 10_000;

const MONEY_MESSAGES = {
  not_a_string: 'must be a decimal string such as "2.50", not a number',
  malformed: 'must be a decimal string such as "2.50"',
  no_decimal_point: 'must be a decimal string with a decimal point, such as "2.50" (never integer cents)',
  too_many_decimals: 'must have at most 2 decimals',
  unknown_currency: 'has an unsupported currency',
} as const;

const rate = (max: number) => z.int().min(0).max(max).meta({ description: 'Basis points (1 bp = 0.01%).' });

/** The shape of `PUT /merchants/{merchantId}/fee-profile` (docs/fees.md); rules beyond it below. */
export const FeeProfileRequestSchema = z
  .strictObject({
    pricing_model: z.enum(PRICING_MODELS),
    currency: z.literal('USD').nullish(),
    card_rate_bps: rate(MAX_RATE_BPS),
    card_fixed_fee: MoneyInput,
    tiered_rates: z
      .strictObject({ mid_qualified_bps: rate(MAX_RATE_BPS), non_qualified_bps: rate(MAX_RATE_BPS) })
      .nullish()
      .meta({ description: 'Required with pricing_model TIERED, refused otherwise.' }),
    cost_of_acceptance_bps: rate(MAX_RATE_BPS).nullish(),
    ach_rate_bps: rate(MAX_RATE_BPS),
    ach_fixed_fee: MoneyInput,
    ach_fee_cap: MoneyInput.nullish(),
    monthly_fee: MoneyInput,
    effective_date: DateOnly,
  })
  .meta({ id: 'FeeProfileRequest' });

/** The shape of `PUT /merchants/{merchantId}/fee-settings/convenience-fee`. */
export const ConvenienceFeeRequestSchema = z
  .strictObject({
    enabled: z.boolean(),
    amount_type: z
      .enum(CONVENIENCE_FEE_AMOUNT_TYPES)
      .nullish()
      .meta({ description: 'Required when enabled.' }),
    currency: z.literal('USD').nullish(),
    fixed_amount: MoneyInput.nullish().meta({ description: 'amount_type FIXED only.' }),
    percent_bps: z.int().min(1).max(MAX_CONVENIENCE_FEE_PERCENT_BPS).nullish().meta({
      description: 'amount_type PERCENT only.',
    }),
    min_amount: MoneyInput.nullish(),
    max_amount: MoneyInput.nullish(),
    applies_to: z.array(z.enum(FEE_PAYMENT_METHODS)).nullish(),
  })
  .meta({ id: 'ConvenienceFeeRequest' });

/** The shape of `PUT /merchants/{merchantId}/fee-settings/surcharge`. */
export const SurchargeRequestSchema = z
  .strictObject({
    enabled: z.boolean(),
    percent_bps: z
      .int()
      .min(1)
      .max(MAX_SURCHARGE_REQUEST_BPS)
      .nullish()
      .meta({ description: 'Required when enabled.' }),
    card_types: z
      .array(z.enum(CARD_TYPES))
      .nullish()
      .meta({ description: 'Only `credit` may be surcharged.' }),
  })
  .meta({ id: 'SurchargeRequest' });

/**
 * The body read by its reader (today's messages, every broken rule), then held to the schema the
 * document publishes: a body the schema refuses is refused even if the reader let it through.
 */
function gated<T>(schema: z.ZodType, body: unknown, parsed: Parsed<T>): Parsed<T> {
  if (!parsed.ok) return parsed;
  const shape = schemaFieldErrors(schema, body);
  return shape.length > 0 ? { ok: false, errors: shape } : parsed;
}

/** `PUT /merchants/{merchantId}/fee-profile`: the whole profile, or every broken rule. */
export const parseFeeProfile = (body: unknown): Parsed<FeeProfileTerms> =>
  gated(FeeProfileRequestSchema, body, readFeeProfile(body));

/** `PUT /merchants/{merchantId}/fee-settings/convenience-fee`. */
export const parseConvenienceFee = (body: unknown): Parsed<ConvenienceFeeRequest> =>
  gated(ConvenienceFeeRequestSchema, body, readConvenienceFee(body));

/** `PUT /merchants/{merchantId}/fee-settings/surcharge`. */
export const parseSurcharge = (body: unknown): Parsed<SurchargeRequest> =>
  gated(SurchargeRequestSchema, body, readSurcharge(body));

/** Collects errors while reading one body. */
class Reader {
  readonly errors: FieldError[] = [];

  constructor(readonly body: Record<string, unknown>) {}

  fail(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  has(field: string): boolean {
    return this.body[field] !== undefined && this.body[field] !== null;
  }

  required(field: string): boolean {
    if (this.has(field)) return true;
    this.fail(field, 'is required');
    return false;
  }

  /** Refuses `field` when present (and not null). */
  absent(field: string, message: string): void {
    if (this.has(field)) this.fail(field, message);
  }

  boolean(field: string): boolean | undefined {
    if (!this.required(field)) return undefined;
    const value = this.body[field];
    return typeof value === 'boolean' ? value : this.fail(field, 'must be a boolean (true or false)');
  }

  integer(field: string, min: number, max: number): number | undefined {
    if (!this.required(field)) return undefined;
    const value = this.body[field];
    if (typeof value !== 'number') {
      return this.fail(field, `must be an integer number of basis points, not a ${typeName(value)}`);
    }
    if (!Number.isInteger(value)) return this.fail(field, 'must be a whole number of basis points');
    if (value < min || value > max) return this.fail(field, `must be between ${min} and ${max}`);
    return value;
  }

  money(field: string, min: bigint, max: bigint): bigint | undefined {
    if (!this.required(field)) return undefined;
    const parsed = parseAmount(this.body[field], 'USD');
    if (!parsed.ok) return this.fail(field, MONEY_MESSAGES[parsed.problem]);
    if (parsed.minor < min || parsed.minor > max) {
      return this.fail(field, `must be between ${formatMinor(min)} and ${formatMinor(max)}`);
    }
    return parsed.minor;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T | undefined {
    if (!this.required(field)) return undefined;
    const value = this.body[field];
    return (values as readonly unknown[]).includes(value)
      ? (value as T)
      : this.fail(field, `must be one of ${values.join(', ')}`);
  }

  /** A non-empty set of `values`, each named once, returned in the canonical order of `values`. */
  set<T extends string>(field: string, values: readonly T[]): T[] | undefined {
    if (!this.required(field)) return undefined;
    const value = this.body[field];
    if (!Array.isArray(value)) return this.fail(field, `must be an array of ${values.join(', ')}`);
    if (value.length === 0) return this.fail(field, 'must name at least one value');
    const before = this.errors.length;
    value.forEach((item, index) => {
      if (!(values as readonly unknown[]).includes(item)) {
        this.fail(`${field}[${index}]`, `must be one of ${values.join(', ')}`);
      } else if (value.indexOf(item) !== index) {
        this.fail(`${field}[${index}]`, 'is listed more than once');
      }
    });
    if (this.errors.length > before) return undefined;
    return values.filter((known) => value.includes(known));
  }

  currency(field = 'currency'): void {
    if (this.has(field) && this.body[field] !== 'USD') this.fail(field, 'must be USD');
  }

  unknownFields(known: readonly string[]): void {
    for (const field of Object.keys(this.body)) {
      if (!known.includes(field)) this.fail(field, 'is not a known field');
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function formatMinor(minor: bigint): string {
  const digits = minor.toString().padStart(3, '0');
  return `"${digits.slice(0, -2)}.${digits.slice(-2)}"`;
}

function reader(body: unknown): Reader | FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ field: 'body', message: 'must be a JSON object' }];
  }
  return new Reader(body as Record<string, unknown>);
}

// ---------------------------------------------------------------------------------------------
// Fee profile
// ---------------------------------------------------------------------------------------------

export const FEE_PROFILE_FIELDS = [
  'pricing_model',
  'currency',
  'card_rate_bps',
  'card_fixed_fee',
  'tiered_rates',
  'cost_of_acceptance_bps',
  'ach_rate_bps',
  'ach_fixed_fee',
  'ach_fee_cap',
  'monthly_fee',
  'effective_date',
] as const;

const TIERED_RATE_FIELDS = ['mid_qualified_bps', 'non_qualified_bps'] as const;

/** `PUT /merchants/{merchantId}/fee-profile`: the whole profile, or every broken rule. */
function readFeeProfile(body: unknown): Parsed<FeeProfileTerms> {
  const r = reader(body);
  if (Array.isArray(r)) return { ok: false, errors: r };
  r.unknownFields(FEE_PROFILE_FIELDS);
  const pricingModel = r.oneOf('pricing_model', PRICING_MODELS);
  r.currency();
  const cardRateBps = r.integer('card_rate_bps', 0, MAX_RATE_BPS);
  const cardFixedFee = r.money('card_fixed_fee', 0n, MAX_FIXED_FEE_MINOR);

  let tieredRates: FeeProfileTerms['tieredRates'] | undefined = null;
  if (pricingModel === 'TIERED') {
    tieredRates = readTieredRates(r, cardRateBps);
  } else if (pricingModel !== undefined) {
    r.absent('tiered_rates', 'is only for pricing_model TIERED');
  }

  const costOfAcceptanceBps = r.has('cost_of_acceptance_bps')
    ? r.integer('cost_of_acceptance_bps', 0, MAX_RATE_BPS)
    : null;
  const achRateBps = r.integer('ach_rate_bps', 0, MAX_RATE_BPS);
  const achFixedFee = r.money('ach_fixed_fee', 0n, MAX_FIXED_FEE_MINOR);
  let achFeeCap: bigint | null | undefined = null;
  if (r.has('ach_fee_cap')) {
    achFeeCap = r.money('ach_fee_cap', 1n, MAX_ACH_FEE_CAP_MINOR);
    if (achFeeCap !== undefined && achFixedFee !== undefined && achFeeCap < achFixedFee) {
      achFeeCap = r.fail('ach_fee_cap', 'must not be below ach_fixed_fee');
    }
  }
  const monthlyFee = r.money('monthly_fee', 0n, MAX_MONTHLY_FEE_MINOR);
  let effectiveDate: string | undefined;
  if (r.required('effective_date')) {
    const value = r.body.effective_date;
    effectiveDate = isCalendarDate(value) ? value : r.fail('effective_date', 'must be a date YYYY-MM-DD');
  }

  if (
    r.errors.length > 0 ||
    pricingModel === undefined ||
    cardRateBps === undefined ||
    cardFixedFee === undefined ||
    tieredRates === undefined ||
    costOfAcceptanceBps === undefined ||
    achRateBps === undefined ||
    achFixedFee === undefined ||
    achFeeCap === undefined ||
    monthlyFee === undefined ||
    effectiveDate === undefined
  ) {
    return { ok: false, errors: r.errors };
  }
  return {
    ok: true,
    value: {
      pricingModel,
      currency: 'USD',
      cardRateBps,
      cardFixedFeeMinor: cardFixedFee.toString(),
      tieredRates,
      costOfAcceptanceBps,
      achRateBps,
      achFixedFeeMinor: achFixedFee.toString(),
      achFeeCapMinor: achFeeCap === null ? null : achFeeCap.toString(),
      monthlyFeeMinor: monthlyFee.toString(),
      effectiveDate,
    },
  };
}

function readTieredRates(
  r: Reader,
  qualifiedBps: number | undefined,
): FeeProfileTerms['tieredRates'] | undefined {
  if (!r.required('tiered_rates')) return undefined;
  const inner = reader(r.body.tiered_rates);
  if (Array.isArray(inner)) return r.fail('tiered_rates', 'must be an object');
  inner.unknownFields(TIERED_RATE_FIELDS);
  const mid = inner.integer('mid_qualified_bps', 0, MAX_RATE_BPS);
  const non = inner.integer('non_qualified_bps', 0, MAX_RATE_BPS);
  if (mid !== undefined && qualifiedBps !== undefined && mid < qualifiedBps) {
    inner.fail('mid_qualified_bps', 'must not be below card_rate_bps (the qualified rate)');
  }
  if (mid !== undefined && non !== undefined && non < mid) {
    inner.fail('non_qualified_bps', 'must not be below mid_qualified_bps');
  }
  for (const error of inner.errors) r.fail(`tiered_rates.${error.field}`, error.message);
  if (inner.errors.length > 0 || mid === undefined || non === undefined) return undefined;
  return { midQualifiedBps: mid, nonQualifiedBps: non };
}

/** Every broken rule of a fee-profile body; empty when it is good. */
export function validateFeeProfile(body: unknown): FieldError[] {
  const parsed = parseFeeProfile(body);
  return parsed.ok ? [] : parsed.errors;
}

// ---------------------------------------------------------------------------------------------
// Convenience fee
// ---------------------------------------------------------------------------------------------

export const CONVENIENCE_FEE_FIELDS = [
  'enabled',
  'amount_type',
  'currency',
  'fixed_amount',
  'percent_bps',
  'min_amount',
  'max_amount',
  'applies_to',
] as const;

const CONVENIENCE_FEE_TERMS = CONVENIENCE_FEE_FIELDS.filter((f) => f !== 'enabled' && f !== 'currency');

/** The program as requested; the channels come from eligibility when it is decided. */
export type ConvenienceFeeRequest = Omit<ConvenienceFeeTerms, 'channels'>;

/**
 * `PUT /merchants/{merchantId}/fee-settings/convenience-fee`. `enabled` is always required. An
 * enabled program needs its terms; a disabled one may leave them out (recorded as none) or carry
 * them (checked the same way, so re-enabling is a one-field change).
 */
function readConvenienceFee(body: unknown): Parsed<ConvenienceFeeRequest> {
  const r = reader(body);
  if (Array.isArray(r)) return { ok: false, errors: r };
  r.unknownFields(CONVENIENCE_FEE_FIELDS);
  const enabled = r.boolean('enabled');
  r.currency();
  const withTerms = enabled === true || CONVENIENCE_FEE_TERMS.some((field) => r.has(field));
  if (!withTerms) {
    if (r.errors.length > 0 || enabled === undefined) return { ok: false, errors: r.errors };
    return {
      ok: true,
      value: {
        enabled,
        amountType: null,
        currency: 'USD',
        fixedAmountMinor: null,
        percentBps: null,
        minAmountMinor: null,
        maxAmountMinor: null,
        appliesTo: [],
      },
    };
  }

  const amountType = r.oneOf('amount_type', CONVENIENCE_FEE_AMOUNT_TYPES);
  const appliesTo = r.set('applies_to', FEE_PAYMENT_METHODS);
  let fixedAmount: bigint | null | undefined = null;
  let percentBps: number | null | undefined = null;
  let minAmount: bigint | null | undefined = null;
  let maxAmount: bigint | null | undefined = null;
  if (amountType === 'FIXED') {
    fixedAmount = r.money('fixed_amount', 1n, MAX_CONVENIENCE_FEE_MINOR);
    r.absent('percent_bps', 'is only for amount_type PERCENT');
    r.absent('min_amount', 'is only for amount_type PERCENT');
    r.absent('max_amount', 'is only for amount_type PERCENT');
  } else if (amountType === 'PERCENT') {
    r.absent('fixed_amount', 'is only for amount_type FIXED');
    percentBps = r.integer('percent_bps', 1, MAX_CONVENIENCE_FEE_PERCENT_BPS);
    if (r.has('min_amount')) minAmount = r.money('min_amount', 1n, MAX_CONVENIENCE_FEE_MINOR);
    if (r.has('max_amount')) maxAmount = r.money('max_amount', 1n, MAX_CONVENIENCE_FEE_MINOR);
    if (typeof minAmount === 'bigint' && typeof maxAmount === 'bigint' && maxAmount < minAmount) {
      maxAmount = r.fail('max_amount', 'must not be below min_amount');
    }
  }
  if (
    r.errors.length > 0 ||
    enabled === undefined ||
    amountType === undefined ||
    appliesTo === undefined ||
    fixedAmount === undefined ||
    percentBps === undefined ||
    minAmount === undefined ||
    maxAmount === undefined
  ) {
    return { ok: false, errors: r.errors };
  }
  const text = (minor: bigint | null) => (minor === null ? null : minor.toString());
  return {
    ok: true,
    value: {
      enabled,
      amountType,
      currency: 'USD',
      fixedAmountMinor: text(fixedAmount),
      percentBps,
      minAmountMinor: text(minAmount),
      maxAmountMinor: text(maxAmount),
      appliesTo,
    },
  };
}

export function validateConvenienceFee(body: unknown): FieldError[] {
  const parsed = parseConvenienceFee(body);
  return parsed.ok ? [] : parsed.errors;
}

// ---------------------------------------------------------------------------------------------
// Surcharge
// ---------------------------------------------------------------------------------------------

export const SURCHARGE_FIELDS = ['enabled', 'percent_bps', 'card_types'] as const;

/**
 * The program as requested. `cardTypes` is what was sent (default `["credit"]`); anything but
 * credit is refused by the decision (422 `surcharge_not_allowed_on_debit`), not here.
 */
export interface SurchargeRequest {
  enabled: boolean;
  percentBps: number | null;
  cardTypes: CardType[];
}

/** `PUT /merchants/{merchantId}/fee-settings/surcharge`. */
function readSurcharge(body: unknown): Parsed<SurchargeRequest> {
  const r = reader(body);
  if (Array.isArray(r)) return { ok: false, errors: r };
  r.unknownFields(SURCHARGE_FIELDS);
  const enabled = r.boolean('enabled');
  let percentBps: number | null | undefined = null;
  if (enabled === true || r.has('percent_bps')) {
    percentBps = r.integer('percent_bps', 1, MAX_SURCHARGE_REQUEST_BPS);
  }
  const cardTypes: CardType[] | undefined = r.has('card_types')
    ? r.set('card_types', CARD_TYPES)
    : ['credit'];
  if (r.errors.length > 0 || enabled === undefined || percentBps === undefined || cardTypes === undefined) {
    return { ok: false, errors: r.errors };
  }
  return { ok: true, value: { enabled, percentBps, cardTypes } };
}

export function validateSurcharge(body: unknown): FieldError[] {
  const parsed = parseSurcharge(body);
  return parsed.ok ? [] : parsed.errors;
}
