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

/** A lone UTF-16 surrogate (half of a pair), or U+0000: text PostgreSQL refuses to store. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what it looks for
const UNSTORABLE_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

export type BodyDefect =
  | { kind: 'too_deep' }
  /** `field` is the JSON path of the string, e.g. `address.line1` or `custom_fields[0].value`. */
  | { kind: 'unstorable_text'; field: string };

/**
 * What no handler can be trusted to catch in a parsed JSON body, found without recursion:
 * nesting deeper than {@link MAX_BODY_DEPTH} (20,000 nested arrays fit well under the 1 MiB limit
 * and would overflow the stack of any recursive walk, such as the idempotency fingerprint), and a
 * string (value or key) holding a lone surrogate or U+0000 (valid JSON escapes that PostgreSQL
 * refuses to store, which would surface as a 500 after validation passed).
 */
export function bodyDefect(body: unknown): BodyDefect | null {
  const stack: [unknown, number, string][] = [[body, 0, '']];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (UNSTORABLE_TEXT.test(node)) return { kind: 'unstorable_text', field: path || 'body' };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > MAX_BODY_DEPTH) return { kind: 'too_deep' };
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push([child, depth + 1, `${path}[${i}]`]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      if (UNSTORABLE_TEXT.test(key)) return { kind: 'unstorable_text', field: at };
      stack.push([child, depth + 1, at]);
    }
  }
  return null;
}

/** 400 `validation_error` for a {@link bodyDefect}, before any handler or interceptor walks the body. */
export function refuseDefectiveBody(request: FastifyRequest): void {
  const defect = bodyDefect(request.body);
  if (!defect) return;
  const [field, message] =
    defect.kind === 'too_deep'
      ? ['body', `must not nest deeper than ${MAX_BODY_DEPTH} levels`]
      : [defect.field, 'must be valid Unicode text (no unpaired surrogate, no U+0000)'];
  throw new ProblemException(
    problem(400, 'validation_error', `${field} ${message}`, { errors: [{ field, message }] }),
  );
}
