import { startTestService, type TestService } from '../support/app';

describe('health and the error surface', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('GET /api/v1/health answers 200 {"status":"ok"} without authentication', async () => {
    const res = await service.call('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('gives every response a request id, keeping a sane caller-supplied one', async () => {
    const own = await service.call('GET', '/api/v1/health', { headers: { 'x-request-id': 'req-abc.123' } });
    expect(own.headers.get('x-request-id')).toBe('req-abc.123');
    const generated = await service.call('GET', '/api/v1/health', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with a 404 problem+json', async () => {
    const res = await service.call('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found' });
  });

  it('sends no CORS headers, even to a preflight', async () => {
    const res = await service.call('OPTIONS', '/api/v1/health', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
