import { forbiddenCharacter, plainTextProblem } from '../validation/plain-text';
import { UUID } from '../validation/uuid';
import { validationProblem } from '../validation/validation.pipe';

/**
 * The query string of every read, strictly (spec Errors: "malformed or blank filter value,
 * unknown enum filter value" are 400; "the unfiltered list is never returned instead"). A typo
 * in a filter name, a repeated filter or a value that does not parse would otherwise widen the
 * answer silently: `?merchant_id=' OR 1=1--` must not list every merchant. So:
 *
 * - a parameter the route does not declare is 400 `validation_error` naming it;
 * - a declared one given twice (`?state=A&state=B`), blank, with control or bidi characters, or
 *   not in its format is 400 naming it;
 * - every problem is reported in one answer.
 *
 * Paged lists take `cursor` and `page_size` besides their filters; those two are read and checked
 * by `pageRequest` (pagination.ts). Reads that are not paged (arrays, exports, summaries) refuse
 * them like any other unknown name, so a client never believes it walked pages that do not exist.
 */
export type FieldError = { field: string; message: string };

export type ParamResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** What the OpenAPI document says of a query parameter: its JSON Schema and a description. */
export interface QueryParamDoc {
  schema: Record<string, unknown>;
  description?: string;
}

/** How one parameter's (single, trimmed-checked) text becomes a value, and how it is documented. */
export interface QueryParam<T> extends QueryParamDoc {
  parse(raw: string): ParamResult<T>;
  /** A blank value means "not given" (a free-text note); otherwise blank is 400. */
  blankIsAbsent?: boolean;
}

export type QuerySpec = Record<string, QueryParam<unknown>>;

/** The documentation of a query string, by parameter name (a `QuerySpec` is one). */
export type QueryDoc = Record<string, QueryParamDoc>;

export type ParsedQuery<S extends QuerySpec> = {
  [K in keyof S]: S[K] extends QueryParam<infer T> ? T | undefined : never;
};

export const PAGE_PARAMETERS = ['cursor', 'page_size'] as const;

/** A name as it is echoed in `errors[].field`: bounded, so a huge name is not sent back whole. */
const NAME_ECHO_MAX = 100;

/** The usual parameter formats. */
export const queryParam = {
  /** A UUID, lower-cased. */
  uuid(): QueryParam<string> {
    return {
      schema: { type: 'string', format: 'uuid' },
      parse: (raw) =>
        UUID.test(raw) ? { ok: true, value: raw.toLowerCase() } : { ok: false, message: 'must be a UUID' },
    };
  },

  /** One of `values`, exactly (case included). */
  oneOf<T extends string>(values: readonly T[]): QueryParam<T> {
    return {
      schema: { type: 'string', enum: [...values] },
      parse: (raw) =>
        (values as readonly string[]).includes(raw)
          ? { ok: true, value: raw as T }
          : { ok: false, message: `must be one of ${values.join(', ')}` },
    };
  },

  /** Text matching `pattern` (anchor it), refused with `message` otherwise. */
  matching(pattern: RegExp, message: string): QueryParam<string> {
    return {
      schema: { type: 'string', pattern: pattern.source },
      description: message,
      parse: (raw) => (pattern.test(raw) ? { ok: true, value: raw } : { ok: false, message }),
    };
  },

  /** A whole number written in plain digits, within [min, max]. */
  wholeNumber(min: number, max: number): QueryParam<number> {
    const message = `must be a whole number from ${min} to ${max}`;
    return {
      schema: { type: 'integer', minimum: min, maximum: max },
      parse: (raw) =>
        /^\d{1,16}$/.test(raw) && Number(raw) >= min && Number(raw) <= max
          ? { ok: true, value: Number(raw) }
          : { ok: false, message },
    };
  },

  /**
   * Free text, trimmed, at most `maxLength` characters (code points). With `blankIsAbsent`, a
   * blank value reads as not given (an optional note); otherwise it is refused like any blank.
   */
  text(maxLength: number, options: { blankIsAbsent?: boolean } = {}): QueryParam<string> {
    return {
      schema: { type: 'string' },
      description: `Free text, at most ${maxLength} characters once trimmed${options.blankIsAbsent ? '; blank means not given' : ''}.`,
      blankIsAbsent: options.blankIsAbsent,
      parse: (raw) => {
        const text = raw.trim();
        if ([...text].length > maxLength)
          return { ok: false, message: `must be at most ${maxLength} characters` };
        return { ok: true, value: text };
      },
    };
  },
};

