import { useTestPlatform } from '../support/api';
import { rawRequest } from '../support/raw-http';
import { checkedFetch } from '../support/checked-fetch';

/** Every problem's `type` is a URL of this deployment whose page explains the code. */
describe('problem type pages', () => {
  const platform = useTestPlatform();

  it('a problem’s type is an absolute URL under the service that serves a page about its code', async () => {
    const partner = await platform().newPartner();
    const refused = await partner.client.get('/merchants/00000000-0000-4000-8000-000000000000');
    expect(refused.status).toBe(404);
    const type: string = refused.body.type;
    expect(type).toBe(`${platform().service.url}/api/v1/problems/merchant-not-found`);
    const page = await checkedFetch(type);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<code>merchant_not_found</code>');
    expect(html).toContain('HTTP status: <strong>404</strong>');
    expect(html).toMatch(/What to do/);
  });

  it('protocol-level refusals link their page too, and the index lists every code', async () => {
    const malformed = await rawRequest(
      platform().service.url,
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    );
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).type).toBe(
      `${platform().service.url}/api/v1/problems/validation-error`,
    );
    const index = await checkedFetch(`${platform().service.url}/api/v1/problems`);
    expect(index.status).toBe(200);
    const html = await index.text();
    for (const code of ['validation_error', 'idempotency_key_in_progress', 'gateway_outcome_unknown']) {
      expect(html).toContain(`problems/${code.replace(/_/g, '-')}`);
    }
  });

  it('an unknown code is a 404 problem', async () => {
    const res = await checkedFetch(`${platform().service.url}/api/v1/problems/no-such-code`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
