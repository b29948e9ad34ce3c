/* eslint-disable @typescript-eslint/no-explicit-any -- the document is JSON read freely */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as fc from 'fast-check';
import {
  MAX_BODY_ARRAY_LENGTH,
  MAX_BODY_DEPTH,
  MAX_BODY_STRING_LENGTH,
} from '../../libs/platform/src/http/content-type';
import { OPERATOR_KEY, useTestPlatform, type TestPartner } from '../support/api';
import { partnerFixtures, type PartnerFixtures } from '../support/partner-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Hostile input on every operation of the OpenAPI document (issue 22, point 3; docs/input.md
 * "Hostile input, on every route"): fast-check generates malformed, oversized and hostile path
 * ids, query strings, headers and bodies, one fault per request on an otherwise well-formed call
 * with the right key and real ids. Every answer is a 4xx problem+json (a payer's page: an HTML
 * page), never a 2xx or a 5xx, and nothing is written: no event but the platform's own scheduled
 * passes' (actor `system:…`), and no row more or less in any read model or store, once the
 * projectors have caught up. The operations are read from the served document, so a new route
 * cannot skip this.
 */
const RUNS_PER_OPERATION = 10;
const SEED = 2211;

interface Operation {
  method: string;
  template: string;
  operation: any;
}

/** What one hostile request is: the fault it carries and how it goes on the wire. */
interface Hostile {
  fault: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

/** Path parameters that are not record ids, and a well-formed value for each. */
const NOT_IDS: Record<string, (template: string, ids: PartnerFixtures) => string> = {
  flagName: () => 'ach_payments',
  slug: () => 'validation-error',
  streamName: (_, ids) => `partner-${ids.partnerId}`,
  name: (template) => (template.startsWith('/docs/') ? 'init.js' : 'merchant-list'),
};

/**
 * The operations that ignore query parameters they do not declare (`x-ignores-unknown-query`):
 * pages people open in a browser and the load balancer's probe. Every other one refuses them.
 */
const IGNORE_UNKNOWN_QUERY = [
  'GET /console',
  'GET /docs',
  'GET /docs/assets/{name}',
  'GET /health',
  'GET /hpp/{sessionId}',
  'POST /hpp/{sessionId}',
  'GET /hpp/{sessionId}/result',
  'GET /problems',
  'GET /problems/{slug}',
];

/**
 * Stores a refused request may touch: the Idempotency-Key's kept answer, the rate limit's
 * windows, the schedule of the periodic passes; and the webhook delivery queue, which the worker
 * empties in the background as the fixtures' deliveries are made (a request adds to it only
 * through events, which are counted). Every other table must keep its row count.
 */
const NOT_WRITES = [
  'platform.idempotency_records',
  'platform.rate_limit_windows',
  'platform.periodic_passes',
  'public.webhook_due',
];

/** At most this many runs of an operation's requests, while a scheduled pass writes meanwhile. */
const QUIET_ATTEMPTS = 3;

/** Values no path id, query value or header of this API takes. */
const NASTY_STRINGS = [
  "' OR 1=1--",
  '"; drop table events; --',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '\u202etxt.exe',
  '\uD800',
  'null',
  'undefined',
  '-1',
  '1e309',
  'NaN',
  '[]',
  '{}',
  '0x41',
  'ＡＢＣ',
  '4111111111111111',
  ' ',
];

const nasty = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 2000 }),
);

/** What a path segment that is not a UUID may be spelled with (a stream name, a flag's name). */
const NAME_SEGMENT = /^[A-Za-z0-9_.:-]{1,200}$/;

