import { DomainError } from '../../../platform/src/problem';
import { amountProblemMessage, parseAmount } from '../../../platform/src/money/amount';
import { isUseType, type UseType, isVaultTokenFormat } from '../../../vault/src/domain';
import { customFieldValuesFormErrors } from '../../../merchants/src/domain';
import { z } from 'zod';
import { CustomFieldValue, MoneyInput, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { schemaFieldErrors } from '../../../platform/src/openapi/schema-gate';
import { USE_TYPES } from '../../../vault/src/domain';
import { REFUND_REASONS, REVERSAL_DESCRIPTION_MAX, REVERSAL_REASON_CODES } from './rules';
import { validateRefundReason, validateReversalReason } from './rules';
import type { FieldError } from './transaction-errors';
import {
  isFollowUpType,
  THREE_DS_FAILURE_REASONS,
  TRANSACTION_TYPES,
  type FollowUpType,
  type TransactionType,
} from './transaction-states';
import { VERSIONED_UUID } from '../../../platform/src/validation/uuid';

/**
 * The body of `POST /transactions`: one flat object discriminated by `type` (spec "Transactions",
 * CONTRACT §5a). Each type takes exactly its fields; anything else is 400 (CONTRACT §7). This
 * module checks form only; references (merchant, vault token, parent, customer) and the
 * merchant's configuration (custom fields) are the handler's checks.
 *
 * Decisions (docs/transactions.md):
 * 1. Amount bounds: above zero and at most 999,999.99 per transaction (the spec leaves bounds
 *    open); `tax_amount` from zero up to `amount`.
 * 2. Types the API does not serve: AUTHORIZATION and CARD_VERIFICATION are reserved (501, spec rule
 *    6), and so are CAPTURE, PARTIAL_CAPTURE, CAPTURE_ALL, PARTIAL_AUTH_REVERSAL, SURCHARGE,
 *    REPEAT_SALE, ADJUSTMENT and BATCH_CLOSE (the spec shows no path or body for them). ACH_RETURN
 *    (the receiving bank's) and the RECURRING_* types (a contract's) are issued by the platform
 *    only: 422 `transaction_type_not_allowed`.
 */
export const MAX_TRANSACTION_AMOUNT_MINOR = 99_999_999n;

export const RESERVED_TYPES: readonly TransactionType[] = [
  'AUTHORIZATION',
  'CARD_VERIFICATION',
  'CAPTURE',
  'PARTIAL_CAPTURE',
  'CAPTURE_ALL',
  'PARTIAL_AUTH_REVERSAL',
  'SURCHARGE',
  'REPEAT_SALE',
  'ADJUSTMENT',
  'BATCH_CLOSE',
];

export const PLATFORM_ONLY_TYPES: readonly TransactionType[] = [
  'ACH_RETURN',
  'RECURRING_CREATE',
  'RECURRING_UPDATE',
  'RECURRING_CANCEL',
  'RECURRING_RETRY',
  'RECURRING_PAUSE',
  'RECURRING_RESUME',
  'RECURRING_COMPLETION',
];

export const SEC_CODES = ['WEB', 'PPD', 'CCD', 'TEL'] as const;
export type SecCode = (typeof SEC_CODES)[number];

const SALE_FIELDS = [
  'type',
  'merchant_id',
  'amount',
  'currency',
  'vault_token',
  'use_type',
  'customer_id',
  'custom_fields',
  'level2_data',
  'level3_data',
  'tax_amount',
];

const FIELDS: Partial<Record<TransactionType, readonly string[]>> = {
  SALE: SALE_FIELDS,
  ACH_DEBIT: [...SALE_FIELDS, 'sec_code'],
  VOID: ['type', 'merchant_id', 'parent_transaction_id'],
  AUTH_REVERSAL: ['type', 'merchant_id', 'parent_transaction_id'],
  REFUND: ['type', 'merchant_id', 'parent_transaction_id'],
  ACH_VOID: ['type', 'merchant_id', 'parent_transaction_id'],
  ACH_REFUND: ['type', 'merchant_id', 'parent_transaction_id'],
  PARTIAL_REFUND: ['type', 'merchant_id', 'parent_transaction_id', 'amount', 'refund_reason'],
  ACH_REVERSAL: ['type', 'merchant_id', 'parent_transaction_id', 'reversal_reason'],
};

// ---------------------------------------------------------------------------------------------
// The body's shape as a schema (docs/adr/0007-openapi-from-code.md): a union discriminated by
// `type`, one member per type this API serves. The rules a schema cannot say (amounts above zero,
// tax within the amount, level 3 arithmetic, the merchant's custom fields) are checked below and
// by the handler.
// ---------------------------------------------------------------------------------------------

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

/*
 * Level 2 and 3 data are checked after the merchant's feature flags (a partner without
 * `level3_data` learns that first) by rules/level-data.ts, which names every field; the schema
 * documents their fields and holds the body to objects of them.
 */
const upTo = (max: number) => z.string().meta({ description: `1–${max} printable ASCII characters.` });
const LEVEL_RULES = 'Checked after the feature flag by the level 2/3 rules (docs/transactions.md).';

export const Level2DataSchema = z
  .looseObject({ po_number: optional(upTo(25)), merchant_zip: optional(z.string()) })
  .meta({ id: 'Level2Data', description: `Both fields are required. ${LEVEL_RULES}` });

export const Level3LineItemSchema = z
  .looseObject({
    product_code: optional(upTo(12)),
    commodity_code: optional(upTo(12)),
    description: optional(upTo(35)),
    upc: optional(z.string()),
    invoice_number: optional(upTo(25)),
    tax_type: optional(upTo(4)),
    quantity: optional(z.string().meta({ description: 'A decimal string above zero, at most 4 decimals.' })),
    unit_of_measure: optional(upTo(12)),
    unit_price: optional(z.string()),
    discount_amount: optional(z.string()),
    total_amount: optional(z.string()),
    tax_amount: optional(z.string()),
    tax_rate: optional(z.string().meta({ description: 'A percentage 0–100 as a decimal string.' })),
    extended_amount: optional(z.string()),
    freight_amount: optional(z.string()),
    duty_amount: optional(z.string()),
    tax_included: optional(z.boolean()),
  })
  .meta({
    id: 'Level3LineItem',
    description: `description, quantity, unit_price and total_amount are required; amounts are decimal strings. ${LEVEL_RULES}`,
  });

export const Level3DataSchema = z
  .looseObject({
    ship_from_zip: optional(z.string()),
    destination_zip: optional(z.string()),
    destination_country_code: optional(z.string().meta({ description: 'ISO 3166-1 alpha-3 (USA).' })),
    invoice_number: optional(upTo(25)),
    order_number: optional(upTo(25)),
    duty_amount: optional(z.string()),
    freight_amount: optional(z.string()),
    discount_amount: optional(z.string()),
    line_items: optional(z.array(Level3LineItemSchema)),
  })
  .meta({ id: 'Level3Data', description: `line_items (1 to 99) is required. ${LEVEL_RULES}` });

const chargeFields = {
  merchant_id: Uuid,
  amount: MoneyInput,
  currency: z.literal('USD'),
  vault_token: z
    .string()
    .regex(/^cvt_/)
    .meta({ description: 'A vault entry (`cvt_…`): the only instrument accepted.' }),
  use_type: z.enum(USE_TYPES),
  customer_id: optional(Uuid),
  custom_fields: optional(z.array(CustomFieldValue)),
  level2_data: optional(Level2DataSchema),
  level3_data: optional(Level3DataSchema),
  tax_amount: optional(MoneyInput),
};
const followUpFields = { merchant_id: Uuid, parent_transaction_id: Uuid };

/** Each served `type`'s body: exactly its fields (CONTRACT §5a). */
export const TransactionRequestSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('SALE'), ...chargeFields }).meta({
      title: 'SALE',
      description: 'A card charge on a vault token, authorised and captured at once.',
    }),
    z
      .strictObject({ type: z.literal('ACH_DEBIT'), ...chargeFields, sec_code: optional(z.enum(SEC_CODES)) })
      .meta({
        title: 'ACH_DEBIT',
        description: 'A debit of an ACH vault entry; answers SUBMITTED.',
      }),
    ...(['VOID', 'AUTH_REVERSAL', 'REFUND', 'ACH_VOID', 'ACH_REFUND'] as const).map((type) =>
      z.strictObject({ type: z.literal(type), ...followUpFields }).meta({ title: type }),
    ),
    z
      .strictObject({
        type: z.literal('PARTIAL_REFUND'),
        ...followUpFields,
        amount: MoneyInput,
        refund_reason: optional(z.enum(REFUND_REASONS)),
      })
      .meta({ title: 'PARTIAL_REFUND' }),
    z
      .strictObject({
        type: z.literal('ACH_REVERSAL'),
        ...followUpFields,
        reversal_reason: z.strictObject({
          code: z.enum(REVERSAL_REASON_CODES),
          description: optional(z.string().max(REVERSAL_DESCRIPTION_MAX)),
        }),
      })
      .meta({ title: 'ACH_REVERSAL', description: 'Within 5 banking days of settlement.' }),
  ])
  .meta({
    id: 'TransactionRequest',
    description:
      'One flat body discriminated by `type`. AUTHORIZATION, CARD_VERIFICATION and the other reserved types answer 501; ACH_RETURN and RECURRING_* are the platform’s (422).',
  });