/**
 * The declared parameters of `query` (Fastify's parsed query string: a string per name, an array
 * when repeated), or a 400 naming every bad or unknown parameter. Absent parameters are
 * `undefined`. With `paged` (the default), `cursor` and `page_size` are allowed and left to
 * `pageRequest`.
 */
export function strictQuery<S extends QuerySpec>(
  query: Record<string, unknown> | null | undefined,
  spec: S,
  options: { paged?: boolean } = {},
): ParsedQuery<S> {
  const errors = queryErrors(query, spec, options);
  if (errors.errors.length > 0) throw validationProblem(errors.errors);
  return errors.values;
}

/** {@link strictQuery} without throwing: the values read and every problem found. */
export function queryErrors<S extends QuerySpec>(
  query: Record<string, unknown> | null | undefined,
  spec: S,
  options: { paged?: boolean } = {},
): { values: ParsedQuery<S>; errors: FieldError[] } {
  const given = query ?? {};
  const errors: FieldError[] = undeclaredParameters(given, spec, options);
  const values: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(spec)) {
    const raw = given[name];
    if (raw === undefined) continue;
    const fail = (message: string) => errors.push({ field: name, message });
    if (Array.isArray(raw)) {
      fail('must be given once');
      continue;
    }
    if (typeof raw !== 'string') {
      fail('must be a single value');
      continue;
    }
    if (raw.trim() === '') {
      if (!param.blankIsAbsent) fail('must not be blank');
      continue;
    }
    const unsafe = plainTextProblem(raw);
    if (unsafe) {
      fail(unsafe);
      continue;
    }
    const parsed = param.parse(raw);
    if (parsed.ok) values[name] = parsed.value;
    else fail(parsed.message);
  }
  return { values: values as ParsedQuery<S>, errors };
}

/**
 * The parameters of `query` that `declared` (a route's documented query string) does not name,
 * each as the error that refuses it: `cursor` and `page_size` are declared too when `paged` (the
 * default). The one wording of "unknown parameter" for every route of the API.
 */
export function undeclaredParameters(
  query: Record<string, unknown> | null | undefined,
  declared: QueryDoc,
  options: { paged?: boolean } = {},
): FieldError[] {
  const paged = options.paged ?? true;
  const errors: FieldError[] = [];
  for (const name of Object.keys(query ?? {})) {
    if (Object.hasOwn(declared, name)) continue;
    if (paged && (PAGE_PARAMETERS as readonly string[]).includes(name)) continue;
    errors.push({ field: echoName(name), message: unknownMessage(name, paged) });
  }
  return errors;
}

/**
 * When `query` holds parameters `declared` (a route's `@Describe` `query` and `paged`) does not
 * name: every problem of it that can be found without running the route, each undeclared
 * parameter and the values of the declared ones that are {@link QueryParam}s (they carry their
 * parser). A parameter declared by its documentation only is left to the route's own parser, and
 * so are `cursor` and `page_size` (`pageRequest`). Null when nothing undeclared came: the route's
 * own read checks the rest, so nothing is parsed twice.
 */
export function declaredQueryErrors(
  query: Record<string, unknown> | null | undefined,
  declared: QueryDoc,
  options: { paged?: boolean } = {},
): FieldError[] | null {
  const undeclared = undeclaredParameters(query, declared, options);
  if (undeclared.length === 0) return null;
  const parsers: QuerySpec = {};
  for (const [name, doc] of Object.entries(declared)) {
    if (isQueryParam(doc)) parsers[name] = doc;
  }
  const given = Object.fromEntries(
    Object.entries(query ?? {}).filter(([name]) => Object.hasOwn(parsers, name)),
  );
  return [...undeclared, ...queryErrors(given, parsers, options).errors];
}

function isQueryParam(doc: QueryParamDoc): doc is QueryParam<unknown> {
  return typeof (doc as Partial<QueryParam<unknown>>).parse === 'function';
}

function unknownMessage(name: string, paged: boolean): string {
  if (!paged && (PAGE_PARAMETERS as readonly string[]).includes(name)) {
    return 'is not a known parameter (this read is not paged)';
  }
  return 'is not a known parameter';
}

/** Control and bidi characters of a name are not echoed either (U+FFFD stands in for them). */
function echoName(name: string): string {
  const chars = [...name].map((char) => (forbiddenCharacter(char) === null ? char : '\uFFFD'));
  return chars.length > NAME_ECHO_MAX ? `${chars.slice(0, NAME_ECHO_MAX).join('')}…` : chars.join('');
}
