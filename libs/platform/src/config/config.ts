/**
 * The service's configuration, read once from the environment at start (CONTRACT §1). A bad
 * value stops the process with one line naming the variable and what it accepts.
 */
import { isAddressOrRange } from '../net/ip-allowlist';

export type AppEnv = 'sandbox' | 'production';

export interface AppConfig {
  port: number;
  host: string;
  publicBaseUrl: string;
  /** Unset: the process starts an embedded PostgreSQL in `DATA_DIR/postgres`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Unset: events live in PostgreSQL (`databaseUrl`). */
  eventStoreUrl: string | null;
  appEnv: AppEnv;
  /** Unset in sandbox: generated on first start (issue #4 handles the generation). */
  platformOperatorKey: string | null;
  /** Seconds before attempts 1..n. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  releasedOperations: string[];
  logLevel: string;
  /**
   * Key-encryption key of the vault (base64 of 32 bytes). Unset in sandbox: generated into
   * DATA_DIR on first start; required in production.
   */
  vaultKey: string | null;
  /** How long a client may take to send a request's headers (slow-header clients are cut off). */
  httpHeadersTimeoutMs: number;
  /** How long a client may take to send a whole request, headers and body. */
  httpRequestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after a response. */
  httpKeepAliveTimeoutMs: number;
  /**
   * The longest a read cache (API key, partner, merchant, stored credential) serves an entry:
   * the bound on how late a change made on another process is seen. 0 turns the caches off.
   */
  readCacheMaxAgeMs: number;
  /**
   * Addresses or CIDR ranges of the proxies in front of the service, whose `X-Forwarded-For` names
   * the client; empty: the socket's peer is the client, and `X-Forwarded-For` is ignored.
   */
  trustProxy: string[];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly value: string,
    readonly accepts: string,
  ) {
    super(`invalid configuration: ${variable}=${JSON.stringify(value)}: ${accepts}`);
    this.name = 'ConfigError';
  }
}

const PLANNED_OPERATIONS = ['terminals'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const OPERATOR_KEY = /^cop_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,}$/;

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, raw, `must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

function url(env: Env, name: string, schemes: string[]): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, redact(raw), `must be a URL starting with ${schemes.join(' or ')}`);
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new ConfigError(name, redact(raw), `must be a URL starting with ${schemes.join(' or ')}`);
  }
  return raw;
}

/** Never echo a password from a connection string into a log line. */
function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host))
    throw new ConfigError('HOST', host, 'must be a host name or IP address');

  const appEnv = (read(env, 'APP_ENV') ?? 'sandbox') as AppEnv;
  if (appEnv !== 'sandbox' && appEnv !== 'production') {
    throw new ConfigError('APP_ENV', appEnv, 'must be sandbox or production');
  }

  const publicBaseUrl = (
    url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`
  ).replace(/\/+$/, '');

  const operatorKey = read(env, 'PLATFORM_OPERATOR_KEY') ?? null;
  if (operatorKey !== null && !OPERATOR_KEY.test(operatorKey)) {
    throw new ConfigError(
      'PLATFORM_OPERATOR_KEY',
      '<hidden>',
      'must look like cop_<8 url-safe>_<24+ url-safe>',
    );
  }
  if (operatorKey === null && appEnv === 'production') {
    throw new ConfigError('PLATFORM_OPERATOR_KEY', '', 'is required when APP_ENV=production');
  }

  const scheduleRaw = read(env, 'WEBHOOK_RETRY_SCHEDULE') ?? '0,30,300,1800';
  const schedule = scheduleRaw.split(',').map((s) => s.trim());
  if (schedule.length > 20 || schedule.some((s) => !/^\d+$/.test(s) || Number(s) > 86400)) {
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      scheduleRaw,
      'must be 1 to 20 comma-separated whole seconds (0 to 86400), e.g. 0,30,300,1800',
    );
  }

  const released = (read(env, 'RELEASED_OPERATIONS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const op of released) {
    if (!(PLANNED_OPERATIONS as readonly string[]).includes(op)) {
      throw new ConfigError(
        'RELEASED_OPERATIONS',
        op,
        `must be a comma-separated list of: ${PLANNED_OPERATIONS.join(', ')}`,
      );
    }
  }

  const vaultKey = read(env, 'VAULT_KEY') ?? null;
  if (vaultKey !== null && !/^[A-Za-z0-9+/]{43}=$/.test(vaultKey)) {
    throw new ConfigError(
      'VAULT_KEY',
      '<hidden>',
      'must be the base64 of 32 random bytes (openssl rand -base64 32)',
    );
  }
  if (vaultKey === null && appEnv === 'production') {
    throw new ConfigError('VAULT_KEY', '', 'is required when APP_ENV=production');
  }

  // A connection must not be held open forever by a client that sends nothing, or a byte at a time.
  const httpHeadersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const httpRequestTimeoutMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  if (httpRequestTimeoutMs < httpHeadersTimeoutMs) {
    throw new ConfigError(
      'HTTP_REQUEST_TIMEOUT_MS',
      String(httpRequestTimeoutMs),
      `must not be below HTTP_HEADERS_TIMEOUT_MS (${httpHeadersTimeoutMs}): the headers are part of the request`,
    );
  }
  const httpKeepAliveTimeoutMs = integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000);

  const trustProxy = (read(env, 'TRUST_PROXY') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of trustProxy) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(
        'TRUST_PROXY',
        entry,
        'must be a comma-separated list of IP addresses or CIDR ranges (the proxies in front of the service)',
      );
    }
  }

  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', logLevel, `must be one of ${LOG_LEVELS.join(', ')}`);

  return {
    port,
    host,
    publicBaseUrl,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: read(env, 'DATA_DIR') ?? '.data',
    eventStoreUrl: url(env, 'EVENT_STORE_URL', [
      'kurrentdb:',
      'kurrent:',
      'esdb:',
      'esdb+discover:',
      'kurrentdb+discover:',
    ]),
    appEnv,
    platformOperatorKey: operatorKey,
    webhookRetrySchedule: schedule.map(Number),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10000, 100, 60000),
    releasedOperations: released,
    logLevel,
    vaultKey,
    httpHeadersTimeoutMs,
    httpRequestTimeoutMs,
    httpKeepAliveTimeoutMs,
    readCacheMaxAgeMs: integer(env, 'READ_CACHE_MAX_AGE_MS', 1000, 0, 60_000),
    trustProxy,
  };
}
