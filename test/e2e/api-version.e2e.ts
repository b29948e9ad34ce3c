import { useTestPlatform } from '../support/api';
import { expectProblemDetails } from '../support/problems';

/** `Api-Version`: every answer names the dated version it was built for; a request may pin one. */
describe('API versions', () => {
  const platform = useTestPlatform();

  it('a partner’s answers carry its configured api_version, as its configuration says', async () => {
    const partner = await platform().newPartner();
    const config = await partner.client.get(`/config/partners/${partner.id}`);
    expect(config.body.api_version).toBe('2026-09-01');
    const me = await partner.client.get('/partner/me');
    expect(me.headers.get('api-version')).toBe(config.body.api_version);
    // Errors too.
    const missing = await partner.client.get('/transactions/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('api-version')).toBe('2026-09-01');
  });

  it('public and operator answers carry the current version', async () => {
    const health = await platform().service.call('GET', '/api/v1/health');
    expect(health.headers.get('api-version')).toBe('2026-09-01');
    expect((await platform().operator.get('/platform/partners')).headers.get('api-version')).toBe(
      '2026-09-01',
    );
  });

  it('a served version may be pinned and is echoed; any other is 400 naming the header, before authentication', async () => {
    const partner = await platform().newPartner();
    const pinned = await partner.client.get('/partner/me', { headers: { 'api-version': '2026-09-01' } });
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('api-version')).toBe('2026-09-01');
    for (const asked of ['2025-01-01', 'latest', '']) {
      const refused = await partner.client.get('/partner/me', { headers: { 'api-version': asked } });
      expectProblemDetails(refused, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'Api-Version' }],
      });
    }
    const anonymous = await platform().service.call('GET', '/api/v1/partner/me', {
      headers: { 'api-version': '1999-01-01' },
    });
    expect(anonymous.status).toBe(400);
  });
});
