import { createHash } from 'node:crypto';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Every request and response of the end-to-end tests, checked against the OpenAPI document the
 * app serves (docs/adr/0007-openapi-from-code.md), with ajv (JSON Schema 2020-12, as OpenAPI 3.1
 * says). What counts as a mismatch:
 *
 * - a response whose status the operation does not declare, whose media type is not the declared
 *   one, or whose body does not match the declared schema (errors included: problem+json);
 * - a request the document refuses (an unknown query parameter, a missing Idempotency-Key, a body
 *   off its schema…) that the app nevertheless accepted (2xx or 3xx). A refused request answered
 *   4xx is the app and the document agreeing;
 * - a path the document does not know answered anything but a 404/405 problem.
 *
 * Validators are compiled once per process per document (the document is the same for every
 * service a test file starts, terminals released or not, so at most two).
 */

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: string[];
  operation: Json;
}

export interface Exchange {
  method: string;
  /** `/api/v1/merchants?state=DRAFT` */
  path: string;
  requestHeaders: Record<string, string>;
  /** As sent: a string, or a value sent as JSON. */
  requestBody: unknown;
  status: number;
  responseHeaders: Headers;
  /** The body of a JSON answer; null when the answer was not read (another media type). */
  responseText: string | null;
}

const PREFIX = '/api/v1';
const DOCUMENT_ID = 'https://partner-payments.test/openapi.json';
const validators = new Map<string, OpenApiValidator>();

/** The validator of this document text (compiled on first use, then kept for the process). */
export function validatorFor(documentText: string): OpenApiValidator {
  const key = createHash('sha256').update(documentText).digest('hex');
  let validator = validators.get(key);
  if (!validator) {
    validator = new OpenApiValidator(JSON.parse(documentText) as Json);
    validators.set(key, validator);
  }
  return validator;
}

