import { randomUUID } from 'node:crypto';
import { OPERATOR_KEY, useTestPlatform, type ApiResponse } from '../support/api';
import { expectNoCors, expectProblemDetails } from '../support/problems';

/**
 * The error surface over real HTTP (CONTRACT §7): every failure is `application/problem+json`
 * with `type`, `title`, `status`, `detail`, `code`, `request_id`, and `errors` on validation.
 */
describe('errors: problem+json for every failure', () => {
  const platform = useTestPlatform();

  const partnerBody = () => ({
    name: 'Errors Test Inc',
    contact_email: 'errors@example.test',
    contact_name: 'Grace Hopper',
  });

  /** A raw request with the operator key, for bodies the ApiClient would not send. */
  async function raw(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const res = await platform().service.call(method, `/api/v1${path}`, {
      body,
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'idempotency-key': randomUUID(), ...headers },
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  async function partnerCount(): Promise<number> {
    const res = await platform().operator.get('/platform/partners');
    expect(res.status).toBe(200);
    return res.body.pagination.total_count as number;
  }

  describe('routing', () => {
    it('answers an unknown route with 404 not_found', async () => {
      const res = await platform().operator.get('/no-such-thing');
      const body = expectProblemDetails(res, { status: 404, code: 'not_found', title: 'Not Found' });
      expect(body.detail).toContain('/api/v1/no-such-thing');
      expectNoCors(res.headers);
    });

    it('answers a path that is not valid percent-encoding with 400 problem+json and a request id', async () => {
      const res = await raw('GET', '/merchants/%ZZ', undefined);
      const body = expectProblemDetails(res, { status: 400, code: 'validation_error', title: 'Bad Request' });
      expect(body.errors).toEqual([{ field: 'request', message: expect.any(String) }]);
    });

    it('answers an unknown path below a known one with 404, not 405', async () => {
      const res = await platform().operator.get(`/platform/partners/${randomUUID()}/nothing-here`);
      expectProblemDetails(res, { status: 404, code: 'not_found', title: 'Not Found' });
      expect(res.headers.get('allow')).toBeNull();
    });

    it.each([
      ['DELETE', '/platform/partners', ['GET', 'POST']],
      ['PUT', '/health', ['GET']],
      ['PATCH', `/platform/partners/${randomUUID()}`, ['GET']],
      ['GET', `/platform/partners/${randomUUID()}/api-keys/${randomUUID()}/rotate`, ['POST']],
    ])('answers %s %s with 405 method_not_allowed and an Allow header', async (method, path, allowed) => {
      const res = await platform().operator.call(method, path, { idempotencyKey: null });
      const body = expectProblemDetails(res, {
        status: 405,
        code: 'method_not_allowed',
        title: 'Method Not Allowed',
      });
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      for (const m of allowed) expect(allow).toContain(m);
      expect(allow).not.toContain(method);
      expect(body.detail).toContain(method);
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400 validation_error naming the body', async () => {
      const before = await partnerCount();
      const res = await raw('POST', '/platform/partners', '{"name": "Broken",', {
        'content-type': 'application/json',
      });
      const body = expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'body', message: 'is not valid JSON' }],
      });
      expect(body.detail).toMatch(/JSON/);
      expect(await partnerCount()).toBe(before);
    });

    it('answers an empty body sent as JSON with 400 validation_error', async () => {
      const res = await raw('POST', '/platform/partners', '', { 'content-type': 'application/json' });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'body', message: 'must not be empty' }],
      });
    });

    it.each([
      ['text/plain', JSON.stringify(partnerBody())],
      ['text/plain;charset=UTF-8', JSON.stringify(partnerBody())],
      ['application/x-www-form-urlencoded', 'name=Form&contact_email=form%40example.test&contact_name=F'],
      ['application/xml', '<partner><name>X</name></partner>'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nA\r\n--x--',
      ],
    ])('answers a %s body with 415 unsupported_media_type and creates nothing', async (type, text) => {
      const before = await partnerCount();
      const res = await raw('POST', '/platform/partners', text, { 'content-type': type });
      const body = expectProblemDetails(res, {
        status: 415,
        code: 'unsupported_media_type',
        title: 'Unsupported Media Type',
      });
      expect(body.detail).toContain('application/json');
      expect(await partnerCount()).toBe(before);
    });

    it('answers a body nested deeper than 32 levels with 400 validation_error (not a stack overflow) and creates nothing', async () => {
      const before = await partnerCount();
      for (const depth of [33, 20_000]) {
        const text = `{"name":"Deep","contact_email":"d@example.test","contact_name":"D","dba":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
        const res = await raw('POST', '/platform/partners', text, { 'content-type': 'application/json' });
        const body = expectProblemDetails(res, {
          status: 400,
          code: 'validation_error',
          title: 'Bad Request',
        });
        expect(body.errors).toEqual([{ field: 'body', message: 'must not nest deeper than 32 levels' }]);
      }
      expect(await partnerCount()).toBe(before);
    });

    it.each([
      ['a lone high surrogate', '"Ada\\ud800"'],
      ['a lone low surrogate', '"\\udc00Ada"'],
      ['U+0000', '"Ada\\u0000"'],
    ])(
      'answers text holding %s with 400 validation_error naming the field, never a 500',
      async (_, value) => {
        const before = await partnerCount();
        const text = `{"name":"Text","contact_email":"t@example.test","contact_name":${value}}`;
        const res = await raw('POST', '/platform/partners', text, { 'content-type': 'application/json' });
        const body = expectProblemDetails(res, {
          status: 400,
          code: 'validation_error',
          title: 'Bad Request',
        });
        expect(body.errors).toEqual([
          { field: 'contact_name', message: 'must be valid Unicode text (no unpaired surrogate, no U+0000)' },
        ]);
        expect(await partnerCount()).toBe(before);
      },
    );

    it('takes a surrogate pair (an emoji) as the text it is', async () => {
      const text = `{"name":"Emoji \\ud83d\\ude00 Inc","contact_email":"e@example.test","contact_name":"Eve"}`;
      const res = await raw('POST', '/platform/partners', text, { 'content-type': 'application/json' });
      expect(res.status).toBe(201);
      expect((res.body as { name: string }).name).toBe('Emoji \u{1F600} Inc');
    });

    it('an action that takes no body refuses one with fields (400 naming them) and does nothing', async () => {
      const partner = await platform().newPartner();
      const merchant = await partner.client.post('/merchants', {
        business_name: 'Bodyless Cafe',
        contact_email: 'owner@bodyless.test',
        contact_name: 'Sam Lee',
        merchant_category_code: '5812',
      });
      expect(merchant.status).toBe(201);
      const submit = await partner.client.post(`/merchants/${merchant.body.id}/submit`, { note: 'please' });
      const body = expectProblemDetails(submit, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
      });
      expect(body.errors).toEqual([
        { field: 'note', message: 'is not a field of this action (it takes no body)' },
      ]);
      expect((await partner.client.get(`/merchants/${merchant.body.id}`)).body.state).toBe('DRAFT');
      // No body, or an empty object, is the action.
      const done = await partner.client.post(`/merchants/${merchant.body.id}/submit`, {});
      expect(done.status).toBe(200);
      expect(done.body.state).toBe('SUBMITTED');
    });

    it('accepts application/json with a charset parameter', async () => {
      const res = await raw('POST', '/platform/partners', JSON.stringify(partnerBody()), {
        'content-type': 'application/json; charset=utf-8',
      });
      expect(res.status).toBe(201);
    });

    it('answers a body over 1 MiB with 413 payload_too_large', async () => {
      const before = await partnerCount();
      const huge = JSON.stringify({ ...partnerBody(), dba: 'x'.repeat(1024 * 1024 + 10) });
      const res = await raw('POST', '/platform/partners', huge, { 'content-type': 'application/json' });
      expectProblemDetails(res, { status: 413, code: 'payload_too_large', title: 'Payload Too Large' });
      expect(await partnerCount()).toBe(before);
    });

    it('accepts a body just under 1 MiB up to validation (400 on the field, not 413)', async () => {
      const big = JSON.stringify({ ...partnerBody(), dba: 'x'.repeat(1000 * 1000) });
      const res = await raw('POST', '/platform/partners', big, { 'content-type': 'application/json' });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'dba' }],
      });
    });

    it('names an unknown body field in errors', async () => {
      const before = await partnerCount();
      const res = await platform().operator.post('/platform/partners', { ...partnerBody(), nickname: 'x' });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'nickname', message: 'is not a known field' }],
      });
      expect(await partnerCount()).toBe(before);
    });

    it('lists each missing required field once', async () => {
      const res = await platform().operator.post('/platform/partners', {});
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [
          { field: 'name', message: 'is required' },
          { field: 'contact_email', message: 'is required' },
          { field: 'contact_name', message: 'is required' },
        ],
      });
    });

    it('lists only the fields that are missing', async () => {
      const res = await platform().operator.post('/platform/partners', { name: 'Only A Name' });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [
          { field: 'contact_email', message: 'is required' },
          { field: 'contact_name', message: 'is required' },
        ],
      });
    });

    it.each([
      ['a JSON array', '[{"name":"A"}]'],
      ['a JSON string', '"hello"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
    ])('refuses %s as the body with 400', async (_what, text) => {
      const res = await raw('POST', '/platform/partners', text, { 'content-type': 'application/json' });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'body', message: 'must be a JSON object' }],
      });
    });

    it('refuses a number where a string is due, without coercing it', async () => {
      const before = await partnerCount();
      const res = await platform().operator.post('/platform/partners', { ...partnerBody(), name: 12345 });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'name', message: 'must be a string' }],
      });
      expect(await partnerCount()).toBe(before);
    });

    it('refuses a string where a boolean is due ("true" is not true)', async () => {
      const partner = await platform().newPartner({ name: 'Boolean Partner' });
      const res = await platform().operator.put(
        `/platform/partners/${partner.id}/feature-flags/ach_payments`,
        {
          enabled: 'true',
        },
      );
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'enabled', message: 'must be a boolean value' }],
      });
    });

    it('names nested fields by their dotted path', async () => {
      const res = await platform().operator.post('/platform/partners', {
        ...partnerBody(),
        business_address: {
          address_line1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'usa',
          floor: 3,
        },
      });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [
          { field: 'business_address.country', message: /ISO 3166-1 alpha-2/ },
          { field: 'business_address.floor', message: 'is not a known field' },
        ],
      });
    });

    it('refuses a nested object given as a string', async () => {
      const res = await platform().operator.post('/platform/partners', {
        ...partnerBody(),
        business_address: '1 Main St',
      });
      const body = expectProblemDetails(res, { status: 400, code: 'validation_error', title: 'Bad Request' });
      expect(body.errors.map((e: { field: string }) => e.field)).toContain('business_address');
    });

    it('still creates a partner from a valid body (the checks above are not blanket refusals)', async () => {
      const res = await platform().operator.post('/platform/partners', {
        ...partnerBody(),
        business_address: {
          address_line1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'US',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Errors Test Inc');
    });
  });

  describe('path parameters and records', () => {
    it('answers a malformed path UUID with 400 naming the parameter', async () => {
      const res = await platform().operator.get('/platform/partners/not-a-uuid');
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'partnerId', message: 'must be a UUID' }],
      });
    });

    it('answers an unknown partner id with 404 partner_not_found', async () => {
      const id = randomUUID();
      const res = await platform().operator.get(`/platform/partners/${id}`);
      const body = expectProblemDetails(res, { status: 404, code: 'partner_not_found', title: 'Not Found' });
      expect(body.errors).toBeUndefined();
    });
  });

  describe('request ids', () => {
    it('echoes x-request-id and puts it in the problem body as request_id', async () => {
      const res = await platform().operator.get('/platform/partners/not-a-uuid', {
        headers: { 'x-request-id': 'errors-req.42' },
      });
      expect(res.headers.get('x-request-id')).toBe('errors-req.42');
      expect(res.body.request_id).toBe('errors-req.42');
      expectProblemDetails(res, { status: 400, code: 'validation_error', title: 'Bad Request' });
    });

    it('carries the request id on errors raised before routing (bad JSON, 404, 405)', async () => {
      const bad = await raw('POST', '/platform/partners', '{', {
        'content-type': 'application/json',
        'x-request-id': 'req-bad-json',
      });
      expect(bad.headers.get('x-request-id')).toBe('req-bad-json');
      expect(bad.body.request_id).toBe('req-bad-json');

      const missing = await platform().operator.get('/nowhere', { headers: { 'x-request-id': 'req-404' } });
      expect(missing.headers.get('x-request-id')).toBe('req-404');
      expect(missing.body.request_id).toBe('req-404');

      const wrong = await platform().operator.delete('/platform/partners', {
        headers: { 'x-request-id': 'req-405' },
      });
      expect(wrong.status).toBe(405);
      expect(wrong.body.request_id).toBe('req-405');
    });

    it('replaces an unusable x-request-id with a generated one, in header and body alike', async () => {
      const res = await platform().operator.get('/platform/partners/not-a-uuid', {
        headers: { 'x-request-id': 'no spaces/allowed' },
      });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(res.body.request_id).toBe(id);
    });
  });

  describe('CORS', () => {
    it('answers a preflight with no CORS headers', async () => {
      const res = await platform().service.call('OPTIONS', '/api/v1/platform/partners', {
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectNoCors(res.headers);
    });

    it('sends no CORS headers on success, on client errors or to a cross-origin caller', async () => {
      const origin = { origin: 'https://evil.example' };
      const responses = await Promise.all([
        platform().operator.get('/platform/partners', { headers: origin }),
        platform().operator.post('/platform/partners', partnerBody(), { headers: origin }),
        platform().operator.post('/platform/partners', {}, { headers: origin }),
        platform().operator.get('/no-such-thing', { headers: origin }),
        platform().as(null).get('/platform/partners', { headers: origin }),
        platform()
          .service.call('GET', '/api/v1/health', { headers: origin })
          .then((r) => ({
            status: r.status,
            headers: r.headers,
            body: null,
          })),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 201, 400, 404, 401, 200]);
      for (const res of responses) expectNoCors(res.headers);
    });
  });
});
