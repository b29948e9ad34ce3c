import 'reflect-metadata';
import { Controller, Get, Module, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ProblemFilter } from '../problem/problem.filter';
import { OperatorRoute, PartnerRoute, PublicRoute, RequiresFeature, TerminalRoute } from './access';
import { AuthGuard } from './auth.guard';
import {
  CredentialDirectory,
  TerminalCredentialDirectory,
  type PartnerCredential,
  type TerminalCredential,
} from './credential-directory';
import { OperatorKey } from './operator-key';
import { RateLimiter } from './rate-limiter';
import { MemoryRateWindows } from './rate-windows';
import { generateKey, hashKey } from './secret-key';

/** Keys by prefix, in memory: what the SQL directory answers from the `partner-access` read model. */
class MemoryCredentialDirectory extends CredentialDirectory {
  readonly keys = new Map<string, PartnerCredential>();

  async findByPrefix(prefix: string): Promise<PartnerCredential | null> {
    return this.keys.get(prefix) ?? null;
  }
}

/** Terminal keys by prefix, in memory: what the SQL directory answers from `terminal_list`. */
class MemoryTerminalDirectory extends TerminalCredentialDirectory {
  readonly keys = new Map<string, TerminalCredential>();

  async findByPrefix(prefix: string): Promise<TerminalCredential | null> {
    return this.keys.get(prefix) ?? null;
  }
}

@Controller()
class GuardedController {
  @Get('ach')
  @PartnerRoute('transaction:write')
  @RequiresFeature('ach_payments')
  ach() {
    return { ok: 'ach' };
  }

  @Get('me')
  @PartnerRoute('partner:read')
  me() {
    return { ok: 'me' };
  }

  /** Declares no tier: nobody may call it. */
  @Get('forgotten')
  forgotten() {
    return { ok: 'forgotten' };
  }

  @Get('health')
  @PublicRoute()
  health() {
    return { ok: 'health' };
  }

  @Get('platform')
  @OperatorRoute()
  platform() {
    return { ok: 'platform' };
  }
}

@RequiresFeature('terminals')
@PartnerRoute('terminal:read')
@Controller('terminals')
class FeatureGatedController {
  @Get()
  list() {
    return { ok: 'terminals' };
  }
}

@TerminalRoute()
@RequiresFeature('terminals')
@Controller('device')
class TerminalController {
  @Get()
  heartbeat(@Req() request: FastifyRequest) {
    return { principal: request.principal };
  }
}

const operatorKey = generateKey('cop');
let now = 0;
const directory = new MemoryCredentialDirectory();
const terminalDirectory = new MemoryTerminalDirectory();

/** Registers a terminal key in the terminal directory and returns the full key. */
function terminalKey(overrides: Partial<TerminalCredential> = {}): string {
  const key = generateKey('ctk');
  terminalDirectory.keys.set(key.prefix, {
    terminalId: `terminal-${key.prefix}`,
    prefix: key.prefix,
    partnerId: 'partner-of-terminals',
    keyHash: hashKey(key.key),
    enabledFeatures: ['terminals'],
    rateLimitTier: 'STANDARD',
    ...overrides,
  });
  return key.key;
}

@Module({
  controllers: [GuardedController, FeatureGatedController, TerminalController],
  providers: [
    { provide: OperatorKey, useValue: new OperatorKey(operatorKey.hash) },
    { provide: CredentialDirectory, useValue: directory },
    { provide: TerminalCredentialDirectory, useValue: terminalDirectory },
    { provide: RateLimiter, useValue: new RateLimiter(new MemoryRateWindows(() => now), () => now) },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_FILTER, useClass: ProblemFilter },
  ],
})
class GuardTestModule {}

/** Registers a partner key in the directory and returns the full key. */
function partnerKey(overrides: Partial<PartnerCredential> = {}): string {
  const key = generateKey('csk');
  directory.keys.set(key.prefix, {
    keyId: `key-${key.prefix}`,
    prefix: key.prefix,
    partnerId: `partner-${key.prefix}`,
    keyHash: hashKey(key.key),
    scopes: ['partner:read', 'transaction:write', 'terminal:read'],
    enabledFeatures: [],
    ipAllowlist: [],
    rateLimitTier: 'STANDARD',
    apiVersion: '2026-09-01',
    ...overrides,
  });
  return key.key;
}

