import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { z } from 'zod';
import type { RouteAccess } from '../auth/access';
import { DEFAULT_PAGE_SIZE, MAX_CURSOR_LENGTH, MAX_PAGE_SIZE } from '../pagination/pagination';
import type { QueryDoc } from '../http/strict-query';
import { MONEY_INPUT_PATTERN, ProblemSchema } from './wire-schemas';
import type { RouteDescription } from './describe';

/**
 * The OpenAPI 3.1 document, built from the routes as the app registered them
 * (docs/adr/0007-openapi-from-code.md): method, path, access tier, scope, feature flag, success
 * status and path parameters come from the routes' own decorators, request bodies from their DTO
 * classes (class-validator metadata) or from the zod schema their parser runs, responses from the
 * zod schemas the resource mappers are typed by, and the rest from `@Describe()`.
 */
export interface DiscoveredRoute {
  method: string;
  /** As registered: `/api/v1/merchants/:merchantId`. */
  path: string;
  controller: string;
  handler: string;
  access: RouteAccess | undefined;
  feature: string | undefined;
  description: RouteDescription | undefined;
  successStatus: number;
  /** The `@Body()` parameter's class, when it is a DTO. */
  bodyType: (new (...args: never[]) => unknown) | undefined;
  takesBody: boolean;
  /** A write the idempotency interceptor holds to an `Idempotency-Key` (all but the opted-out). */
  idempotencyKey: boolean;
  pathParams: { name: string; uuid: boolean }[];
}

export interface DocumentOptions {
  /** The API's base, `http://127.0.0.1:3000/api/v1`. */
  serverUrl: string;
  apiVersion: string;
  appEnv: string;
}

export const API_PREFIX = '/api/v1';

type Json = Record<string, unknown>;

/** A route that cannot be described: the document is refused rather than silently incomplete. */
export class UndescribedRoutes extends Error {
  constructor(readonly routes: string[]) {
    super(`routes without @Describe(): ${routes.join(', ')}`);
  }
}

const WRITES = ['POST', 'PUT', 'PATCH'];

/** class-transformer's `@Type()` records (nested DTOs): not in the package's typed entry point. */
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

/** `/api/v1/merchants/:merchantId` → `/merchants/{merchantId}`. */
export function openApiPath(path: string): string {
  const bare = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  return (bare || '/').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Tags by path, first match wins: the reference page groups operations by them. */
const TAGS: [RegExp, string][] = [
  [/^\/platform\//, 'Platform (operator)'],
  [/^\/(partner|capabilities|iam)\b/, 'Partner'],
  [/^\/certification\b/, 'Certification'],
  [/^\/config\/custom-fields\b/, 'Custom fields'],
  [/^\/config\/hpp-page\b/, 'Hosted page configuration'],
  [/^\/config\b/, 'Configuration'],
  [/^\/merchants\/[^/]+\/customers\b/, 'Customers'],
  [/^\/merchants\/[^/]+\/stored-credentials\b/, 'Stored credentials'],
  [/^\/(merchants|onboarding)\b/, 'Merchants'],
  [/^\/transactions\b/, 'Transactions'],
  [/^\/hpp\/sessions\b/, 'Hosted payment pages'],
  [/^\/hpp\b/, 'Payer pages'],
  [/^\/terminals\b/, 'Terminals'],
  [/^\/(webhook|events)/, 'Webhooks'],
  [/^\/settlement\b/, 'Settlement'],
  [/^\/contracts\b/, 'Recurring contracts'],
];

function tagOf(path: string, description: RouteDescription): string {
  if (description.tag) return description.tag;
  return TAGS.find(([pattern]) => pattern.test(path))?.[1] ?? 'Service';
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  303: 'See Other',
  400: 'Bad Request: `validation_error` names each field in `errors`',
  401: 'Unauthorized: the key is missing, malformed, unknown, rotated or deleted',
  403: 'Forbidden: wrong tier, missing scope or feature flag, or an address outside the IP allow-list',
  404: 'Not Found: the record does not exist or is not the caller’s',
  405: 'Method Not Allowed',
  409: 'Conflict: a state that does not allow the action, or the same Idempotency-Key still in progress',
  410: 'Gone',
  413: 'Payload Too Large: the body is over 1 MiB',
  415: 'Unsupported Media Type: bodies are JSON (UTF-8) only',
  422: 'Unprocessable Entity: a business rule, or the same Idempotency-Key with another body',
  429: 'Too Many Requests: over the rate of the tier; see Retry-After',
  501: 'Not Implemented: a reserved operation or variant',
  502: 'Bad Gateway: the gateway’s outcome is unknown; retry with the same Idempotency-Key',
  503: 'Service Unavailable: the database is unreachable; see Retry-After',
};

/** The problem statuses any route of this kind may answer, whatever it does. */
export function commonErrorStatuses(route: DiscoveredRoute, description: RouteDescription): number[] {
  const statuses = new Set<number>([400, 503]); // a bad Api-Version header; the database down
  if (route.access?.tier !== 'public') {
    statuses.add(401);
    statuses.add(403);
    statuses.add(429);
  }
  if (route.pathParams.length > 0) statuses.add(404);
  if (route.idempotencyKey) {
    statuses.add(409); // idempotency_key_in_progress
    statuses.add(422); // idempotency_key_reused
  }
  if (route.takesBody || description.form) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses];
}

/** Whether the app's idempotency interceptor requires `Idempotency-Key` on this route. */
export function takesIdempotencyKey(route: Pick<DiscoveredRoute, 'idempotencyKey'>): boolean {
  return route.idempotencyKey;
}

/** The methods the idempotency interceptor holds to a key. */
export function isWrite(method: string): boolean {
  return WRITES.includes(method);
}

/** A zod schema as JSON Schema 2020-12, its named parts hoisted into `components`. */
class SchemaSet {
  readonly components: Record<string, Json> = {};

  ref(schema: z.ZodType): Json {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'throw',
      override: ({ jsonSchema }) => {
        // A format says it all; zod's own regex for it is noise in the document.
        if (jsonSchema.format === 'date-time' && typeof jsonSchema.pattern === 'string')
          delete jsonSchema.pattern;
      },
    }) as Json;
    delete converted.$schema;
    const defs = (converted.$defs ?? {}) as Record<string, Json>;
    delete converted.$defs;
    for (const [id, def] of Object.entries(defs)) this.add(id, def);
    const id = z.globalRegistry.get(schema)?.id;
    if (id) {
      // A named schema comes back as a reference to its own definition, hoisted above.
      if (converted.$ref !== `#/$defs/${id}`) this.add(id, converted);
      return { $ref: `#/components/schemas/${id}` };
    }
    return rewriteRefs(converted, '#/$defs/', '#/components/schemas/');
  }

  add(id: string, schema: Json): void {
    const rewritten = rewriteRefs(schema, '#/$defs/', '#/components/schemas/');
    const existing = this.components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
      throw new Error(`two different schemas are named ${id}`);
    }
    this.components[id] = rewritten;
  }
}

