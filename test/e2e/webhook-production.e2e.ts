import { useTestPlatform } from '../support/api';
import { expectValidationError } from '../support/problems';

/**
 * CONTRACT §6 in production: a webhook URL must be https and must not point at a loopback,
 * private, link-local or metadata address (IPv4, IPv6, mapped forms), for an endpoint's `url` and
 * for `webhook_url` alike. (Names are resolved and checked again at every attempt: see
 * libs/webhooks/src/application/webhook-sender.spec.ts.)
 */
describe('webhook URLs in production', () => {
  const platform = useTestPlatform({
    APP_ENV: 'production',
    VAULT_KEY: 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=',
  });

  it.each([
    ['http://hooks.example.com/payments', /https/],
    ['https://127.0.0.1/hooks', /loopback/],
    ['https://localhost:8443/hooks', /loopback/],
    ['https://[::1]/hooks', /loopback/],
    ['https://[::ffff:127.0.0.1]/hooks', /loopback/],
    ['https://10.0.0.8/hooks', /private/],
    ['https://192.168.1.20/hooks', /private/],
    ['https://172.16.5.4/hooks', /private/],
    ['https://[fd00:ec2::254]/hooks', /private/],
    ['https://169.254.169.254/latest/meta-data/', /link-local or metadata/],
    ['https://[fe80::1]/hooks', /link-local/],
    ['https://[::ffff:169.254.169.254]/hooks', /link-local/],
    ['https://0x7f.1/hooks', /loopback/],
    ['https://internal-service/hooks', /fully qualified/],
  ])('refuses %s (400 naming url / webhook_url)', async (url, reason) => {
    const partner = await platform().newPartner();
    const endpoint = await partner.client.post('/webhook-endpoints', { url });
    expectValidationError(endpoint, ['url']);
    expect(JSON.stringify(endpoint.body.errors)).toMatch(reason);
    const configured = await partner.client.put(`/config/partners/${partner.id}`, { webhook_url: url });
    expectValidationError(configured, ['webhook_url']);
  });

  it('accepts a public https URL', async () => {
    const partner = await platform().newPartner();
    const endpoint = await partner.client.post('/webhook-endpoints', {
      url: 'https://hooks.example.com/payments',
    });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
  });
});
