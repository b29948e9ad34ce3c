import { z } from 'zod';

/**
 * The wire's common shapes as zod schemas: one source for the OpenAPI document
 * (docs/adr/0007-openapi-from-code.md), for the static types of the resource mappers, and for the
 * request bodies parsed with them. A schema given an `id` becomes a named component of the
 * document (`#/components/schemas/<id>`). Pure (zod only): domain files may type their resource
 * mappers with these.
 */

/** A record id (UUID, lower case on the way out). */
export const Uuid = z.string().meta({ format: 'uuid' });

/** ISO 8601 date-time in UTC (`2026-09-01T12:00:00.000Z`). */
export const Timestamp = z.string().meta({ format: 'date-time' });

/** A calendar date, `YYYY-MM-DD`. */
export const DateOnly = z.string().meta({ format: 'date' });

/**
 * Money in an answer: a decimal string with exactly the currency's decimals (spec "What the
 * service does" rule 7). Negative only where a signed total is reported (settlement).
 */
export const Money = z
  .string()
  .regex(/^-?(0|[1-9][0-9]*)\.[0-9]{2}$/)
  .meta({
    id: 'Money',
    description: 'A decimal string with exactly two decimals, never a number or integer cents.',
    examples: ['10.50'],
  });

/**
 * Money in a request: digits, a decimal point, one or two decimals (`"10.5"`, `"10.50"`);
 * `"10"` reads like integer cents and is refused, so is a JSON number.
 */
export const MONEY_INPUT_PATTERN = /^(0|[1-9][0-9]{0,14})\.[0-9]{1,2}$/;
export const MoneyInput = z
  .string()
  .regex(MONEY_INPUT_PATTERN)
  .meta({
    id: 'MoneyInput',
    description:
      'A decimal string with a decimal point and at most two decimals ("10.50", "10.5"); a number or "10" (integer cents) is 400.',
    examples: ['10.50'],
  });

export const Currency = z.enum(['USD']).meta({ description: 'ISO 4217; USD is the only currency served.' });

export const Pagination = z
  .strictObject({
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    has_more: z.boolean(),
    total_count: z.int().min(0),
  })
  .meta({ id: 'Pagination' });

/** A cursor-paged list (`libs/platform/src/pagination`): newest first, no reverse paging. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), pagination: Pagination });
}

/** `{data: [...]}` for a list that is not paged. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item) });
}

export const FieldError = z
  .strictObject({
    field: z.string().meta({ description: 'The wire path: `business_address.country`, `fields[0].name`.' }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

/** Every error body (RFC 9457, CONTRACT §7), `application/problem+json`. */
export const ProblemSchema = z
  .strictObject({
    type: z.string().meta({ format: 'uri', description: 'A page of this deployment explaining the code.' }),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z
      .string()
      .meta({ description: 'Machine-readable; branch on `status` and `code`, never `detail`.' }),
    retryable: z.boolean().optional(),
    errors: z
      .array(FieldError)
      .optional()
      .meta({ description: 'On `validation_error`: one entry per field.' }),
    checks: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: '`GET /health` while a dependency is down: each one and its state.' }),
    request_id: z.string().optional(),
  })
  .meta({ id: 'Problem' });

/** A `{name, value}` custom-field value riding a create (spec "Custom-field configuration"). */
export const CustomFieldValue = z.strictObject({ name: z.string(), value: z.string() });
