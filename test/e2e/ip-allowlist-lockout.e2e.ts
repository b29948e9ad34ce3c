import { useTestPlatform } from '../support/api';
import { expectProblem, expectValidationError } from '../support/problems';

/**
 * Issue 15, point 12: `PUT /config/partners/{id}` with an `ip_allowlist` that left out the
 * caller's own address answered 200, every later call was 403 `ip_not_allowed`, and the
 * operator's `PATCH /platform/partners/{id}/config` refused `ip_allowlist`, so nothing could undo
 * it. The test client calls from 127.0.0.1.
 */
describe('a partner cannot lock itself out of the API', () => {
  const platform = useTestPlatform();

  it('refuses a list that leaves out the address making the change: 422 naming ip_allowlist, nothing stored', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.put(`/config/partners/${partner.id}`, { ip_allowlist: ['10.0.0.0/8'] });
    expectProblem(res, 422, 'ip_allowlist_excludes_caller', {
      errors: [{ field: 'ip_allowlist', message: expect.stringContaining('127.0.0.1') }],
    });
    const config = await partner.client.get(`/config/partners/${partner.id}`);
    expect(config.status).toBe(200);
    expect(config.body.ip_allowlist).toEqual([]);
  });

  it('refuses an IPv6-only list to an IPv4 caller, and takes a list that covers it', async () => {
    const partner = await platform().newPartner();
    const path = `/config/partners/${partner.id}`;
    expectProblem(
      await partner.client.put(path, { ip_allowlist: ['::/0'] }),
      422,
      'ip_allowlist_excludes_caller',
    );
    const taken = await partner.client.put(path, { ip_allowlist: ['203.0.113.0/24', '127.0.0.0/8'] });
    expect(taken.status).toBe(200);
    expect(taken.body.ip_allowlist).toEqual(['203.0.113.0/24', '127.0.0.0/8']);
    expect((await partner.client.get('/partner/me')).status).toBe(200);
  });

  it('lets the operator read the list and reset it, which lets the partner back in', async () => {
    const partner = await platform().newPartner();
    const { operator } = platform();
    const set = await operator.patch(`/platform/partners/${partner.id}/config`, {
      ip_allowlist: ['192.0.2.0/24'],
    });
    expect(set.status).toBe(200);
    expect(set.body.ip_allowlist).toEqual(['192.0.2.0/24']);
    expectProblem(await partner.client.get('/partner/me'), 403, 'ip_not_allowed');

    const read = await operator.get(`/platform/partners/${partner.id}/config`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ partner_id: partner.id, ip_allowlist: ['192.0.2.0/24'] });

    const reset = await operator.patch(`/platform/partners/${partner.id}/config`, { ip_allowlist: [] });
    expect(reset.status).toBe(200);
    expect(reset.body.ip_allowlist).toEqual([]);
    expect((await partner.client.get('/partner/me')).status).toBe(200);
  });

  it('leaves the list alone when the operator changes only the tier, and checks entries like the partner', async () => {
    const partner = await platform().newPartner();
    const { operator } = platform();
    const path = `/platform/partners/${partner.id}/config`;
    await operator.patch(path, { ip_allowlist: ['127.0.0.1'] });
    const tier = await operator.patch(path, { rate_limit_tier: 'ELEVATED', ip_allowlist: null });
    expect(tier.body).toMatchObject({ rate_limit_tier: 'ELEVATED', ip_allowlist: ['127.0.0.1/32'] });
    expectValidationError(await operator.patch(path, { ip_allowlist: ['1.2.3.4/24'] }), ['ip_allowlist[0]']);
    expectValidationError(await operator.patch(path, { ip_allowlist: '10.0.0.0/8' }), ['ip_allowlist']);
    expect((await operator.get(path)).body.ip_allowlist).toEqual(['127.0.0.1/32']);
  });

  it('keeps the operator read to the operator', async () => {
    const partner = await platform().newPartner();
    expectProblem(await partner.client.get(`/platform/partners/${partner.id}/config`), 403, 'unauthorized');
  });
});
