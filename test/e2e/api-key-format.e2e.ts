import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { RunPartnerCommand } from '../../libs/partners/src/application/partner-commands';
import { ALL_PARTNER_SCOPES } from '../../libs/platform/src/auth/scopes';
import { hashKey } from '../../libs/platform/src/auth/secret-key';
import { OPERATOR_KEY, useTestPlatform } from '../support/api';
import { testMetadata } from '../support/metadata';

/**
 * Keys as clients parse them (issue 15, point 13): the auth scheme is case-insensitive, new keys
 * split cleanly on `_`, and keys already issued with `_` in their prefix keep working.
 */
describe('API keys as clients handle them', () => {
  const platform = useTestPlatform();

  const me = (authorization: string) =>
    platform().service.call('GET', '/api/v1/partner/me', { headers: { authorization } });

  it.each(['bearer', 'BEARER', 'Bearer'])(
    'accepts the scheme spelled %s, for partner and operator keys',
    async (scheme) => {
      const partner = await platform().newPartner();
      expect((await me(`${scheme} ${partner.key}`)).status).toBe(200);
      const operator = await platform().service.call('GET', '/api/v1/platform/partners', {
        headers: { authorization: `${scheme} ${OPERATOR_KEY}` },
      });
      expect(operator.status).toBe(200);
    },
  );

  it('issues keys whose prefix holds no `_`: splitting on `_` gives the prefix the API reports', async () => {
    const partner = await platform().newPartner();
    for (let i = 0; i < 20; i++) {
      const issued = await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {});
      expect(issued.status).toBe(201);
      const [kind, prefix, secret, ...rest] = (issued.body.api_key as string).split('_');
      expect({ kind, prefix, rest }).toEqual({ kind: 'csk', prefix: issued.body.prefix, rest: [] });
      expect(prefix).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
    }
  });

  it('keeps authenticating a key issued earlier with `_` in its prefix', async () => {
    const partner = await platform().newPartner();
    // As the controller recorded keys before prefixes were alphanumeric (base64url).
    const legacy = 'csk_rL_nH0QP_AbCdEfGhIjKlMnOpQrStUvWxYz-_0123';
    const result = await platform()
      .service.app.get(CommandBus)
      .execute(
        new RunPartnerCommand(
          {
            type: 'IssueApiKey',
            partnerId: partner.id,
            keyId: randomUUID(),
            prefix: 'rL_nH0QP',
            keyHash: hashKey(legacy),
            scopes: [...ALL_PARTNER_SCOPES],
          },
          testMetadata({ actor: 'operator', partner_id: partner.id }),
        ),
      );
    expect(await platform().service.infra.projections.waitFor(result.position!)).toBe(true);

    const res = await me(`Bearer ${legacy}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(partner.id);
    // A key that differs in the secret only is still refused.
    expect((await me(`Bearer ${legacy.slice(0, -1)}4`)).status).toBe(401);
  });
});
