/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { request as httpRequest } from 'node:http';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { RouteTable } from '../../libs/platform/src/http/route-table';
import { useTestPlatform, type ApiResponse } from '../support/api';
import type { TestService } from '../support/app';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';
import { routesOfTheApp } from '../support/routes';

/**
 * A call made from a chosen local address (any 127.0.0.0/8 address reaches the loopback server),
 * so the IP allow-list can be seen admitting one client and refusing another.
 */
function callFrom(
  service: TestService,
  localAddress: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<ApiResponse> {
  const url = new URL(`/api/v1${path}`, service.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'idempotency-key': `from-${Date.now()}-${Math.random()}`,
              }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: res.statusCode ?? 0, headers, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

describe('authentication and authorisation', () => {
  // Terminals released, so that the walk over every route below meets theirs too (CONTRACT §9).
  const platform = useTestPlatform({ RELEASED_OPERATIONS: 'terminals' });

  describe('401 unauthorized: the credential is rejected', () => {
    it('refuses a request without an Authorization header', async () => {
      expectProblem(await platform().as(null).get('/partner/me'), 401, 'unauthorized');
    });

    it('refuses any scheme other than Bearer', async () => {
      const { key } = await platform().newPartner();
      const res = await platform().service.call('GET', '/api/v1/partner/me', {
        headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      });
      expectProblem(
        { status: res.status, headers: res.headers, body: await res.json() },
        401,
        'unauthorized',
      );
      const raw = await platform().service.call('GET', '/api/v1/partner/me', {
        headers: { authorization: key },
      });
      expect(raw.status).toBe(401);
    });

    it('refuses a malformed Bearer key', async () => {
      for (const bad of [
        'not-a-key',
        'csk_short_x',
        'csk_abcdefgh_tooshort',
        'xyz_abcdefgh_abcdefghijklmnopqrstuvwxyz12',
      ]) {
        expectProblem(await platform().as(bad).get('/partner/me'), 401, 'unauthorized');
      }
    });

    it('refuses a well-formed key that was never issued', async () => {
      expectProblem(await platform().as(generateKey('csk').key).get('/partner/me'), 401, 'unauthorized');
    });

    it('refuses a well-formed key whose prefix exists but whose secret does not match', async () => {
      const { key } = await platform().newPartner();
      const forged = `${key.slice(0, 13)}${'A'.repeat(key.length - 13)}`;
      expect(forged.slice(0, 13)).toBe(key.slice(0, 13));
      expectProblem(await platform().as(forged).get('/partner/me'), 401, 'unauthorized');
    });

    it('rotation: 201 with a new api_key; the old key is 401 from then on, the new one works', async () => {
      const partner = await platform().newPartner();
      expect((await partner.client.get('/partner/me')).status).toBe(200);
      const rotated = await platform().operator.post(
        `/platform/partners/${partner.id}/api-keys/${partner.keyId}/rotate`,
      );
      expect(rotated.status).toBe(201);
      expect(rotated.body).toEqual({
        id: partner.keyId,
        prefix: expect.stringMatching(/^[A-Za-z0-9_-]{8}$/),
        api_key: expect.stringMatching(/^csk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,}$/),
        scopes: expect.any(Array),
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        secret_issued_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(rotated.body.api_key).not.toBe(partner.key);
      expect(rotated.body.api_key.slice(4, 12)).toBe(rotated.body.prefix);
      expectProblem(await partner.client.get('/partner/me'), 401, 'unauthorized');
      const fresh = await platform().as(rotated.body.api_key).get('/partner/me');
      expect(fresh.status).toBe(200);
      expect(fresh.body.id).toBe(partner.id);
    });

    it('deletion: 204; the key is 401 afterwards and cannot be rotated or deleted again', async () => {
      const partner = await platform().newPartner();
      const deleted = await platform().operator.delete(
        `/platform/partners/${partner.id}/api-keys/${partner.keyId}`,
      );
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeNull();
      expectProblem(await partner.client.get('/partner/me'), 401, 'unauthorized');
      expectProblem(
        await platform().operator.post(`/platform/partners/${partner.id}/api-keys/${partner.keyId}/rotate`),
        404,
        'api_key_not_found',
      );
      expectProblem(
        await platform().operator.delete(`/platform/partners/${partner.id}/api-keys/${partner.keyId}`),
        404,
        'api_key_not_found',
      );
    });

    it('ignores a key sent in a query parameter', async () => {
      const { key } = await platform().newPartner();
      for (const name of ['api_key', 'key', 'access_token', 'authorization']) {
        const res = await platform()
          .as(null)
          .get(`/partner/me?${name}=${encodeURIComponent(key)}`);
        expectProblem(res, 401, 'unauthorized');
      }
    });

    it('refuses an unknown operator key on the platform tier', async () => {
      expectProblem(
        await platform().as(generateKey('cop').key).get('/platform/partners'),
        401,
        'unauthorized',
      );
    });
  });

  describe('403 unauthorized: the credential is good but not for this tier or scope', () => {
    it('the operator key cannot call partner endpoints', async () => {
      expectProblem(await platform().operator.get('/partner/me'), 403, 'unauthorized');
      expectProblem(await platform().operator.get('/capabilities'), 403, 'unauthorized');
    });

    it('a partner key cannot call the platform tier', async () => {
      const partner = await platform().newPartner();
      expectProblem(await partner.client.get('/platform/partners'), 403, 'unauthorized');
      expectProblem(await partner.client.get(`/platform/partners/${partner.id}`), 403, 'unauthorized');
      expectProblem(
        await partner.client.put(`/platform/partners/${partner.id}/certification`, { status: 'CERTIFIED' }),
        403,
        'unauthorized',
      );
      expect((await partner.client.get('/capabilities')).body.certification_status).toBe('PENDING');
    });

    it('a key holds only its scopes: partner:read reads /partner/me but not config', async () => {
      const partner = await platform().newPartner({ scopes: ['partner:read'] });
      const me = await partner.client.get('/partner/me');
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(partner.id);
      expectProblem(await partner.client.get('/config/feature-flags/me'), 403, 'unauthorized');
      expectProblem(
        await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true }),
        403,
        'unauthorized',
      );
      const keys = await platform().operator.get(`/platform/partners/${partner.id}/api-keys`);
      expect(keys.body.data).toEqual([
        expect.objectContaining({ id: partner.keyId, scopes: ['partner:read'] }),
      ]);
      // Nothing was changed by the refused write.
      const full = await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {});
      const flags = await platform().as(full.body.api_key).get('/config/feature-flags/me');
      expect(flags.body.find((f: any) => f.flag_name === 'ach_payments').enabled).toBe(false);
    });

    it('a key with config:read but not config:write reads flags and cannot change them', async () => {
      const partner = await platform().newPartner({ scopes: ['partner:read', 'config:read'] });
      expect((await partner.client.get('/config/feature-flags/me')).status).toBe(200);
      expectProblem(
        await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true }),
        403,
        'unauthorized',
      );
    });

    it('issuing a key with unknown, duplicate or no scopes is 400', async () => {
      const created = await platform().operator.post('/platform/partners', {
        name: 'Scope Test',
        contact_email: 'scopes@example.test',
        contact_name: 'Grace Hopper',
      });
      const path = `/platform/partners/${created.body.id}/api-keys`;
      expectValidationError(await platform().operator.post(path, { scopes: ['partner:read', 'admin:all'] }), [
        'scopes',
      ]);
      expectValidationError(
        await platform().operator.post(path, { scopes: ['partner:read', 'partner:read'] }),
        ['scopes'],
      );
      expectValidationError(await platform().operator.post(path, { scopes: [] }), ['scopes']);
      expectValidationError(await platform().operator.post(path, { scopes: 'partner:read' }), ['scopes']);
      const keys = await platform().operator.get(`/platform/partners/${created.body.id}/api-keys`);
      expect(keys.body.data).toEqual([]);
    });
  });

  describe('IP allow-list', () => {
    it('refuses a partner calling from outside its list with 403 ip_not_allowed, from the next request on', async () => {
      const partner = await platform().newPartner();
      // A partner cannot shut itself out (ip-allowlist-lockout.e2e.ts); the operator can set any list.
      const set = await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
        ip_allowlist: ['10.0.0.0/8'],
      });
      expect(set.status).toBe(200);
      expect(set.body.ip_allowlist).toEqual(['10.0.0.0/8']);
      expectProblem(await partner.client.get('/partner/me'), 403, 'ip_not_allowed');
      expectProblem(await partner.client.get(`/config/partners/${partner.id}`), 403, 'ip_not_allowed');
    });

    it('admits partners whose list covers 127.0.0.1, in IPv4 or mixed lists', async () => {
      const v4 = await platform().newPartner();
      const mixed = await platform().newPartner();
      expect(
        (await v4.client.put(`/config/partners/${v4.id}`, { ip_allowlist: ['127.0.0.1/32'] })).status,
      ).toBe(200);
      expect(
        (await mixed.client.put(`/config/partners/${mixed.id}`, { ip_allowlist: ['::1/128', '127.0.0.0/8'] }))
          .status,
      ).toBe(200);
      expect((await v4.client.get('/partner/me')).status).toBe(200);
      const config = await mixed.client.get(`/config/partners/${mixed.id}`);
      expect(config.status).toBe(200);
      expect(config.body.ip_allowlist).toEqual(['::1/128', '127.0.0.0/8']);
    });

    it('an IPv6-only list admits no IPv4 client', async () => {
      const partner = await platform().newPartner();
      await platform().operator.patch(`/platform/partners/${partner.id}/config`, { ip_allowlist: ['::/0'] });
      expectProblem(await partner.client.get('/partner/me'), 403, 'ip_not_allowed');
    });

    it('matches the real client address, and an empty list lifts the restriction', async () => {
      const partner = await platform().newPartner();
      const { service } = platform();
      const set = await callFrom(service, '127.0.0.2', 'PUT', `/config/partners/${partner.id}`, partner.key, {
        ip_allowlist: ['127.0.0.2'],
      });
      expect(set.body.ip_allowlist).toEqual(['127.0.0.2/32']);
      expectProblem(
        await callFrom(service, '127.0.0.1', 'GET', '/partner/me', partner.key),
        403,
        'ip_not_allowed',
      );
      expect((await callFrom(service, '127.0.0.2', 'GET', '/partner/me', partner.key)).status).toBe(200);
      const cleared = await callFrom(
        service,
        '127.0.0.2',
        'PUT',
        `/config/partners/${partner.id}`,
        partner.key,
        {
          ip_allowlist: [],
        },
      );
      expect(cleared.status).toBe(200);
      expect(cleared.body.ip_allowlist).toEqual([]);
      expect((await callFrom(service, '127.0.0.1', 'GET', '/partner/me', partner.key)).status).toBe(200);
      expect((await partner.client.get('/partner/me')).status).toBe(200);
    });

    it('does not apply to another partner', async () => {
      const locked = await platform().newPartner();
      const other = await platform().newPartner();
      await platform().operator.patch(`/platform/partners/${locked.id}/config`, {
        ip_allowlist: ['192.0.2.0/24'],
      });
      expectProblem(await locked.client.get('/partner/me'), 403, 'ip_not_allowed');
      expect((await other.client.get('/partner/me')).status).toBe(200);
    });
  });

  describe('rate limits', () => {
    it('SANDBOX allows 120 requests a minute, then 429 rate_limited with Retry-After; others are unaffected', async () => {
      const partner = await platform().newPartner();
      const other = await platform().newPartner();
      const tier = await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
        rate_limit_tier: 'SANDBOX',
      });
      expect(tier.status).toBe(200);
      expect(tier.body.rate_limit_tier).toBe('SANDBOX');

      const remaining: number[] = [];
      for (let i = 0; i < 120; i++) {
        const res = await partner.client.get('/partner/me');
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBe('120');
        const reset = Number(res.headers.get('ratelimit-reset'));
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
        remaining.push(Number(res.headers.get('ratelimit-remaining')));
      }
      expect(remaining[0]).toBe(119);
      expect(remaining[119]).toBe(0);
      expect(remaining).toEqual([...remaining].sort((a, b) => b - a));

      const limited = await partner.client.get('/partner/me');
      expectProblem(limited, 429, 'rate_limited', { retryable: true });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit-limit')).toBe('120');
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      // Writes count against the same budget.
      expectProblem(
        await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true }),
        429,
        'rate_limited',
      );

      const unaffected = await other.client.get('/partner/me');
      expect(unaffected.status).toBe(200);
      expect(unaffected.headers.get('ratelimit-limit')).toBe('600');
      expect(Number(unaffected.headers.get('ratelimit-remaining'))).toBeGreaterThan(500);
      // The operator tier is not limited by a partner's tier.
      expect((await platform().operator.get(`/platform/partners/${partner.id}`)).status).toBe(200);
    });
  });

  it('sends no access-control-* header on any kind of answer', async () => {
    const partner = await platform().newPartner();
    const origin = { origin: 'https://evil.example' };
    const answers: ApiResponse[] = [
      await partner.client.get('/partner/me', { headers: origin }),
      await partner.client.put(
        '/config/feature-flags/me/ach_payments',
        { enabled: true },
        { headers: origin },
      ),
      await platform().as(null).get('/partner/me', { headers: origin }),
      await platform().operator.get('/partner/me', { headers: origin }),
      await platform().operator.get(`/platform/partners/${partner.id}`, { headers: origin }),
      await partner.client.get('/no-such-route', { headers: origin }),
      await partner.client.call('OPTIONS', '/partner/me', {
        headers: { ...origin, 'access-control-request-method': 'GET' },
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 403, 200, 404, expect.any(Number)]);
    for (const answer of answers) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  describe('every route of the app declares an access tier', () => {
    const appRoutes = () => routesOfTheApp(platform().service.app);

    it('finds the routes, and every one has route-access metadata of a known tier', () => {
      const routes = appRoutes();
      expect(routes.length).toBeGreaterThan(20);
      expect(routes).toEqual(
        expect.arrayContaining([
          { method: 'GET', path: '/api/v1/health', access: { tier: 'public' } },
          { method: 'GET', path: '/api/v1/partner/me', access: { tier: 'partner', scope: 'partner:read' } },
          { method: 'POST', path: '/api/v1/platform/partners', access: { tier: 'operator' } },
        ]),
      );
      const undeclared = routes.filter(
        (r) => !r.access || !['public', 'operator', 'partner', 'terminal'].includes(r.access.tier),
      );
      expect(undeclared).toEqual([]);
      const partnerWithoutScope = routes.filter((r) => r.access?.tier === 'partner' && !r.access.scope);
      expect(partnerWithoutScope).toEqual([]);
      // Public: the health probe, the problem pages (documentation, no data), the operator
      // console's empty page (its data comes from operator routes, with the key typed in) and the
      // hosted page a payer opens (its session id is the capability).
      expect(routes.filter((r) => r.access?.tier === 'public').map((r) => r.path)).toEqual([
        '/api/v1/health',
        '/api/v1/problems',
        '/api/v1/problems/:slug',
        '/api/v1/console',
        '/api/v1/openapi.json',
        '/api/v1/docs',
        '/api/v1/docs/assets/:name',
        '/api/v1/hpp/:sessionId',
        '/api/v1/hpp/:sessionId',
        '/api/v1/hpp/:sessionId/result',
      ]);
      // The terminal tier is exactly the terminal's own heartbeat.
      expect(routes.filter((r) => r.access?.tier === 'terminal').map((r) => `${r.method} ${r.path}`)).toEqual(
        ['POST /api/v1/terminals/:terminalId/heartbeat'],
      );
      // The operator tier is exactly /platform/...
      for (const route of routes) {
        expect({ route, operator: route.path.startsWith('/api/v1/platform/') }).toEqual({
          route,
          operator: route.access?.tier === 'operator',
        });
      }
    });

    it('the discovered routes are all the routes the server serves', () => {
      const table = platform().service.app.get(RouteTable) as unknown as {
        routes: { method: string; pattern: RegExp }[];
      };
      const served = table.routes.filter((r) => r.method !== 'HEAD' && r.pattern.source.includes('api\\/v1'));
      const routes = appRoutes();
      const sample = (path: string) => path.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000');
      const unexplained = served.filter(
        (s) => !routes.some((r) => r.method === s.method && s.pattern.test(sample(r.path))),
      );
      expect(unexplained.map((s) => `${s.method} ${s.pattern.source}`)).toEqual([]);
      expect(served.length).toBe(routes.length);
    });

    it('every route refuses the wrong tier before doing anything', async () => {
      const partner = await platform().newPartner();
      const sample = (path: string) =>
        path.replace(/^\/api\/v1/, '').replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000');
      for (const route of appRoutes()) {
        if (route.access?.tier === 'public') continue;
        const path = sample(route.path);
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
        const none = await platform().as(null).call(route.method, path, { body });
        expect({
          route: route.path,
          method: route.method,
          status: none.status,
          code: none.body?.code,
        }).toEqual({
          route: route.path,
          method: route.method,
          status: 401,
          code: 'unauthorized',
        });
        const wrong = route.access?.tier === 'operator' ? partner.client : platform().operator;
        const refused = await wrong.call(route.method, path, { body });
        expect({
          route: route.path,
          method: route.method,
          status: refused.status,
          code: refused.body?.code,
        }).toEqual({ route: route.path, method: route.method, status: 403, code: 'unauthorized' });
      }
      // Nothing the refused calls aimed at was created or changed.
      expect((await partner.client.get('/partner/me')).body.version).toBe(4); // created, key, two facts
    });
  });

  it('uses UUID ids for partners and keys', async () => {
    const partner = await platform().newPartner();
    expect(partner.id).toMatch(UUID);
    expect(partner.keyId).toMatch(UUID);
  });
});
