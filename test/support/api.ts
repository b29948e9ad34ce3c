/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { startTestService, type TestService } from './app';

/** One operator key per test run; the service under test is started with it. */
export const OPERATOR_KEY = generateKey('cop').key;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The body as it came on the wire (ApiClient calls fill it). */
  text?: string;
}

export interface CallOptions {
  body?: unknown;
  /** Idempotency-Key for writes; a fresh one when omitted, none when `null`. */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
}

/** Where an ApiClient sends its calls: the service in this process, or a real process's address. */
export type ApiTarget = Pick<TestService, 'url' | 'call'>;

/** A caller with one credential: every request carries its Bearer key (or none). */
export class ApiClient<S extends ApiTarget = TestService> {
  constructor(
    readonly service: S,
    readonly key: string | null,
  ) {}

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    const write = ['POST', 'PUT', 'PATCH'].includes(method);
    if (write && options.idempotencyKey !== null) {
      headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    }
    const res = await this.service.call(method, `/api/v1${path}`, { body: options.body, headers });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: body as T, text };
  }

  get = <T = any>(path: string, options?: CallOptions) => this.call<T>('GET', path, options);
  post = <T = any>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('POST', path, { ...options, body });
  put = <T = any>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('PUT', path, { ...options, body });
  patch = <T = any>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('PATCH', path, { ...options, body });
  delete = <T = any>(path: string, options?: CallOptions) => this.call<T>('DELETE', path, options);
}

export interface TestPlatform {
  service: TestService;
  operator: ApiClient;
  /** Creates a partner and an API key (all scopes unless given) through the operator API. */
  newPartner(options?: { name?: string; scopes?: string[] }): Promise<TestPartner>;
  as(key: string | null): ApiClient;
}

export interface TestPartner {
  id: string;
  keyId: string;
  key: string;
  client: ApiClient;
}

/** The running service plus an operator client, started before and closed after the suite. */
export function useTestPlatform(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestService>[1] = {},
): () => TestPlatform {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    const service = await startTestService({ PLATFORM_OPERATOR_KEY: OPERATOR_KEY, ...env }, options);
    const operator = new ApiClient(service, OPERATOR_KEY);
    platform = {
      service,
      operator,
      as: (key) => new ApiClient(service, key),
      newPartner: async (options = {}) => {
        const created = await operator.post('/platform/partners', {
          name: options.name ?? 'Acme Software',
          contact_email: 'dev@acme.test',
          contact_name: 'Ada Lovelace',
        });
        if (created.status !== 201) throw new Error(`partner create: ${JSON.stringify(created.body)}`);
        const issued = await operator.post(
          `/platform/partners/${created.body.id}/api-keys`,
          options.scopes ? { scopes: options.scopes } : {},
        );
        if (issued.status !== 201) throw new Error(`key issue: ${JSON.stringify(issued.body)}`);
        return {
          id: created.body.id,
          keyId: issued.body.id,
          key: issued.body.api_key,
          client: new ApiClient(service, issued.body.api_key),
        };
      },
    };
  }, 60_000);
  afterAll(async () => {
    await platform?.service.close();
  });
  return () => {
    if (!platform) throw new Error('the test platform is not started');
    return platform;
  };
}
