/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { CardVault, type VaultInstrument } from '../../libs/vault/src/application/card-vault';
import { CommandBus } from '@nestjs/cqrs';
import { MintStoredCredential } from '../../libs/vault/src/application/stored-credential-commands';
import { StoredCredentialReader } from '../../libs/vault/src/application/stored-credential-reader';
import { useTestPlatform, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const CREDENTIAL_FIELDS = [
  'id',
  'vault_token',
  'merchant_id',
  'partner_id',
  'customer_id',
  'processor',
  'rail',
  'card',
  'bank',
  'scope',
  'enrollment_terms',
  'consent_captured',
  'state',
  'created_at',
  'version',
];

const VISA: VaultInstrument = { kind: 'card', pan: '4111111111111111', expMonth: 12, expYear: 2030 };
const CHECKING: VaultInstrument = {
  kind: 'ach',
  routingNumber: '011000015',
  accountNumber: '000123456789',
  accountType: 'CHECKING',
};

describe('stored credentials: a merchant’s vault entries through the partner API', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let customerId: string;

  const newMerchant = async (p: TestPartner): Promise<string> => {
    const res = await p.client.post('/merchants', {
      business_name: 'Blue Bottle Cafe',
      contact_email: 'owner@bluebottle.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const newCustomer = async (p: TestPartner, merchant: string): Promise<string> => {
    const res = await p.client.post(`/merchants/${merchant}/customers`, { email: 'payer@example.com' });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const path = (merchant: string, credential?: string) =>
    `/merchants/${merchant}/stored-credentials${credential ? `/${credential}` : ''}`;

  /**
   * Mints a credential the way a completed save-card session does: the vault seals the
   * instrument, then the credential is minted on its token (there is no HTTP create).
   */
  async function mint(
    options: {
      p?: TestPartner;
      merchant?: string;
      customer?: string | null;
      instrument?: VaultInstrument;
      scope?: string[];
    } = {},
  ): Promise<any> {
    const p = options.p ?? partner;
    const merchant = options.merchant ?? merchantId;
    const app = platform().service.app;
    const stored = await app.get(CardVault).store(p.id, merchant, options.instrument ?? VISA);
    const credential = await app.get(CommandBus).execute(
      new MintStoredCredential(testMetadata({ partner_id: p.id }), {
        vaultToken: stored.token,
        partnerId: p.id,
        merchantId: merchant,
        customerId: options.customer === undefined ? customerId : options.customer,
        processor: 'sandbox',
        paymentMethodType: stored.display.paymentMethodType,
        card: stored.display.card,
        bank: stored.display.bank,
        allowedUseTypes: options.scope ?? ['RECURRING'],
        consent: {
          capturedAt: '2026-11-01T00:00:00.000Z',
          channel: 'hpp',
          text: 'I agree to have this card saved for future payments.',
        },
        enrollmentTerms: { amount: '10.00', frequency: 'monthly', duration: '12 months' },
      }),
    );
    const read = await p.client.get(path(merchant, credential.id));
    expect(read.status).toBe(200);
    return read.body;
  }

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await newMerchant(partner);
    customerId = await newCustomer(partner, merchantId);
  });

  it('reads a card credential with exactly the spec’s fields', async () => {
    const credential = await mint();
    expect(Object.keys(credential).sort()).toEqual([...CREDENTIAL_FIELDS].sort());
    expect(credential).toEqual({
      id: expect.stringMatching(UUID),
      vault_token: expect.stringMatching(/^cvt_[A-Za-z0-9_-]{24,}$/),
      merchant_id: merchantId,
      partner_id: partner.id,
      customer_id: customerId,
      processor: 'sandbox',
      rail: 'CARD',
      card: { brand: 'VISA', last4: '1111', exp_month: 12, exp_year: 2030 },
      bank: null,
      scope: ['RECURRING'],
      enrollment_terms: { amount: '10.00', frequency: 'monthly', duration: '12 months' },
      consent_captured: true,
      state: 'ACTIVE',
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 1,
    });
    // Nothing of the card beyond brand, last four and expiry leaves.
    expect(JSON.stringify(credential)).not.toContain('4111111111111111');
  });

  it('reads an ACH credential with its bank display data', async () => {
    const credential = await mint({ instrument: CHECKING, customer: null, scope: ['UNSCHEDULED_COF'] });
    expect(credential).toMatchObject({
      rail: 'ACH',
      card: null,
      bank: { account_type: 'CHECKING', account_last4: '6789', routing_last4: '0015', name_on_account: null },
      customer_id: null,
      scope: ['UNSCHEDULED_COF'],
      state: 'ACTIVE',
    });
  });

  it('lists newest first with pagination and total_count', async () => {
    const merchant = await newMerchant(partner);
    expect((await partner.client.get(path(merchant))).body).toEqual({
      data: [],
      pagination: { next_cursor: null, has_more: false, total_count: 0 },
    });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await mint({ merchant, customer: null })).id);
    const first = await partner.client.get(`${path(merchant)}?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.pagination).toEqual({
      next_cursor: expect.any(String),
      has_more: true,
      total_count: 5,
    });
    expect(Object.keys(first.body.data[0]).sort()).toEqual([...CREDENTIAL_FIELDS].sort());
    const second = await partner.client.get(
      `${path(merchant)}?page_size=2&cursor=${first.body.pagination.next_cursor}`,
    );
    expect(second.body.data.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
    const third = await partner.client.get(
      `${path(merchant)}?page_size=2&cursor=${second.body.pagination.next_cursor}`,
    );
    expect(third.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(third.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 5 });
    // The list item is the resource itself.
    expect(third.body.data[0]).toEqual((await partner.client.get(path(merchant, ids[0]))).body);
    // A cursor belongs to one merchant's list and one set of filters; bad paging is 400.
    const other = await newMerchant(partner);
    expectValidationError(
      await partner.client.get(`${path(other)}?cursor=${first.body.pagination.next_cursor}`),
      ['cursor'],
    );
    expectValidationError(
      await partner.client.get(`${path(merchant)}?state=REVOKED&cursor=${first.body.pagination.next_cursor}`),
      ['cursor'],
    );
    expectValidationError(await partner.client.get(`${path(merchant)}?page_size=0`), ['page_size']);
    expectValidationError(await partner.client.get(`${path(merchant)}?page_size=101`), ['page_size']);
    expect((await partner.client.get(path(other))).body.pagination.total_count).toBe(0);
  });

  it('a customer is gateway_linked while it has an active stored credential, and not after its last is revoked', async () => {
    const merchant = await newMerchant(partner);
    const customer = await newCustomer(partner, merchant);
    const linked = async () =>
      (await partner.client.get(`/merchants/${merchant}/customers/${customer}`)).body.gateway_linked;
    const listed = async () =>
      (await partner.client.get(`/merchants/${merchant}/customers`)).body.data.find(
        (c: any) => c.id === customer,
      ).gateway_linked;
    expect(await linked()).toBe(false);
    const first = await mint({ merchant, customer });
    const second = await mint({ merchant, customer });
    expect(await linked()).toBe(true);
    expect(await listed()).toBe(true);
    expect((await partner.client.delete(path(merchant, first.id))).status).toBe(204);
    expect(await linked()).toBe(true); // the second card is still at the gateway
    expect((await partner.client.delete(path(merchant, second.id))).status).toBe(204);
    expect(await linked()).toBe(false);
    expect(await listed()).toBe(false);
    const history = await platform().operator.get(`/platform/streams/customer-${customer}/events`);
    expect(history.body.data.map((e: any) => e.type)).toEqual([
      'CustomerCreated',
      'CustomerGatewayLinked',
      'CustomerGatewayUnlinked',
    ]);
  });

  it('filters by customer_id; a malformed or blank one is 400', async () => {
    const merchant = await newMerchant(partner);
    const ada = await newCustomer(partner, merchant);
    const bob = await newCustomer(partner, merchant);
    const adas = [(await mint({ merchant, customer: ada })).id, (await mint({ merchant, customer: ada })).id];
    const bobs = [(await mint({ merchant, customer: bob })).id];
    await mint({ merchant, customer: null });
    const forAda = await partner.client.get(`${path(merchant)}?customer_id=${ada}`);
    expect(forAda.status).toBe(200);
    expect(forAda.body.data.map((c: any) => c.id)).toEqual([...adas].reverse());
    expect(forAda.body.pagination.total_count).toBe(2);
    const forBob = await partner.client.get(`${path(merchant)}?customer_id=${bob.toUpperCase()}`);
    expect(forBob.body.data.map((c: any) => c.id)).toEqual(bobs);
    expect((await partner.client.get(path(merchant))).body.pagination.total_count).toBe(4);
    const nobody = await partner.client.get(`${path(merchant)}?customer_id=${randomUUID()}`);
    expect(nobody.body).toEqual({
      data: [],
      pagination: { next_cursor: null, has_more: false, total_count: 0 },
    });
    // Paging keeps the filter: the cursor of Ada's list leads to the rest of Ada's.
    const page = await partner.client.get(`${path(merchant)}?customer_id=${ada}&page_size=1`);
    expect(page.body.pagination.next_cursor.length).toBeLessThanOrEqual(256);
    const rest = await partner.client.get(
      `${path(merchant)}?customer_id=${ada}&page_size=1&cursor=${page.body.pagination.next_cursor}`,
    );
    expect(rest.body.data.map((c: any) => c.id)).toEqual([adas[0]]);
    expectValidationError(
      await partner.client.get(
        `${path(merchant)}?customer_id=${bob}&cursor=${page.body.pagination.next_cursor}`,
      ),
      ['cursor'],
    );
    expectValidationError(await partner.client.get(`${path(merchant)}?customer_id=nope`), ['customer_id']);
    expectValidationError(await partner.client.get(`${path(merchant)}?customer_id=`), ['customer_id']);
    expectValidationError(
      await partner.client.get(`${path(merchant)}?customer_id=${ada}&customer_id=${bob}`),
      ['customer_id'],
    );
    expectValidationError(await partner.client.get(`${path(merchant)}?customer_id=nope&state=GONE`), [
      'customer_id',
      'state',
    ]);
  });

  it('DELETE revokes (204, empty); the credential still reads REVOKED and is listed only by state=REVOKED', async () => {
    const merchant = await newMerchant(partner);
    const kept = await mint({ merchant });
    const revoked = await mint({ merchant });
    const res = await partner.client.delete(
      `${path(merchant, revoked.id)}?reason=${encodeURIComponent('  customer asked to remove the card  ')}`,
    );
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const read = await partner.client.get(path(merchant, revoked.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...revoked, state: 'REVOKED', version: 2 });

    const active = await partner.client.get(path(merchant));
    expect(active.body.data.map((c: any) => c.id)).toEqual([kept.id]);
    expect(active.body.pagination.total_count).toBe(1);
    expect((await partner.client.get(`${path(merchant)}?state=ACTIVE`)).body).toEqual(active.body);
    const listed = await partner.client.get(`${path(merchant)}?state=REVOKED`);
    expect(listed.body.data).toEqual([read.body]);
    expect(listed.body.pagination.total_count).toBe(1);
    for (const state of ['revoked', 'DELETED', '', 'ACTIVE,REVOKED']) {
      expectValidationError(await partner.client.get(`${path(merchant)}?state=${state}`), ['state']);
    }
    expectValidationError(await partner.client.get(`${path(merchant)}?state=ACTIVE&state=REVOKED`), [
      'state',
    ]);

    // The reason is on the credential's stream, trimmed, with who asked.
    const stream = await platform().operator.get(`/platform/streams/stored_credential-${revoked.id}/events`);
    expect(stream.status).toBe(200);
    expect(stream.body.data.map((e: any) => e.type)).toEqual([
      'StoredCredentialCreated',
      'StoredCredentialRevoked',
    ]);
    expect(stream.body.data[1].data).toEqual({
      storedCredentialId: revoked.id,
      merchantId: merchant,
      partnerId: partner.id,
      reason: 'customer asked to remove the card',
      revokedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(stream.body.data[1].metadata).toMatchObject({
      actor: expect.stringMatching(/^partner-key:/),
      partner_id: partner.id,
      request_id: expect.any(String),
    });
    // Nothing in the stream holds the card number.
    expect(JSON.stringify(stream.body)).not.toContain('4111111111111111');
  });

  it('DELETE twice is 409 invalid_state_transition; nothing more is recorded', async () => {
    const credential = await mint();
    expect((await partner.client.delete(path(merchantId, credential.id))).status).toBe(204);
    expectProblem(
      await partner.client.delete(path(merchantId, credential.id)),
      409,
      'invalid_state_transition',
    );
    expectProblem(
      await partner.client.delete(`${path(merchantId, credential.id)}?reason=again`),
      409,
      'invalid_state_transition',
    );
    const stream = await platform().operator.get(
      `/platform/streams/stored_credential-${credential.id}/events`,
    );
    expect(stream.body.data).toHaveLength(2);
    // Without a reason the event says so.
    expect(stream.body.data[1].data.reason).toBeNull();
    expect((await partner.client.get(path(merchantId, credential.id))).body.version).toBe(2);
  });

  it('reason: 500 characters are fine, 501 are 400 naming reason; blank is no reason; twice is 400', async () => {
    const tooLong = await mint();
    expectValidationError(
      await partner.client.delete(`${path(merchantId, tooLong.id)}?reason=${'x'.repeat(501)}`),
      ['reason'],
    );
    expectValidationError(await partner.client.delete(`${path(merchantId, tooLong.id)}?reason=a&reason=b`), [
      'reason',
    ]);
    expect((await partner.client.get(path(merchantId, tooLong.id))).body.state).toBe('ACTIVE');
    // Surrounding spaces do not count.
    const padded = `%20%20${'y'.repeat(500)}%20%20`;
    expect((await partner.client.delete(`${path(merchantId, tooLong.id)}?reason=${padded}`)).status).toBe(
      204,
    );
    const stream = await platform().operator.get(`/platform/streams/stored_credential-${tooLong.id}/events`);
    expect(stream.body.data[1].data.reason).toBe('y'.repeat(500));

    const blank = await mint();
    expect((await partner.client.delete(`${path(merchantId, blank.id)}?reason=%20%20`)).status).toBe(204);
    const blankStream = await platform().operator.get(
      `/platform/streams/stored_credential-${blank.id}/events`,
    );
    expect(blankStream.body.data[1].data.reason).toBeNull();
  });

  it('DELETE takes no Idempotency-Key (and one sent is ignored)', async () => {
    const credential = await mint();
    const res = await partner.client.delete(path(merchantId, credential.id), {
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-idempotent-replay')).toBeNull();
  });

  it('a missing credential, or one of a sibling merchant, is 404 stored_credential_not_found', async () => {
    const credential = await mint();
    const sibling = await newMerchant(partner);
    expectProblem(await partner.client.get(path(sibling, credential.id)), 404, 'stored_credential_not_found');
    expectProblem(
      await partner.client.delete(path(sibling, credential.id)),
      404,
      'stored_credential_not_found',
    );
    expectProblem(
      await partner.client.get(path(merchantId, randomUUID())),
      404,
      'stored_credential_not_found',
    );
    expectProblem(
      await partner.client.delete(path(merchantId, randomUUID())),
      404,
      'stored_credential_not_found',
    );
    expect((await partner.client.get(`${path(sibling)}?state=ACTIVE`)).body.pagination.total_count).toBe(0);
    expect((await partner.client.get(path(merchantId, credential.id))).body).toEqual(credential);
  });

  it('tenancy: another partner gets 404 merchant_not_found, and its own merchant does not reach the credential', async () => {
    const credential = await mint();
    const other = await platform().newPartner({ name: 'Other Software' });
    for (const res of [
      await other.client.get(path(merchantId)),
      await other.client.get(path(merchantId, credential.id)),
      await other.client.delete(path(merchantId, credential.id)),
      await other.client.get(path(randomUUID())),
    ]) {
      expectProblem(res, 404, 'merchant_not_found');
    }
    const theirs = await newMerchant(other);
    expectProblem(await other.client.get(path(theirs, credential.id)), 404, 'stored_credential_not_found');
    expectProblem(await other.client.delete(path(theirs, credential.id)), 404, 'stored_credential_not_found');
    expect((await partner.client.get(path(merchantId, credential.id))).body).toEqual(credential);
  });

  it('a vault token is found for its own partner only; a revoked one is found with its state', async () => {
    const credential = await mint();
    const other = await platform().newPartner({ name: 'Token Thief' });
    const reader = platform().service.app.get(StoredCredentialReader);
    expect(await reader.findByVaultToken(partner.id, credential.vault_token)).toMatchObject({
      id: credential.id,
      state: 'ACTIVE',
    });
    expect(await reader.findByVaultToken(other.id, credential.vault_token)).toBeNull();
    expect(await reader.findByVaultToken(partner.id, `cvt_${'A'.repeat(32)}`)).toBeNull();
    expect(await reader.findByVaultToken(partner.id, 'not-a-token')).toBeNull();
    await partner.client.delete(path(merchantId, credential.id));
    expect(await reader.findByVaultToken(partner.id, credential.vault_token)).toMatchObject({
      id: credential.id,
      state: 'REVOKED',
      revocationReason: null,
    });
  });

  it('minting is once per vault token: a re-run answers the credential already minted', async () => {
    const merchant = await newMerchant(partner);
    const app = platform().service.app;
    const stored = await app.get(CardVault).store(partner.id, merchant, VISA);
    const input = {
      vaultToken: stored.token,
      partnerId: partner.id,
      merchantId: merchant,
      customerId: null,
      processor: 'sandbox',
      paymentMethodType: stored.display.paymentMethodType,
      card: stored.display.card,
      bank: stored.display.bank,
      allowedUseTypes: ['ONE_TIME_FUTURE', 'ONE_TIME_FUTURE'],
      consent: { capturedAt: '2026-11-01T00:00:00.000Z', channel: 'hpp' as const, text: 'Save my card.' },
    };
    const commands = app.get(CommandBus);
    const first = await commands.execute(
      new MintStoredCredential(testMetadata({ partner_id: partner.id }), input),
    );
    const again = await commands.execute(
      new MintStoredCredential(testMetadata({ partner_id: partner.id }), input),
    );
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      state: 'ACTIVE',
      allowedUseTypes: ['ONE_TIME_FUTURE'],
      enrollmentTerms: null,
    });
    const list = await partner.client.get(path(merchant));
    expect(list.body.data.map((c: any) => c.id)).toEqual([first.id]);
    expect(list.body.data[0]).toMatchObject({ scope: ['ONE_TIME_FUTURE'], enrollment_terms: null });
  });

  it('scopes: reads need stored_credential:read, DELETE needs stored_credential:revoke (403)', async () => {
    const credential = await mint();
    const keyWith = async (scopes: string[]) =>
      platform().as(
        (await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, { scopes })).body
          .api_key,
      );
    const reader = await keyWith(['stored_credential:read']);
    expect((await reader.get(path(merchantId, credential.id))).status).toBe(200);
    expect((await reader.get(path(merchantId))).status).toBe(200);
    expectProblem(await reader.delete(path(merchantId, credential.id)), 403, 'unauthorized');
    const revoker = await keyWith(['stored_credential:revoke']);
    expectProblem(await revoker.get(path(merchantId, credential.id)), 403, 'unauthorized');
    expectProblem(await revoker.get(path(merchantId)), 403, 'unauthorized');
    const customersOnly = await keyWith(['customer:read', 'customer:write']);
    expectProblem(await customersOnly.get(path(merchantId)), 403, 'unauthorized');
    expect((await partner.client.get(path(merchantId, credential.id))).body.state).toBe('ACTIVE');
    expect((await revoker.delete(path(merchantId, credential.id))).status).toBe(204);
  });

  it('the routes need the stored_credentials feature flag (403 feature_not_enabled when off)', async () => {
    const p = await platform().newPartner({ name: 'Flagless Software' });
    const merchant = await newMerchant(p);
    const credential = await mint({ p, merchant, customer: null });
    // recurring_billing (on for a new partner) depends on stored_credentials: off first.
    expect(
      (await p.client.put('/config/feature-flags/me/recurring_billing', { enabled: false })).status,
    ).toBe(200);
    const off = await p.client.put('/config/feature-flags/me/stored_credentials', { enabled: false });
    expect(off.status).toBe(200);
    expectProblem(await p.client.get(path(merchant)), 403, 'feature_not_enabled');
    expectProblem(await p.client.get(path(merchant, credential.id)), 403, 'feature_not_enabled');
    expectProblem(await p.client.delete(path(merchant, credential.id)), 403, 'feature_not_enabled');
  });

  it('malformed ids are 400', async () => {
    expectValidationError(await partner.client.get('/merchants/not-a-uuid/stored-credentials'), [
      'merchantId',
    ]);
    expectValidationError(await partner.client.get(path(merchantId, 'not-a-uuid')), ['storedCredentialId']);
    expectValidationError(await partner.client.delete(path(merchantId, 'not-a-uuid')), [
      'storedCredentialId',
    ]);
  });

  it('there is no create route: POST is 405 (the list only allows GET)', async () => {
    const res = await partner.client.post(path(merchantId), { vault_token: `cvt_${'A'.repeat(32)}` });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('the stored-credential-list read model rebuilds from the events and agrees with the list before', async () => {
    const merchant = await newMerchant(partner);
    for (let n = 0; n < 3; n++) await mint({ merchant, customer: null });
    const gone = await mint({ merchant, customer: null });
    await partner.client.delete(`${path(merchant, gone.id)}?reason=rebuild`);
    const before = await partner.client.get(path(merchant));
    const beforeRevoked = await partner.client.get(`${path(merchant)}?state=REVOKED`);
    expect(before.body.pagination.total_count).toBe(3);
    expect(beforeRevoked.body.pagination.total_count).toBe(1);
    const rebuild = await platform().operator.post('/platform/projections/stored-credential-list/rebuild');
    expect(rebuild.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let state = 'rebuilding';
    while (state === 'rebuilding' && Date.now() < deadline) {
      expect((await partner.client.get(path(merchant))).status).toBe(200);
      const status = await platform().operator.get('/platform/projections');
      state = status.body.data.find((p: any) => p.name === 'stored-credential-list').state;
      if (state === 'rebuilding') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(state).toBe('running');
    expect((await partner.client.get(path(merchant))).body).toEqual(before.body);
    expect((await partner.client.get(`${path(merchant)}?state=REVOKED`)).body).toEqual(beforeRevoked.body);
    // Vault tokens are still found after the swap.
    const reader = platform().service.app.get(StoredCredentialReader);
    expect((await reader.findByVaultToken(partner.id, gone.vault_token))?.id).toBe(gone.id);
  });
});