describe('AuthGuard in a Nest Fastify app', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(GuardTestModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  async function get(url: string, key?: string, remoteAddress = '127.0.0.1') {
    const res = await app.inject({
      method: 'GET',
      url,
      remoteAddress,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> };
  }

  function expectProblem(res: Awaited<ReturnType<typeof get>>, status: number, code: string) {
    expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toMatchObject({
      status,
      type: expect.stringMatching(/^application\/problem\+json/),
      body: { status, code, title: expect.any(String), detail: expect.any(String) },
    });
  }

  describe('@RequiresFeature', () => {
    it('refuses a partner without the flag with 403 feature_not_enabled', async () => {
      expectProblem(await get('/ach', partnerKey()), 403, 'feature_not_enabled');
      expectProblem(
        await get('/ach', partnerKey({ enabledFeatures: ['recurring_billing'] })),
        403,
        'feature_not_enabled',
      );
    });

    it('lets a partner with the flag through', async () => {
      const res = await get('/ach', partnerKey({ enabledFeatures: ['stored_credentials', 'ach_payments'] }));
      expect(res).toMatchObject({ status: 200, body: { ok: 'ach' } });
    });

    it('checks the scope before the feature: a key without the scope is 403 unauthorized', async () => {
      const key = partnerKey({ scopes: ['partner:read'], enabledFeatures: [] });
      expectProblem(await get('/ach', key), 403, 'unauthorized');
    });

    it('applies a class-level feature to every handler of the controller', async () => {
      expectProblem(await get('/terminals', partnerKey()), 403, 'feature_not_enabled');
      expect((await get('/terminals', partnerKey({ enabledFeatures: ['terminals'] }))).status).toBe(200);
    });

    it('does not gate routes that do not ask for a feature', async () => {
      expect((await get('/me', partnerKey())).status).toBe(200);
    });

    it('still authenticates first: no key is 401 even on a feature route', async () => {
      expectProblem(await get('/ach'), 401, 'unauthorized');
    });
  });

  describe('tiers', () => {
    it('fails closed: a route that declares no tier is 403 for every caller', async () => {
      expectProblem(await get('/forgotten'), 403, 'unauthorized');
      expectProblem(
        await get('/forgotten', partnerKey({ enabledFeatures: ['ach_payments'] })),
        403,
        'unauthorized',
      );
      expectProblem(await get('/forgotten', operatorKey.key), 403, 'unauthorized');
    });

    it('a public route needs no key', async () => {
      expect(await get('/health')).toMatchObject({ status: 200, body: { ok: 'health' } });
    });

    it('the operator key opens operator routes only; partner keys are refused there', async () => {
      expect((await get('/platform', operatorKey.key)).status).toBe(200);
      expectProblem(await get('/me', operatorKey.key), 403, 'unauthorized');
      expectProblem(await get('/platform', partnerKey()), 403, 'unauthorized');
      expectProblem(await get('/platform', generateKey('cop').key), 401, 'unauthorized');
    });

    it('refuses unknown, forged and malformed partner keys with 401', async () => {
      expectProblem(await get('/me', generateKey('csk').key), 401, 'unauthorized');
      const real = partnerKey();
      expectProblem(
        await get('/me', `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`),
        401,
        'unauthorized',
      );
      expectProblem(await get('/me', 'csk_nope'), 401, 'unauthorized');
    });
  });

  describe('terminal keys and the terminal tier', () => {
    it('a terminal key opens a terminal route and names the terminal and its partner', async () => {
      const key = terminalKey();
      const prefix = key.slice(4, 12);
      expect(await get('/device', key)).toMatchObject({
        status: 200,
        body: {
          principal: {
            kind: 'terminal',
            terminalId: `terminal-${prefix}`,
            partnerId: 'partner-of-terminals',
            keyPrefix: prefix,
          },
        },
      });
    });

    it('refuses an unknown, forged or rotated-away terminal key with 401', async () => {
      expectProblem(await get('/device', generateKey('ctk').key), 401, 'unauthorized');
      const real = terminalKey();
      expectProblem(
        await get('/device', `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`),
        401,
        'unauthorized',
      );
      terminalDirectory.keys.delete(real.slice(4, 12));
      expectProblem(await get('/device', real), 401, 'unauthorized');
    });

    it('a terminal key opens nothing else, and no other key opens a terminal route (403)', async () => {
      const key = terminalKey();
      expectProblem(await get('/me', key), 403, 'unauthorized');
      expectProblem(await get('/platform', key), 403, 'unauthorized');
      expectProblem(
        await get('/device', partnerKey({ enabledFeatures: ['terminals'] })),
        403,
        'unauthorized',
      );
      expectProblem(await get('/device', operatorKey.key), 403, 'unauthorized');
      expectProblem(await get('/device'), 401, 'unauthorized');
    });

    it("the route's feature flag is the partner's: without it, 403 feature_not_enabled", async () => {
      expectProblem(await get('/device', terminalKey({ enabledFeatures: [] })), 403, 'feature_not_enabled');
    });

    it("limits each terminal on its own budget, not its partner's", async () => {
      now = 0;
      const key = terminalKey({ rateLimitTier: 'SANDBOX' });
      for (let i = 0; i < 120; i++) expect((await get('/device', key)).status).toBe(200);
      expectProblem(await get('/device', key), 429, 'rate_limited');
      // Another terminal of the same partner still has its whole budget.
      const sibling = await get('/device', terminalKey({ rateLimitTier: 'SANDBOX' }));
      expect(sibling.headers['ratelimit-remaining']).toBe('119');
      now = 60_000;
    });
  });

  describe('the Authorization header', () => {
    async function withHeader(url: string, authorization: string) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization } });
      return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> };
    }

    it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])(
      'takes the scheme in any case (RFC 9110 §11.1): %s',
      async (scheme) => {
        expect((await withHeader('/me', `${scheme} ${partnerKey()}`)).status).toBe(200);
        expect((await withHeader('/platform', `${scheme} ${operatorKey.key}`)).status).toBe(200);
      },
    );

    it('takes more than one space after the scheme', async () => {
      expect((await withHeader('/me', `Bearer   ${partnerKey()}`)).status).toBe(200);
    });

    it.each(['Basic', 'Token', 'Bearerx', 'Bearer:'])(
      'refuses another scheme (%s) with 401',
      async (scheme) => {
        expectProblem(await withHeader('/me', `${scheme} ${partnerKey()}`), 401, 'unauthorized');
      },
    );

    it('still accepts a key issued with `_` in its prefix', async () => {
      const key = 'csk_ab_cd-EF_0123456789abcdefghijklmnopqrstuv';
      directory.keys.set('ab_cd-EF', {
        keyId: 'key-legacy',
        prefix: 'ab_cd-EF',
        partnerId: 'partner-legacy',
        keyHash: hashKey(key),
        scopes: ['partner:read'],
        enabledFeatures: [],
        ipAllowlist: [],
        rateLimitTier: 'STANDARD',
        apiVersion: '2026-09-01',
      });
      expect(await get('/me', key)).toMatchObject({ status: 200, body: { ok: 'me' } });
    });
  });

  describe('IP allow-list and rate limit', () => {
    it('admits only addresses in the allow-list', async () => {
      const key = partnerKey({ ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'] });
      expect((await get('/me', key, '10.1.2.3')).status).toBe(200);
      expect((await get('/me', key, '::ffff:10.9.9.9')).status).toBe(200);
      expect((await get('/me', key, '2001:db8::7')).status).toBe(200);
      expectProblem(await get('/me', key, '127.0.0.1'), 403, 'ip_not_allowed');
      expectProblem(await get('/me', key, '2001:db9::1'), 403, 'ip_not_allowed');
    });

    it('limits per partner by tier and resets with the window', async () => {
      now = 0;
      const key = partnerKey({ rateLimitTier: 'SANDBOX' });
      for (let i = 0; i < 120; i++) expect((await get('/me', key)).status).toBe(200);
      now = 20_000;
      const limited = await get('/me', key);
      expectProblem(limited, 429, 'rate_limited');
      expect(limited.headers['retry-after']).toBe('40');
      expect(limited.headers['ratelimit-limit']).toBe('120');
      expect((await get('/me', partnerKey({ rateLimitTier: 'SANDBOX' }))).status).toBe(200);
      now = 60_000;
      const again = await get('/me', key);
      expect(again.status).toBe(200);
      expect(again.headers['ratelimit-remaining']).toBe('119');
    });
  });
});