function rewriteRefs(value: Json, from: string, to: string): Json {
  return JSON.parse(
    JSON.stringify(value, (key, item) =>
      key === '$ref' && typeof item === 'string' && item.startsWith(from)
        ? to + item.slice(from.length)
        : item,
    ),
  ) as Json;
}

/** Every DTO class's schema (class-validator metadata), as the validation pipe reads them. */
function dtoSchemas(): Record<string, Json> {
  const schemas = validationMetadatasToSchemas({
    classValidatorMetadataStorage: getMetadataStorage(),
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/components/schemas/',
    forbidNonWhitelisted: true,
    additionalConverters: {
      [ValidationTypes.CUSTOM_VALIDATION]: (meta) => {
        const constraint = meta.constraintCls
          ? getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls)[0]
          : undefined;
        return CUSTOM_CONSTRAINTS[constraint?.name ?? ''] ?? {};
      },
    },
  }) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) {
    schemas[name] = dtoSchema(schema);
  }
  return schemas;
}

/** A field a DTO refuses outright (`@Refused()`): absent from its schema, so unknown-field rules refuse it. */
const REFUSED = 'x-refused';

/** What the project's own class-validator decorators mean in JSON Schema. */
const CUSTOM_CONSTRAINTS: Record<string, Json> = {
  isDecimalAmount: { type: 'string', pattern: MONEY_INPUT_PATTERN.source },
  refused: { [REFUSED]: true },
};

/**
 * A DTO as the pipe treats it: unknown fields refused (`forbidNonWhitelisted`), and an optional
 * field (`@IsOptional()`) may also be `null`, which the pipe lets through as "not given".
 */
function dtoSchema(schema: Json): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const refused = new Set(Object.keys(properties).filter((name) => properties[name][REFUSED]));
  const required = new Set(((schema.required ?? []) as string[]).filter((name) => !refused.has(name)));
  const out: Record<string, Json> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (refused.has(name)) continue;
    out[name] = required.has(name) ? property : { anyOf: [property, { type: 'null' }] };
  }
  return {
    ...schema,
    properties: out,
    ...(required.size > 0 ? { required: [...required] } : { required: undefined }),
    additionalProperties: false,
  };
}