export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components } as Json);
    for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      const params = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pattern = new RegExp(
        `^${template
          .split('/')
          .map((part) => (/^\{.+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}/?$`,
      );
      for (const [method, operation] of Object.entries(item)) {
        this.operations.push({ method: method.toUpperCase(), template, pattern, params, operation });
      }
    }
    // Literal segments win over parameters (`/transactions/summary` before `/transactions/{id}`).
    this.operations.sort((a, b) => a.params.length - b.params.length);
    this.compileAll();
  }

  /**
   * Every schema compiled now, before any test runs: compiling one in the middle of an exchange
   * would hold up the service under test, which runs in this same process.
   */
  private compileAll(): void {
    this.validatorOf({ $ref: '#/components/schemas/Problem' });
    for (const { operation } of this.operations) {
      for (const param of (operation.parameters ?? []) as Json[]) this.validatorOf(param.schema as Json);
      const body = operation.requestBody as Json | undefined;
      for (const media of Object.values((body?.content ?? {}) as Record<string, Json>)) {
        this.validatorOf(media.schema as Json);
      }
      for (let response of Object.values(operation.responses as Record<string, Json>)) {
        if (typeof response.$ref === 'string') response = this.resolve(response.$ref);
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          this.validatorOf(media.schema as Json);
        }
      }
    }
  }

  /** Every mismatch of one exchange, each naming the route, the status and ajv's error path. */
  check(exchange: Exchange): string[] {
    const url = new URL(exchange.path, 'http://service.test');
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) || '/' : url.pathname;
    const route = `${exchange.method} ${url.pathname} → ${exchange.status}`;
    const candidates = this.operations.filter((op) => op.pattern.test(path));
    const found = candidates.find((op) => op.method === exchange.method);
    if (!found) {
      return this.unknownRoute(exchange, candidates.length > 0).map((problem) => `${route}: ${problem}`);
    }
    const operation = found.operation;
    const problems: string[] = [];
    const accepted = exchange.status < 400;
    if (accepted) {
      for (const refusal of this.requestProblems(found, path, url.searchParams, exchange)) {
        problems.push(`the app accepted a request the document refuses: ${refusal}`);
      }
    }
    problems.push(...this.responseProblems(found, operation, exchange));
    return problems.map((problem) => `${route} (${found.method} ${found.template}): ${problem}`);
  }

  private unknownRoute(exchange: Exchange, pathKnown: boolean): string[] {
    const expected = pathKnown ? [405] : [404, 405];
    const problems: string[] = [];
    if (!expected.includes(exchange.status)) {
      problems.push(
        `no operation in the document, yet the answer is ${exchange.status} (not ${expected.join('/')})`,
      );
    }
    const type = exchange.responseHeaders.get('content-type') ?? '';
    if (type.startsWith('application/problem+json') && exchange.responseText !== null) {
      problems.push(
        ...this.bodyProblems({ $ref: '#/components/schemas/Problem' }, exchange.responseText, 'body'),
      );
    }
    return problems;
  }

  private requestProblems(op: Operation, path: string, query: URLSearchParams, exchange: Exchange): string[] {
    const operation = op.operation;
    const problems: string[] = [];
    const parameters = (operation.parameters ?? []) as Json[];
    const values = op.pattern.exec(path)!.slice(1);
    op.params.forEach((name, i) => {
      const param = parameters.find((p) => p.in === 'path' && p.name === name);
      if (!param) problems.push(`path parameter ${name} is not declared`);
      else
        problems.push(
          ...this.valueProblems(param.schema as Json, decodeURIComponent(values[i]), `path ${name}`),
        );
    });
    const names = new Set(query.keys());
    for (const name of names) {
      const param = parameters.find((p) => p.in === 'query' && p.name === name);
      if (!param) {
        problems.push(`query parameter ${name} is not declared`);
        continue;
      }
      const given = query.getAll(name);
      if (given.length > 1) problems.push(`query parameter ${name} is given ${given.length} times`);
      else problems.push(...this.valueProblems(param.schema as Json, given[0], `query ${name}`));
    }
    const headers = Object.fromEntries(
      Object.entries(exchange.requestHeaders).map(([name, value]) => [name.toLowerCase(), value]),
    );
    for (const param of parameters.filter((p) => p.in === 'header')) {
      const value = headers[String(param.name).toLowerCase()];
      if (value === undefined) {
        if (param.required) problems.push(`header ${String(param.name)} is required`);
      } else {
        problems.push(...this.valueProblems(param.schema as Json, value, `header ${String(param.name)}`));
      }
    }
    problems.push(...this.requestBodyProblems(operation, exchange, headers['content-type']));
    return problems;
  }

  private requestBodyProblems(
    operation: Json,
    exchange: Exchange,
    contentType: string | undefined,
  ): string[] {
    const body = exchange.requestBody;
    const empty =
      body === undefined ||
      body === '' ||
      (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
    const declared = operation.requestBody as Json | undefined;
    if (!declared) return empty ? [] : ['a body was sent to an operation that takes none'];
    const content = declared.content as Record<string, Json>;
    if (empty && body === undefined) return declared.required ? ['the request body is required'] : [];
    const mediaType = (contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
    const media = content[mediaType];
    if (!media)
      return [`request media type ${mediaType} is not declared (${Object.keys(content).join(', ')})`];
    let value: unknown = body;
    if (typeof body === 'string') {
      if (mediaType === 'application/x-www-form-urlencoded')
        value = Object.fromEntries(new URLSearchParams(body));
      else {
        try {
          value = JSON.parse(body);
        } catch {
          return ['the request body is not JSON'];
        }
      }
    }
    return this.schemaProblems(media.schema as Json, value, 'request body');
  }

  private responseProblems(op: Operation, operation: Json, exchange: Exchange): string[] {
    const responses = operation.responses as Record<string, Json>;
    let response = responses[String(exchange.status)];
    if (!response)
      return [`status ${exchange.status} is not declared (${Object.keys(responses).join(', ')})`];
    if (typeof response.$ref === 'string') response = this.resolve(response.$ref);
    const content = response.content as Record<string, Json> | undefined;
    const type = (exchange.responseHeaders.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!content) {
      const length = exchange.responseHeaders.get('content-length');
      const empty =
        exchange.responseText === '' ||
        (exchange.responseText === null && (length === null || length === '0'));
      return empty ? [] : [`a body came with ${exchange.status}, which declares none`];
    }
    const media = content[type];
    if (!media) return [`response media type "${type}" is not declared (${Object.keys(content).join(', ')})`];
    if (exchange.responseText === null) return [];
    return this.bodyProblems(media.schema as Json, exchange.responseText, 'response body');
  }

  private bodyProblems(schema: Json, text: string, what: string): string[] {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`the ${what} is not JSON`];
    }
    return this.schemaProblems(schema, value, what);
  }

  /** A path, query or header value: a string, read as a number where the schema wants one. */
  private valueProblems(schema: Json, raw: string, what: string): string[] {
    const numeric = schema.type === 'integer' || schema.type === 'number';
    const value = numeric && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    return this.schemaProblems(schema, value, what);
  }

  private schemaProblems(schema: Json, value: unknown, what: string): string[] {
    const validate = this.validatorOf(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((error: ErrorObject) => {
      const at = error.instancePath || '/';
      return `${what} ${at} ${error.message ?? 'is invalid'}${paramsOf(error)}`;
    });
  }

  private validatorOf(schema: Json): ValidateFunction {
    const text = JSON.stringify(schema);
    let validate = this.compiled.get(text);
    if (!validate) {
      validate = this.ajv.compile(
        JSON.parse(text.replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)),
      );
      this.compiled.set(text, validate);
    }
    return validate;
  }

  private resolve(ref: string): Json {
    let node: unknown = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node as Json;
  }
}

function paramsOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if ('additionalProperty' in params) return ` (${String(params.additionalProperty)})`;
  if ('allowedValues' in params) return ` (${(params.allowedValues as unknown[]).join(', ')})`;
  return '';
}
