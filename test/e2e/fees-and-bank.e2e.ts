import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError } from '../support/problems';

const PROFILE = {
  pricing_model: 'FLAT_RATE',
  card_rate_bps: 290,
  card_fixed_fee: '0.30',
  ach_rate_bps: 80,
  ach_fixed_fee: '0.25',
  ach_fee_cap: '5.00',
  monthly_fee: '10.00',
  effective_date: '2026-12-01',
};

describe('merchant fees and settlement bank verification', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  const newMerchant = async (body: Record<string, unknown> = {}) =>
    (
      await partner.client.post('/merchants', {
        business_name: 'Fee Shop',
        contact_email: 'a@fee.test',
        contact_name: 'Fe',
        merchant_category_code: '5812',
        business_state: 'NY',
        ...body,
      })
    ).body;
  beforeAll(async () => {
    partner = await platform().newPartner();
  });

  it('eligibility explains why a surcharge is not allowed, and allows it once the partner may surcharge', async () => {
    const merchant = await newMerchant();
    const before = await partner.client.get(`/merchants/${merchant.id}/fee-eligibility`);
    expect(before.status).toBe(200);
    expect(before.body.surcharge).toMatchObject({ eligible: false });
    expect(before.body.surcharge.reasons).toEqual(
      expect.arrayContaining(['surcharging_not_enabled', 'fee_profile_required']),
    );

    const profile = await partner.client.put(`/merchants/${merchant.id}/fee-profile`, PROFILE);
    expect(profile.status).toBe(201);
    expect(profile.body.fee_profile).toMatchObject({ card_fixed_fee: '0.30', monthly_fee: '10.00' });
    expect((await partner.client.put(`/merchants/${merchant.id}/fee-profile`, PROFILE)).status).toBe(200);

    expectProblem(
      await partner.client.put(`/merchants/${merchant.id}/fee-settings/surcharge`, {
        enabled: true,
        percent_bps: 250,
      }),
      422,
      'surcharge_not_eligible',
    );
    await platform().operator.put(`/platform/partners/${partner.id}/feature-flags/surcharging`, {
      enabled: true,
    });
    const eligible = await partner.client.get(`/merchants/${merchant.id}/fee-eligibility`);
    expect(eligible.body.surcharge).toMatchObject({ eligible: true, max_percent_bps: 290 });
    expectProblem(
      await partner.client.put(`/merchants/${merchant.id}/fee-settings/surcharge`, {
        enabled: true,
        percent_bps: 301,
      }),
      422,
      'surcharge_exceeds_cap',
    );
    expectProblem(
      await partner.client.put(`/merchants/${merchant.id}/fee-settings/surcharge`, {
        enabled: true,
        percent_bps: 250,
        card_types: ['credit', 'debit'],
      }),
      422,
      'surcharge_not_allowed_on_debit',
    );
    const set = await partner.client.put(`/merchants/${merchant.id}/fee-settings/surcharge`, {
      enabled: true,
      percent_bps: 250,
    });
    expect(set.status).toBe(200);
    expect(set.body.surcharge).toMatchObject({ enabled: true, percent_bps: 250, card_types: ['credit'] });
    expect((await partner.client.get(`/merchants/${merchant.id}/fee-settings`)).body).toEqual(set.body);
  });

  it('a surcharge is never eligible where the state prohibits it', async () => {
    const merchant = await newMerchant({ business_state: 'CT' });
    const res = await partner.client.get(`/merchants/${merchant.id}/fee-eligibility`);
    expect(res.body.surcharge.reasons).toContain('us_state_prohibits_surcharge');
  });

  it('refuses numbers for amounts and strings for rates, naming the field', async () => {
    const merchant = await newMerchant();
    expectValidationError(
      await partner.client.put(`/merchants/${merchant.id}/fee-profile`, { ...PROFILE, card_fixed_fee: 0.3 }),
      ['card_fixed_fee'],
    );
    expectValidationError(
      await partner.client.put(`/merchants/${merchant.id}/fee-profile`, { ...PROFILE, card_rate_bps: '290' }),
      ['card_rate_bps'],
    );
    expectValidationError(
      await partner.client.put(`/merchants/${merchant.id}/fee-profile`, {
        ...PROFILE,
        monthly_fee: '10.001',
      }),
      ['monthly_fee'],
    );
  });

  it('verifies a settlement account through pending to verified on the sandbox clock; a 0000 account fails', async () => {
    const merchant = await newMerchant();
    const path = `/merchants/${merchant.id}`;
    expect((await partner.client.get(`${path}/bank-verification`)).body).toMatchObject({
      status: 'NOT_STARTED',
    });
    expectProblem(await partner.client.post(`${path}/bank-verification/check`), 422, 'bank_account_missing');
    expectValidationError(
      await partner.client.put(`${path}/bank-account`, {
        routing_number: '011000016',
        account_number: '123456789',
        account_type: 'CHECKING',
        account_holder_name: 'Fee Shop LLC',
      }),
      ['routing_number'],
    );
    const set = await partner.client.put(`${path}/bank-account`, {
      routing_number: '011000015',
      account_number: '000123456789',
      account_type: 'CHECKING',
      account_holder_name: 'Fee Shop LLC',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      status: 'PENDING',
      bank_account: { routing_number: '*****0015', account_number: '****6789', account_type: 'CHECKING' },
    });
    expect((await partner.client.post(`${path}/bank-verification/check`)).body.status).toBe('PENDING');
    await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 61 });
    const verified = await partner.client.post(`${path}/bank-verification/check`);
    expect(verified.body).toMatchObject({ status: 'VERIFIED', checked_at: expect.any(String) });

    // The full account number is nowhere in the event store.
    const { rows } = await platform().service.infra.pool.query(
      "select count(*)::int as n from event_store.events where data::text like '%000123456789%'",
    );
    expect(rows[0].n).toBe(0);

    const failing = await newMerchant();
    await partner.client.put(`/merchants/${failing.id}/bank-account`, {
      routing_number: '011000015',
      account_number: '55550000',
      account_type: 'SAVINGS',
      account_holder_name: 'Nobody',
    });
    const failed = await partner.client.post(`/merchants/${failing.id}/bank-verification/check`);
    expect(failed.body).toMatchObject({
      status: 'FAILED',
      failure_reason: expect.stringContaining('not found'),
    });
  });

  it('the application shows sections 2 to 5 with personal and bank data masked', async () => {
    const merchant = await newMerchant({
      contact_name: 'Jamie Rivera',
      contact_email: 'jamie@fee.test',
      authorized_signer_name: 'Sam Signer',
    });
    await partner.client.put(`/merchants/${merchant.id}/bank-account`, {
      routing_number: '011000015',
      account_number: '987654321',
      account_type: 'CHECKING',
      account_holder_name: 'Fee Shop LLC',
    });
    const res = await partner.client.get(`/merchants/${merchant.id}/application`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      merchant_id: merchant.id,
      section_2_business: { business_name: 'Fee Shop', merchant_category_code: '5812', business_state: 'NY' },
      section_3_principals: {
        contact_name: 'J. R.',
        contact_email: 'j***@fee.test',
        authorized_signer_name: 'S. S.',
      },
      section_5_banking: {
        routing_number: '*****0015',
        account_number: '****4321',
        verification_status: 'PENDING',
      },
    });
    const text = JSON.stringify(res.body);
    for (const secret of ['Jamie', 'jamie@', '987654321', 'Sam Signer']) expect(text).not.toContain(secret);
    const other = await platform().newPartner({ name: 'Peeker' });
    expectProblem(await other.client.get(`/merchants/${merchant.id}/application`), 404, 'merchant_not_found');
  });

  it('another partner reaches none of it', async () => {
    const merchant = await newMerchant();
    const other = await platform().newPartner({ name: 'Other' });
    for (const [method, path] of [
      ['GET', 'fee-eligibility'],
      ['GET', 'fee-settings'],
      ['PUT', 'fee-profile'],
      ['GET', 'bank-verification'],
      ['POST', 'bank-verification/check'],
    ]) {
      expectProblem(
        await other.client.call(
          method,
          `/merchants/${merchant.id}/${path}`,
          method === 'PUT' ? { body: PROFILE } : {},
        ),
        404,
        'merchant_not_found',
      );
    }
  });
});