/** The `$ref`s a schema holds, transitively through `components`. */
function referenced(schema: unknown, components: Record<string, Json>, into: Set<string>): Set<string> {
  JSON.stringify(schema, (key, item) => {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
      const name = item.slice('#/components/schemas/'.length);
      if (!into.has(name) && components[name]) {
        into.add(name);
        referenced(components[name], components, into);
      }
    }
    return item;
  });
  return into;
}

const SECURITY_SCHEMES = {
  partnerKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'csk_<8>_<32>',
    description:
      'A partner API key, issued by the operator (`POST /platform/partners/{partnerId}/api-keys`). Each operation names the scope it needs.',
  },
  operatorKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'cop_<8>_<24+>',
    description: 'The platform operator key (`PLATFORM_OPERATOR_KEY`): the `/platform/...` tier only.',
  },
  terminalKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ctk_<8>_<32>',
    description: 'A terminal’s own key, issued by provisioning: good only for that terminal’s heartbeat.',
  },
};

function securityOf(access: RouteAccess | undefined): Json[] {
  switch (access?.tier) {
    case 'partner':
      return [{ partnerKey: [access.scope] }];
    case 'operator':
      return [{ operatorKey: [] }];
    case 'terminal':
      return [{ terminalKey: [] }];
    default:
      return [];
  }
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'Every write: the same key and body within 24 hours replays the first answer (`X-Idempotent-Replay: true`); another body is 422 `idempotency_key_reused`. Keys starting `hpp:`, `recurring:`, `rb:`, `inv-charge:` or `inv-installment:` are reserved (400).',
  schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:\\-]+$' },
};

function apiVersionHeader(apiVersion: string): Json {
  return {
    name: 'Api-Version',
    in: 'header',
    required: false,
    description:
      'Pin a dated version this deployment serves; otherwise the partner’s own `api_version` applies.',
    schema: { type: 'string', enum: [apiVersion] },
  };
}

function queryParameters(query: QueryDoc | undefined, paged: boolean): Json[] {
  const parameters: Json[] = [];
  for (const [name, param] of Object.entries(query ?? {})) {
    parameters.push({
      name,
      in: 'query',
      required: false,
      ...(param.description ? { description: param.description } : {}),
      schema: param.schema,
    });
  }
  if (paged) {
    parameters.push(
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description: 'The previous page’s `pagination.next_cursor` (opaque; bound to this list and caller).',
        schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH },
      },
      {
        name: 'page_size',
        in: 'query',
        required: false,
        description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
      },
    );
  }
  return parameters;
}

function responseHeaders(route: DiscoveredRoute): Json {
  return {
    'Api-Version': { $ref: '#/components/headers/Api-Version' },
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(takesIdempotencyKey(route)
      ? { 'X-Idempotent-Replay': { $ref: '#/components/headers/X-Idempotent-Replay' } }
      : {}),
  };
}

