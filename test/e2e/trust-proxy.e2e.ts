import { useTestPlatform, type TestPlatform } from '../support/api';
import { expectProblem } from '../support/problems';

/**
 * Behind a proxy (docs/operations.md, "Several processes"), the partner's IP allow-list judges the
 * client the proxy names in `X-Forwarded-For`, but only when the request comes from a proxy listed
 * in TRUST_PROXY: anyone else could name any address.
 */
describe('TRUST_PROXY: the client address behind a proxy', () => {
  const behindProxy = useTestPlatform({ TRUST_PROXY: '127.0.0.1' });
  const direct = useTestPlatform();

  async function partnerAllowing(platform: TestPlatform, address: string) {
    const partner = await platform.newPartner();
    const set = await platform.operator.patch(`/platform/partners/${partner.id}/config`, {
      ip_allowlist: [address],
    });
    expect(set.status).toBe(200);
    return partner;
  }

  it('with the proxy trusted, the address it forwards is the one the allow-list judges', async () => {
    const partner = await partnerAllowing(behindProxy(), '203.0.113.7');
    const forwarded = (chain: string) =>
      partner.client.get('/partner/me', { headers: { 'x-forwarded-for': chain } });
    expect((await forwarded('203.0.113.7')).status).toBe(200);
    // A client cannot prepend an address of its own: the last untrusted hop is the client.
    expectProblem(await forwarded('203.0.113.7, 198.51.100.9'), 403, 'ip_not_allowed');
    expectProblem(await forwarded('198.51.100.9'), 403, 'ip_not_allowed');
    expectProblem(await partner.client.get('/partner/me'), 403, 'ip_not_allowed');
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: the socket’s peer is the client', async () => {
    const partner = await partnerAllowing(direct(), '203.0.113.7');
    expectProblem(
      await partner.client.get('/partner/me', { headers: { 'x-forwarded-for': '203.0.113.7' } }),
      403,
      'ip_not_allowed',
    );
  });
});