/** `POST /transactions/{id}/three-ds/complete`. */
export const ThreeDsCompletionSchema = z
  .strictObject({
    outcome: z.enum(['authenticated', ...THREE_DS_FAILURE_REASONS.filter((r) => r !== 'callback_timeout')]),
  })
  .meta({ id: 'ThreeDsCompletion' });

export interface ChargeRequest {
  kind: 'charge';
  type: 'SALE' | 'ACH_DEBIT';
  merchantId: string;
  amountMinor: bigint;
  currency: string;
  vaultToken: string;
  useType: UseType;
  customerId: string | null;
  taxMinor: bigint | null;
  secCode: SecCode | null;
  /** Checked by the handler against the merchant's configuration and the level rules. */
  customFields: unknown;
  level2Data: unknown;
  level3Data: unknown;
}

export interface FollowUpRequest {
  kind: 'follow_up';
  type: FollowUpType;
  merchantId: string;
  parentTransactionId: string;
  amountMinor: bigint | null;
  refundReason: unknown;
  reversalReason: unknown;
}

export type TransactionRequest = ChargeRequest | FollowUpRequest;

/** 400 `validation_error` with one entry per field. */
export class TransactionRequestInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }
}

/** 501: a type the spec reserves (card AUTHORIZATION, CARD_VERIFICATION, and the path-less ones). */
export class TransactionTypeReserved extends DomainError {
  readonly code = 'not_implemented';