/** A JSON value nested `depth` levels deep (arrays in arrays). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('hostile input on every operation of the OpenAPI document', () => {
  const platform = useTestPlatform({ RELEASED_OPERATIONS: 'terminals' });
  let receiver: WebhookReceiver;
  let partner: TestPartner;
  let ids: PartnerFixtures;
  let terminalKey: string;
  let operations: Operation[];
  let document: any;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  const validators = new Map<string, (value: unknown) => boolean>();

  /** Whether `value` is valid for `schema` of the document (compiled once). */
  function valid(schema: any, value: unknown): boolean {
    const text = JSON.stringify(schema);
    let validate = validators.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text.replaceAll('"#/components/', '"doc#/components/')));
      validators.set(text, validate);
    }
    return validate(value);
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    partner = await platform().newPartner({ name: 'Hostile Tests' });
    // The faults must meet the routes, not the rate limit.
    const tier = await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
      rate_limit_tier: 'ENTERPRISE',
    });
    expect(tier.status).toBe(200);
    ids = await partnerFixtures(platform(), partner, 'Hostile', receiver);
    ids.keyId = partner.keyId;
    const provisioned = await partner.client.post(`/terminals/${ids.terminalId}/provision`);
    expect(provisioned.status).toBe(201);
    terminalKey = provisioned.body.api_key;
    document = (await platform().as(null).get('/openapi.json')).body;
    ajv.addSchema({ $id: 'doc', components: document.components });
    operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(
      ([template, item]) =>
        Object.entries(item).map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          operation,
        })),
    );
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const keyFor = (op: Operation): string | null => {
    const security = (op.operation.security ?? []) as Record<string, unknown>[];
    if (security.some((s) => 'partnerKey' in s)) return partner.key;
    if (security.some((s) => 'operatorKey' in s)) return OPERATOR_KEY;
    if (security.some((s) => 'terminalKey' in s)) return terminalKey;
    return null;
  };
  const isPage = (op: Operation) => op.template.startsWith('/hpp/{sessionId}');
  const ignoresUnknownQuery = (op: Operation) => op.operation['x-ignores-unknown-query'] === true;
  const parameters = (op: Operation, where: string): any[] =>
    ((op.operation.parameters ?? []) as any[]).filter((p) => p.in === where);
  const takesKey = (op: Operation) => parameters(op, 'header').some((p) => p.name === 'Idempotency-Key');
  const jsonBody = (op: Operation) => op.operation.requestBody?.content?.['application/json']?.schema;

  /** The well-formed call the faults are made on: the right key, real ids, no query, no body. */
  function baseline(op: Operation): Hostile {
    const key = keyFor(op);
    return {
      fault: 'none',
      path: fill(op, {}),
      query: '',
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(takesKey(op) ? { 'idempotency-key': `hostile-${Math.random().toString(36).slice(2)}` } : {}),
      },
    };
  }

  function fill(op: Operation, overrides: Record<string, string>): string {
    return op.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(
        overrides[name] ??
          ids[name] ??
          NOT_IDS[name]?.(op.template, ids) ??
          '00000000-0000-4000-8000-000000000000',
      ),
    );
  }

  /** Every kind of fault this operation can be given, each an arbitrary of hostile requests. */
  function faults(op: Operation): fc.Arbitrary<Hostile>[] {
    const base = () => baseline(op);
    const arbitraries: fc.Arbitrary<Hostile>[] = [];
    const pathParams = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (pathParams.length > 0) {
      arbitraries.push(
        fc
          .tuple(fc.constantFrom(...pathParams), nasty)
          // A name of the right form that names nothing is an ordinary 404 (or an empty stream).
          .filter(([, value]) => !NAME_SEGMENT.test(value))
          .map(([name, value]) => ({
            ...base(),
            fault: `path ${name}`,
            path: fill(op, { [name]: value }),
          })),
      );
    }
    if (!ignoresUnknownQuery(op)) {
      const declared = parameters(op, 'query');
      const unknownName = fc
        .oneof(fc.constantFrom('q', 'limit', 'id', 'debug', 'amount', '__proto__', 'state[]'), fc.string())
        .filter((name) => name !== '' && !declared.some((p) => p.name === name));
      arbitraries.push(
        fc.tuple(unknownName, nasty).map(([name, value]) => ({
          ...base(),
          fault: 'an undeclared query parameter',
          query: new URLSearchParams([[name, value]]).toString(),
        })),
      );
      if (declared.length > 0) {
        arbitraries.push(
          fc
            .tuple(fc.constantFrom(...declared), nasty, fc.constantFrom('value', 'twice', 'blank'))
            .filter(([param, value, how]) =>
              how === 'value'
                ? !valid(param.schema, value)
                : // Free text may be blank (a note not given); anything else may not.
                  how === 'twice' || JSON.stringify(param.schema) !== '{"type":"string"}',
            )
            .map(([param, value, how]) => ({
              ...base(),
              fault: `query ${param.name} (${how})`,
              query: new URLSearchParams(
                how === 'twice'
                  ? [
                      [param.name, value],
                      [param.name, value],
                    ]
                  : [[param.name, how === 'blank' ? '' : value]],
              ).toString(),
            })),
        );
      }
    }
    arbitraries.push(
      fc
        .tuple(fc.constantFrom('api-version', 'authorization', 'idempotency-key', 'x-oversized'), nasty)
        // What fetch can send: printable ASCII (a raw CR, LF or NUL is protocol-errors.e2e.ts's).
        .map(([name, value]) => [name, value.replace(/[^\x20-\x7e]/g, '?').trim() || '?'] as const)
        .filter(([name, value]) => {
          if (name === 'authorization') return keyFor(op) !== null;
          if (name === 'idempotency-key') {
            const declared = parameters(op, 'header').find((p) => p.name === 'Idempotency-Key');
            return declared !== undefined && !valid(declared.schema, value);
          }
          if (name === 'api-version') return !valid({ enum: [document.info.version] }, value);
          return true;
        })
        .map(([name, value]) => {
          const headers = { ...base().headers };
          if (name === 'x-oversized') headers['x-oversized'] = 'a'.repeat(17 * 1024);
          else if (name === 'authorization') headers.authorization = `Bearer ${value}`;
          else headers[name] = value;
          return { ...base(), fault: `header ${name}`, headers };
        }),
    );
    const schema = jsonBody(op);
    const bodies: fc.Arbitrary<{ what: string; text: string }>[] = [
      fc.constantFrom(
        { what: 'malformed JSON', text: '{"a":' },
        { what: 'malformed JSON', text: '{"a":1}}' },
        { what: 'malformed JSON', text: "{'a':1}" },
        { what: 'too deep', text: nested(MAX_BODY_DEPTH + 1) },
        { what: 'a lone surrogate', text: '{"a":"\\ud800"}' },
        { what: 'a NUL', text: '{"a":"\\u0000"}' },
        { what: 'over 1 MiB', text: JSON.stringify({ a: 'x'.repeat(1024 * 1024) }) },
      ),
    ];
    if (schema) {
      bodies.push(
        fc
          .oneof(
            fc.jsonValue(),
            fc.dictionary(fc.string(), fc.jsonValue()),
            fc.constant({ a: 'x'.repeat(MAX_BODY_STRING_LENGTH + 1) }),
            fc.constant({ a: new Array(MAX_BODY_ARRAY_LENGTH + 1).fill(0) }),
          )
          .filter((value) => !valid(schema, value))
          .map((value) => ({ what: 'a body its schema refuses', text: JSON.stringify(value) })),
      );
    }
    // fetch sends no body with a GET.
    if (op.method === 'GET') return arbitraries;
    arbitraries.push(
      fc.oneof(...bodies).map(({ what, text }) => ({
        ...base(),
        fault: `body: ${what}`,
        headers: { ...base().headers, 'content-type': 'application/json' },
        body: text,
      })),
    );
    if (op.operation.requestBody) {
      arbitraries.push(
        fc
          .constantFrom(
            'text/plain',
            'application/xml',
            'application/json; charset=utf-16',
            'multipart/form-data',
          )
          .map((type) => ({
            ...base(),
            fault: `content-type ${type}`,
            headers: { ...base().headers, 'content-type': type },
            body: '{}',
          })),
      );
    }
    return arbitraries;
  }

  async function send(op: Operation, request: Hostile) {
    const url = `${platform().service.url}/api/v1${request.path}${request.query ? `?${request.query}` : ''}`;
    const res = await fetch(url, {
      method: op.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text };
  }

  /** Why an answer to a hostile request is wrong, or null. */
  function wrongAnswer(op: Operation, answer: Awaited<ReturnType<typeof send>>): string | null {
    if (answer.status < 400 || answer.status > 499) return `answered ${answer.status}`;
    if (isPage(op)) {
      return answer.type.startsWith('text/html') ? null : `a payer's page answered ${answer.type}`;
    }
    if (!answer.type.startsWith('application/problem+json')) return `answered ${answer.type}`;
    let body: any;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return 'answered a problem that is not JSON';
    }
    if (!valid({ $ref: '#/components/schemas/Problem' }, body)) return 'answered a malformed problem';
    return body.status === answer.status ? null : `a problem saying ${body.status}`;
  }

  /**
   * Until every projector has applied every event of its types (the lag operators see), so
   * that a count read next is not still moving with what the fixtures or a scheduled pass wrote.
   */
  async function caughtUp(): Promise<void> {
    const { projections } = platform().service.infra;
    const deadline = performance.now() + 15_000;
    for (;;) {
      const behind = (await projections.status()).filter((p) => p.lag > 0 || p.state !== 'running');
      if (behind.length === 0) return;
      if (performance.now() > deadline) {
        throw new Error(`projectors still behind: ${behind.map((p) => `${p.name} ${p.state} lag ${p.lag}`)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  interface Snapshot {
    /** Events of anyone but the platform's scheduled passes (actor `system:…`). */
    events: string;
    /** Events of the scheduled passes: while they write, the read models may move for them. */
    systemEvents: string;
    /** Every read model's and store's row count, by `schema.table`. */
    rows: Record<string, string>;
  }

  /** What a refused request must leave as it was, read once the projectors have caught up. */
  async function snapshot(): Promise<Snapshot> {
    await caughtUp();
    const { pool } = platform().service.infra;
    const tables = await pool.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE'
          and table_schema not in ('pg_catalog', 'information_schema', 'event_store')
          and table_name not like '%checkpoint%' and table_name not like '%migrations%'
          and table_schema || '.' || table_name <> all($1::text[])
        order by 1, 2`,
      [NOT_WRITES],
    );
    const counts = await pool.query<Record<string, string>>(
      `select ${[
        `(select count(*)::text from event_store.events where metadata->>'actor' not like 'system:%') as "events"`,
        `(select count(*)::text from event_store.events where metadata->>'actor' like 'system:%') as "system"`,
        ...tables.rows.map(
          ({ schema, name }) => `(select count(*)::text from "${schema}"."${name}") as "${schema}.${name}"`,
        ),
      ].join(', ')}`,
    );
    const { events, system, ...rows } = counts.rows[0];
    return { events, systemEvents: system, rows };
  }

  /** What changed from `before` to `after` (empty: nothing). */
  function written(before: Snapshot, after: Snapshot): string[] {
    const changed = after.events === before.events ? [] : [`events ${before.events}→${after.events}`];
    for (const key of new Set([...Object.keys(before.rows), ...Object.keys(after.rows)])) {
      if (after.rows[key] !== before.rows[key]) changed.push(`${key} ${before.rows[key]}→${after.rows[key]}`);
    }
    return changed;
  }

  it('reads every operation from the document and can call each with the right key and ids', () => {
    expect(operations.length).toBeGreaterThan(120);
    const unfilled = operations.flatMap((op) =>
      [...op.template.matchAll(/\{([^}]+)\}/g)]
        .map((m) => m[1])
        .filter((name) => !(name in ids) && !(name in NOT_IDS) && name !== 'exceptionId')
        .map((name) => `${op.method} ${op.template}: {${name}}`),
    );
    expect(unfilled).toEqual([]);
  });

  it('ignores undeclared query parameters only on the pages people open and the health probe', () =>
    expect(
      operations
        .filter(ignoresUnknownQuery)
        .map((op) => `${op.method} ${op.template}`)
        .sort(),
    ).toEqual([...IGNORE_UNKNOWN_QUERY].sort()));

  it('answers every hostile request with a 4xx problem, never a 2xx or a 5xx, and writes nothing', async () => {
    const failures: string[] = [];
    // Each operation's "after" is the next one's "before".
    let before = await snapshot();
    for (const op of operations) {
      const name = `${op.method} ${op.template}`;
      const property = fc.asyncProperty(fc.oneof(...faults(op)), async (request) => {
        const answer = await send(op, request);
        const wrong = wrongAnswer(op, answer);
        if (wrong) throw new Error(`${request.fault}: ${wrong} ${answer.text.slice(0, 300)}`);
      });
      // A scheduled pass (a sweep, a webhook delivery) may write while the requests run, and the
      // read models move for it: the requests are then sent again, until a quiet run.
      for (let attempt = 1; ; attempt += 1) {
        const result = await fc.check(property, {
          numRuns: RUNS_PER_OPERATION,
          seed: SEED,
          endOnFailure: true,
        });
        const after = await snapshot();
        if (result.failed && attempt === 1) {
          const counterexample = JSON.stringify(result.counterexample?.[0] ?? null).slice(0, 400);
          failures.push(
            `${name}: ${String((result.errorInstance as Error)?.message).slice(0, 500)} — ${counterexample}`,
          );
        }
        const changed = written(before, after);
        const quiet = after.systemEvents === before.systemEvents;
        before = after;
        if (changed.length === 0) break;
        if (quiet || after.events !== before.events || attempt === QUIET_ATTEMPTS) {
          failures.push(
            `${name}: wrote ${changed.join(', ')}${quiet ? '' : ' (a scheduled pass wrote too)'}`,
          );
          break;
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
