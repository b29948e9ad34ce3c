import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has the CONTRACT §1 defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://127.0.0.1:3000',
      databaseUrl: null,
      dataDir: '.data',
      eventStoreUrl: null,
      appEnv: 'sandbox',
      platformOperatorKey: null,
      webhookRetrySchedule: [0, 30, 300, 1800],
      webhookTimeoutMs: 10000,
      releasedOperations: [],
      logLevel: 'info',
      vaultKey: null,
      httpHeadersTimeoutMs: 10000,
      httpRequestTimeoutMs: 30000,
      httpKeepAliveTimeoutMs: 5000,
      readCacheMaxAgeMs: 1000,
      trustProxy: [],
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'https://pay.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/payments',
      DATA_DIR: '/var/lib/payments',
      EVENT_STORE_URL: 'kurrentdb://kurrent:2113?tls=false',
      APP_ENV: 'production',
      PLATFORM_OPERATOR_KEY: 'cop_abcdEFGH_0123456789abcdefghijklmn',
      WEBHOOK_RETRY_SCHEDULE: '0, 5, 10',
      WEBHOOK_TIMEOUT_MS: '2000',
      RELEASED_OPERATIONS: 'terminals',
      VAULT_KEY: 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '60000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      READ_CACHE_MAX_AGE_MS: '250',
      TRUST_PROXY: '10.0.0.0/8, 172.16.0.0/12,::1',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicBaseUrl: 'https://pay.example.com',
      databaseUrl: 'postgres://u:p@db:5432/payments',
      eventStoreUrl: 'kurrentdb://kurrent:2113?tls=false',
      appEnv: 'production',
      webhookRetrySchedule: [0, 5, 10],
      webhookTimeoutMs: 2000,
      releasedOperations: ['terminals'],
      vaultKey: 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=',
      httpHeadersTimeoutMs: 2000,
      httpRequestTimeoutMs: 60000,
      httpKeepAliveTimeoutMs: 65000,
      readCacheMaxAgeMs: 250,
      trustProxy: ['10.0.0.0/8', '172.16.0.0/12', '::1'],
    });
  });

  const bad: [string, Record<string, string>, RegExp][] = [
    [
      'PORT',
      { PORT: 'eighty' },
      /^invalid configuration: PORT="eighty": must be a whole number from 0 to 65535$/,
    ],
    ['PORT', { PORT: '70000' }, /PORT="70000"/],
    ['APP_ENV', { APP_ENV: 'staging' }, /APP_ENV="staging": must be sandbox or production/],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://u:secret@h/db' }, /DATABASE_URL="mysql:\/\/u:\*\*\*@h\/db"/],
    ['EVENT_STORE_URL', { EVENT_STORE_URL: 'http://x' }, /EVENT_STORE_URL=.*kurrentdb:/],
    ['PLATFORM_OPERATOR_KEY', { PLATFORM_OPERATOR_KEY: 'secret-value' }, /PLATFORM_OPERATOR_KEY="<hidden>"/],
    [
      'PLATFORM_OPERATOR_KEY',
      { APP_ENV: 'production' },
      /PLATFORM_OPERATOR_KEY="": is required when APP_ENV=production/,
    ],
    ['VAULT_KEY', { VAULT_KEY: 'not-a-key' }, /VAULT_KEY="<hidden>": must be the base64 of 32 random bytes/],
    [
      'VAULT_KEY',
      { APP_ENV: 'production', PLATFORM_OPERATOR_KEY: 'cop_abcdEFGH_0123456789abcdefghijklmn' },
      /VAULT_KEY="": is required when APP_ENV=production/,
    ],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '0,soon' }, /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '0,,30' }, /WEBHOOK_RETRY_SCHEDULE/],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '0,86401' }, /WEBHOOK_RETRY_SCHEDULE/],
    [
      'WEBHOOK_RETRY_SCHEDULE',
      { WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 21 }, () => '1').join(',') },
      /WEBHOOK_RETRY_SCHEDULE=.*: must be 1 to 20 comma-separated whole seconds/,
    ],
    [
      'WEBHOOK_TIMEOUT_MS',
      { WEBHOOK_TIMEOUT_MS: '99' },
      /WEBHOOK_TIMEOUT_MS="99": must be a whole number from 100 to 60000/,
    ],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '-1' }, /WEBHOOK_TIMEOUT_MS/],
    [
      'RELEASED_OPERATIONS',
      { RELEASED_OPERATIONS: 'everything' },
      /RELEASED_OPERATIONS="everything": must be a comma-separated list of: terminals/,
    ],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [
      'HTTP_HEADERS_TIMEOUT_MS',
      { HTTP_HEADERS_TIMEOUT_MS: '0' },
      /HTTP_HEADERS_TIMEOUT_MS="0": must be a whole number from 100 to 600000/,
    ],
    ['HTTP_REQUEST_TIMEOUT_MS', { HTTP_REQUEST_TIMEOUT_MS: '30s' }, /HTTP_REQUEST_TIMEOUT_MS="30s"/],
    [
      'READ_CACHE_MAX_AGE_MS',
      { READ_CACHE_MAX_AGE_MS: '60001' },
      /READ_CACHE_MAX_AGE_MS="60001": must be a whole number from 0 to 60000/,
    ],
    [
      'HTTP_REQUEST_TIMEOUT_MS',
      { HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' },
      /HTTP_REQUEST_TIMEOUT_MS="10000": must not be below HTTP_HEADERS_TIMEOUT_MS/,
    ],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', { HTTP_KEEP_ALIVE_TIMEOUT_MS: '-5' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    [
      'TRUST_PROXY',
      { TRUST_PROXY: '10.0.0.0/8,caddy' },
      /TRUST_PROXY="caddy": must be a comma-separated list/,
    ],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY="10.0.0.0\/33"/],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }, /TRUST_PROXY="true"/],
  ];
  it.each(bad)('refuses a bad %s with one line naming it', (variable, env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).not.toContain('secret');
  });
});