  constructor(readonly type: string) {
    super(`${type} is reserved and not served by this API`);
  }
}

/** 422: a type only the platform issues (ACH_RETURN, RECURRING_*). */
export class TransactionTypeNotAllowed extends DomainError {
  readonly code = 'transaction_type_not_allowed';
  override readonly retryable = false;

  constructor(readonly type: string) {
    super(`${type} transactions are issued by the platform, never requested through POST /transactions`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseTransactionRequest(body: unknown): TransactionRequest {
  if (!isObject(body))
    throw new TransactionRequestInvalid([{ field: 'body', message: 'must be a JSON object' }]);
  const type = body.type;
  if (type === undefined || type === null) {
    throw new TransactionRequestInvalid([{ field: 'type', message: 'is required' }]);
  }
  if (typeof type !== 'string' || !(TRANSACTION_TYPES as readonly string[]).includes(type)) {
    throw new TransactionRequestInvalid([
      { field: 'type', message: `must be one of ${TRANSACTION_TYPES.join(', ')}` },
    ]);
  }
  const t = type as TransactionType;
  if (RESERVED_TYPES.includes(t)) throw new TransactionTypeReserved(t);
  if (PLATFORM_ONLY_TYPES.includes(t)) throw new TransactionTypeNotAllowed(t);

  const errors: FieldError[] = [];
  const allowed = FIELDS[t]!;
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) errors.push({ field: key, message: `is not a field of a ${t} transaction` });
  }
  const merchantId = uuid(body, 'merchant_id', errors, true);
  let request: TransactionRequest;
  if (t === 'SALE' || t === 'ACH_DEBIT') {
    const currency = currencyOf(body, errors);
    request = {
      kind: 'charge',
      type: t,
      merchantId: merchantId ?? '',
      amountMinor: amount(body, 'amount', currency, errors, true) ?? 0n,
      currency,
      vaultToken: vaultToken(body, errors),
      useType: useType(body, errors),
      customerId: uuid(body, 'customer_id', errors, false),
      taxMinor: taxAmount(body, currency, errors),
      secCode: t === 'ACH_DEBIT' ? secCode(body, errors) : null,
      customFields: customFields(body, errors),
      level2Data: body.level2_data ?? null,
      level3Data: body.level3_data ?? null,
    };
  } else if (isFollowUpType(t)) {
    request = {
      kind: 'follow_up',
      type: t,
      merchantId: merchantId ?? '',
      parentTransactionId: uuid(body, 'parent_transaction_id', errors, true) ?? '',
      amountMinor: t === 'PARTIAL_REFUND' ? amount(body, 'amount', 'USD', errors, true) : null,
      // Their form is the body's form (400), checked before the merchant or parent is looked up.
      refundReason:
        t === 'PARTIAL_REFUND' ? checkedBy(validateRefundReason, body.refund_reason, errors) : null,
      reversalReason:
        t === 'ACH_REVERSAL' ? checkedBy(validateReversalReason, body.reversal_reason, errors) : null,
    };
  } else {
    throw new TransactionTypeReserved(t);
  }
  if (errors.length > 0) throw new TransactionRequestInvalid(errors);
  // The schema the document publishes has the last word on the shape.
  const shape = schemaFieldErrors(TransactionRequestSchema, body);
  if (shape.length > 0) throw new TransactionRequestInvalid(shape);
  return request;
}

/** The value as given (null when absent), its form errors added to `errors`. */
function checkedBy(
  validate: (value: unknown) => FieldError[],
  value: unknown,
  errors: FieldError[],
): unknown {
  errors.push(...validate(value));
  return value ?? null;
}

/** `custom_fields`' form (400); its values against the merchant's configuration come later (422). */
function customFields(body: Record<string, unknown>, errors: FieldError[]): unknown {
  return checkedBy(customFieldValuesFormErrors, body.custom_fields, errors);
}

function uuid(body: Record<string, unknown>, field: string, errors: FieldError[], required: boolean) {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) errors.push({ field, message: 'is required' });
    return null;
  }
  if (typeof value !== 'string' || !VERSIONED_UUID.test(value)) {
    errors.push({ field, message: 'must be a UUID' });
    return null;
  }
  return value.toLowerCase();
}