function isZod(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

export function buildOpenApiDocument(routes: readonly DiscoveredRoute[], options: DocumentOptions): Json {
  const undescribed = routes.filter((route) => !route.description);
  if (undescribed.length > 0) {
    throw new UndescribedRoutes(
      undescribed.map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`),
    );
  }
  const schemas = new SchemaSet();
  const problemRef = schemas.ref(ProblemSchema);
  const dtos = dtoSchemas();
  const usedDtos = new Set<string>();
  const paths: Record<string, Record<string, Json>> = {};
  const tags = new Set<string>();

  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const description = route.description!;
    const path = openApiPath(route.path);
    const tag = tagOf(path, description);
    tags.add(tag);
    const parameters: Json[] = [
      ...route.pathParams.map((param) => ({
        name: param.name,
        in: 'path',
        required: true,
        schema: param.uuid ? { type: 'string', format: 'uuid' } : { type: 'string' },
      })),
      ...queryParameters(description.query, description.paged ?? false),
      ...(takesIdempotencyKey(route) ? [IDEMPOTENCY_KEY] : []),
      apiVersionHeader(options.apiVersion),
    ];

    let requestBody: Json | undefined;
    if (description.body) {
      requestBody = {
        required: true,
        content: { 'application/json': { schema: schemas.ref(description.body) } },
      };
    } else if (description.form) {
      requestBody = {
        required: true,
        content: { [description.form.mediaType]: { schema: schemas.ref(description.form.schema) } },
      };
    } else if (route.bodyType && dtos[route.bodyType.name]) {
      const name = route.bodyType.name;
      usedDtos.add(name);
      referenced(dtos[name], dtos, usedDtos);
      requestBody = {
        required: ((dtos[name].required ?? []) as string[]).length > 0,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
      };
    } else if (route.takesBody) {
      throw new Error(
        `${route.method} ${route.path} reads a body that neither a DTO nor @Describe({ body }) describes`,
      );
    }

    const responses: Record<string, Json> = {};
    const success = description.response;
    const headers = responseHeaders(route);
    if (success === null) {
      responses[route.successStatus] = {
        description: STATUS_TEXT[route.successStatus] ?? 'Success',
        headers,
      };
    } else if (isZod(success)) {
      responses[route.successStatus] = {
        description: STATUS_TEXT[route.successStatus] ?? 'Success',
        headers,
        content: { 'application/json': { schema: schemas.ref(success) } },
      };
    } else {
      responses[route.successStatus] = {
        description: success.description ?? STATUS_TEXT[route.successStatus] ?? 'Success',
        headers,
        content: Object.fromEntries(
          [success.mediaType].flat().map((type) => [type, { schema: success.schema ?? { type: 'string' } }]),
        ),
      };
    }
    for (const [status, other] of Object.entries(description.otherResponses ?? {})) {
      responses[status] = {
        description: other.description,
        headers,
        ...(other.schema
          ? { content: { 'application/json': { schema: schemas.ref(other.schema) } } }
          : other.mediaType
            ? { content: { [other.mediaType]: { schema: { type: 'string' } } } }
            : {}),
      };
    }
    const errors = new Set([...commonErrorStatuses(route, description), ...(description.errors ?? [])]);
    for (const status of [...errors].sort()) {
      if (responses[status]) continue;
      responses[status] = description.htmlErrors
        ? {
            description: STATUS_TEXT[status] ?? 'Error',
            headers,
            content: { 'text/html': { schema: { type: 'string' } } },
          }
        : { $ref: `#/components/responses/Problem${status}` };
    }

    const notes: string[] = [];
    if (description.sandboxOnly) notes.push('**Sandbox only**: production answers 404 (no such route).');
    if (route.feature)
      notes.push(`Needs the feature flag \`${route.feature}\` (403 \`feature_not_enabled\` otherwise).`);
    if (route.access?.tier === 'partner') notes.push(`Scope: \`${route.access.scope}\`.`);
    if (description.description) notes.push(description.description);

    const operation: Json = {
      operationId: `${route.controller.replace(/Controller$/, '')}_${route.handler}`,
      summary: description.summary,
      ...(notes.length ? { description: notes.join('\n\n') } : {}),
      tags: [tag],
      security: securityOf(route.access),
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(description.sandboxOnly ? { 'x-sandbox-only': true } : {}),
      ...(route.feature ? { 'x-feature-flag': route.feature } : {}),
      ...(route.access ? { 'x-access-tier': route.access.tier } : {}),
    };
    paths[path] ??= {};
    const method = route.method.toLowerCase();
    if (paths[path][method]) throw new Error(`${route.method} ${path} is registered twice`);
    paths[path][method] = operation;
  }

  const problemResponses: Record<string, Json> = {};
  for (const status of Object.keys(STATUS_TEXT)
    .map(Number)
    .filter((s) => s >= 400)) {
    problemResponses[`Problem${status}`] = {
      description: STATUS_TEXT[status],
      headers: {
        'Api-Version': { $ref: '#/components/headers/Api-Version' },
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        ...(status === 429 || status === 503 || status === 409
          ? { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } } }
          : {}),
      },
      content: { 'application/problem+json': { schema: problemRef } },
    };
  }

  const componentsSchemas: Record<string, Json> = { ...schemas.components };
  for (const name of [...usedDtos].sort()) {
    if (componentsSchemas[name]) throw new Error(`a DTO and a schema are both named ${name}`);
    componentsSchemas[name] = dtos[name];
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Payments API',
      version: options.apiVersion,
      description: [
        'Merchant onboarding, card and ACH transactions, hosted payment pages, the card vault, settlement and webhooks for partners (software vendors), and the operator tier `/platform/...`.',
        'Money is a decimal string (`"10.50"`) everywhere but the transaction list’s integer `amount` (minor units). Lists are cursor-paged, newest first. Every error is `application/problem+json` with a `code`. Every write takes an `Idempotency-Key`.',
        `Environment of this deployment: \`${options.appEnv}\`. Operations marked \`x-sandbox-only\` exist only in sandbox.`,
      ].join('\n\n'),
    },
    servers: [{ url: options.serverUrl }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: Object.fromEntries(Object.entries(componentsSchemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: problemResponses,
      headers: {
        'Api-Version': {
          description: 'The dated API version the answer was built for.',
          schema: { type: 'string', enum: [options.apiVersion] },
        },
        'X-Request-Id': {
          description: 'The request’s id (yours when sane, else generated); also `request_id` of a problem.',
          schema: { type: 'string' },
        },
        'X-Idempotent-Replay': {
          description:
            '`true` when the answer is the replay of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
  };
}
