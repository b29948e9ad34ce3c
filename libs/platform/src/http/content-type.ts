import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/** Route config flag of the few routes that take an HTML form post (hosted payment pages). */
export const ACCEPTS_FORM_BODY = 'acceptsFormBody';
export const AcceptsFormBody = () => RouteConfig({ [ACCEPTS_FORM_BODY]: true });

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The API takes JSON bodies only (spec Endpoints): any other media type is 415 before the body
 * is read. Without this, Fastify's built-in `text/plain` parser would hand the handler a string
 * and Nest's form parser an object that passes validation like a JSON body would.
 * Unknown routes are left to the 404/405 answer.
 */
export function refuseNonJsonBody(request: FastifyRequest): void {
  if (request.is404) return;
  const length = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return;
  const raw = request.headers['content-type'];
  const type = (raw ?? '').split(';')[0].trim().toLowerCase();
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const accepted = type === JSON_TYPE || (type === FORM_TYPE && config?.[ACCEPTS_FORM_BODY] === true);
  if (accepted) {
    const charset = foreignCharset(raw ?? '');
    if (charset === null) return;
    throw new ProblemException(
      problem(415, 'unsupported_media_type', `the request body must be UTF-8, not ${charset}`, {
        errors: [{ field: 'content-type', message: 'charset must be utf-8 or absent' }],
      }),
    );
  }
  throw new ProblemException(
    problem(
      415,
      'unsupported_media_type',
      raw
        ? `the request body must be ${JSON_TYPE}, not ${type}`
        : `the request body must be ${JSON_TYPE}; send a Content-Type header`,
    ),
  );
}

/** `charset=utf-8`, any case, quoted or not (`utf8` is the same encoding's other label). */
const UTF8 = /^(?:utf-?8)$/i;

/**
 * The first `charset` parameter that is not UTF-8, or null. Bodies are read as UTF-8 only, so a
 * body declared in another charset (`utf-16`, `iso-8859-1`) would be read as something the
 * client did not send: it is refused, not guessed at (RFC 8259 §8.1: JSON is UTF-8).
 */
export function foreignCharset(contentType: string): string | null {
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = parameter
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (!UTF8.test(value)) return value.slice(0, 40) || '(empty)';
  }
  return null;
}

/** No request of this API nests deeper (level 3 data line items are the deepest, at 4). */
export const MAX_BODY_DEPTH = 32;

/**
 * No string of a request body (value or key) is longer, in UTF-16 units, unless its route says
 * otherwise: the longest free text a field takes is a few thousand characters (docs/input.md,
 * "Limits"). A compliance document's base64 content is the exception (its route raises it).
 */
export const MAX_BODY_STRING_LENGTH = 10_000;

/**
 * No array of a request body holds more items, unless its route says otherwise (a processor
 * report's `lines`); the longest list a field takes is 99 level 3 line items.
 */
export const MAX_BODY_ARRAY_LENGTH = 1_000;

export interface BodyLimits {
  maxStringLength: number;
  maxArrayLength: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  maxStringLength: MAX_BODY_STRING_LENGTH,
  maxArrayLength: MAX_BODY_ARRAY_LENGTH,
};

/** Route config of the few routes whose bodies hold longer strings or arrays than the rest. */
export const BODY_LIMITS = 'bodyLimits';
export const RaisesBodyLimits = (limits: Partial<BodyLimits>) => RouteConfig({ [BODY_LIMITS]: limits });

/** A lone UTF-16 surrogate (half of a pair), or U+0000: text PostgreSQL refuses to store. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what it looks for
const UNSTORABLE_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

export type BodyDefect =
  | { kind: 'too_deep' }
  | { kind: 'too_long'; field: string; max: number }
  | { kind: 'too_many'; field: string; max: number }
  /** `field` is the JSON path of the string, e.g. `address.line1` or `custom_fields[0].value`. */
  | { kind: 'unstorable_text'; field: string };

/**
 * What no handler can be trusted to catch in a parsed JSON body, found without recursion:
 * nesting deeper than {@link MAX_BODY_DEPTH} (20,000 nested arrays fit well under the 1 MiB limit
 * and would overflow the stack of any recursive walk, such as the idempotency fingerprint), and a
 * string (value or key) holding a lone surrogate or U+0000 (valid JSON escapes that PostgreSQL
 * refuses to store, which would surface as a 500 after validation passed).
 */
export function bodyDefect(body: unknown, limits: BodyLimits = DEFAULT_BODY_LIMITS): BodyDefect | null {
  const stack: [unknown, number, string][] = [[body, 0, '']];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.length > limits.maxStringLength)
        return { kind: 'too_long', field: path || 'body', max: limits.maxStringLength };
      if (UNSTORABLE_TEXT.test(node)) return { kind: 'unstorable_text', field: path || 'body' };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > MAX_BODY_DEPTH) return { kind: 'too_deep' };
    if (Array.isArray(node)) {
      if (node.length > limits.maxArrayLength)
        return { kind: 'too_many', field: path || 'body', max: limits.maxArrayLength };
      node.forEach((child, i) => stack.push([child, depth + 1, `${path}[${i}]`]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      // A key is echoed as the field's name: a long one is named by its start only.
      if (key.length > limits.maxStringLength)
        return {
          kind: 'too_long',
          field: `${path ? `${path}.` : ''}${key.slice(0, 100)}…`,
          max: limits.maxStringLength,
        };
      if (UNSTORABLE_TEXT.test(key)) return { kind: 'unstorable_text', field: at };
      stack.push([child, depth + 1, at]);
    }
  }
  return null;
}

/** 400 `validation_error` for a {@link bodyDefect}, before any handler or interceptor walks the body. */
export function refuseDefectiveBody(request: FastifyRequest): void {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const raised = config?.[BODY_LIMITS] as Partial<BodyLimits> | undefined;
  const defect = bodyDefect(request.body, { ...DEFAULT_BODY_LIMITS, ...raised });
  if (!defect) return;
  const [field, message] =
    defect.kind === 'too_deep'
      ? ['body', `must not nest deeper than ${MAX_BODY_DEPTH} levels`]
      : defect.kind === 'too_long'
        ? [defect.field, `must be at most ${defect.max} characters`]
        : defect.kind === 'too_many'
          ? [defect.field, `must have at most ${defect.max} items`]
          : [defect.field, 'must be valid Unicode text (no unpaired surrogate, no U+0000)'];
  throw new ProblemException(
    problem(400, 'validation_error', `${field} ${message}`, { errors: [{ field, message }] }),
  );
}