function currencyOf(body: Record<string, unknown>, errors: FieldError[]): string {
  const value = body.currency;
  if (value === undefined || value === null) {
    errors.push({ field: 'currency', message: 'is required' });
    return 'USD';
  }
  if (value !== 'USD') {
    errors.push({ field: 'currency', message: 'must be USD (the only currency served)' });
    return 'USD';
  }
  return value;
}

function amount(
  body: Record<string, unknown>,
  field: string,
  currency: string,
  errors: FieldError[],
  required: boolean,
): bigint | null {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) errors.push({ field, message: 'is required' });
    return null;
  }
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) {
    errors.push({ field, message: amountProblemMessage(parsed.problem) });
    return null;
  }
  if (parsed.minor <= 0n) {
    errors.push({ field, message: 'must be greater than zero' });
    return null;
  }
  if (parsed.minor > MAX_TRANSACTION_AMOUNT_MINOR) {
    errors.push({ field, message: 'must be at most 999999.99' });
    return null;
  }
  return parsed.minor;
}

function taxAmount(body: Record<string, unknown>, currency: string, errors: FieldError[]): bigint | null {
  const value = body.tax_amount;
  if (value === undefined || value === null) return null;
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) {
    errors.push({ field: 'tax_amount', message: 'must be a decimal string such as "1.50"' });
    return null;
  }
  const base = parseAmount(body.amount, currency);
  if (base.ok && parsed.minor > base.minor) {
    errors.push({ field: 'tax_amount', message: 'must not exceed amount' });
    return null;
  }
  return parsed.minor;
}

function vaultToken(body: Record<string, unknown>, errors: FieldError[]): string {
  const value = body.vault_token;
  if (value === undefined || value === null) {
    errors.push({ field: 'vault_token', message: 'is required' });
    return '';
  }
  if (typeof value !== 'string' || !isVaultTokenFormat(value)) {
    errors.push({ field: 'vault_token', message: 'must be a vault token (cvt_…)' });
    return '';
  }
  return value;
}

function useType(body: Record<string, unknown>, errors: FieldError[]): UseType {
  const value = body.use_type;
  if (value === undefined || value === null) {
    errors.push({ field: 'use_type', message: 'is required' });
    return 'ONE_TIME_FUTURE';
  }
  if (typeof value !== 'string' || !isUseType(value)) {
    errors.push({
      field: 'use_type',
      message: 'must be one of ONE_TIME_FUTURE, RECURRING, INSTALLMENT, UNSCHEDULED_COF',
    });
    return 'ONE_TIME_FUTURE';
  }
  return value;
}

function secCode(body: Record<string, unknown>, errors: FieldError[]): SecCode {
  const value = body.sec_code;
  if (value === undefined || value === null) return 'WEB';
  if (typeof value !== 'string' || !(SEC_CODES as readonly string[]).includes(value)) {
    errors.push({ field: 'sec_code', message: `must be one of ${SEC_CODES.join(', ')}` });
    return 'WEB';
  }
  return value as SecCode;
}
