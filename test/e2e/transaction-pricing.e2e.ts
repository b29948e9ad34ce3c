import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import { activeMerchant, vaultedCredential, VISA, transactionStreams } from '../support/payments';

/** Surcharge and AVS policy apply to cardholder-initiated charges only (spec Transactions rule 3). */
describe('POST /transactions: pricing and AVS policy', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;

  const sale = (vaultToken: string, useType: string, amount = '100.00') =>
    partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchantId,
      amount,
      currency: 'USD',
      vault_token: vaultToken,
      use_type: useType,
    });

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner, 'Surcharge Shop', {
      business_state: 'NY',
    });
    await platform().operator.put(`/platform/partners/${partner.id}/feature-flags/surcharging`, {
      enabled: true,
    });
    const profile = await partner.client.put(`/merchants/${merchantId}/fee-profile`, {
      pricing_model: 'FLAT_RATE',
      card_rate_bps: 290,
      card_fixed_fee: '0.30',
      ach_rate_bps: 80,
      ach_fixed_fee: '0.25',
      ach_fee_cap: '5.00',
      monthly_fee: '10.00',
      effective_date: '2026-12-01',
    });
    expect(profile.status).toBe(201);
    const surcharge = await partner.client.put(`/merchants/${merchantId}/fee-settings/surcharge`, {
      enabled: true,
      percent_bps: 250,
    });
    expect(surcharge.status).toBe(200);
  });

  it('ONE_TIME_FUTURE on a credit card is surcharged and disclosed; RECURRING is billed as given', async () => {
    const { vaultToken } = await vaultedCredential(platform(), partner, merchantId);
    const cardholder = await sale(vaultToken, 'ONE_TIME_FUTURE');
    expect(cardholder.body).toMatchObject({
      state: 'CAPTURED',
      amount: '100.00',
      surcharge_amount: '2.50',
      total_amount: '102.50',
      surcharge_disclosure_channel: 'API',
      surcharge_disclosure_acknowledged_at: expect.any(String),
    });
    const merchantInitiated = await sale(vaultToken, 'RECURRING');
    expect(merchantInitiated.body).toMatchObject({
      state: 'CAPTURED',
      surcharge_amount: '0.00',
      surcharge_disclosure_acknowledged_at: null,
    });
  });

  it('a partial refund reverses its share of the surcharge', async () => {
    const { vaultToken } = await vaultedCredential(platform(), partner, merchantId);
    const { body: parent } = await sale(vaultToken, 'ONE_TIME_FUTURE');
    await transactionStreams(platform().service.app).execute(
      { type: 'Settle', transactionId: parent.id, batchId: randomUUID() },
      testMetadata(),
    );
    const refund = await partner.client.post('/transactions', {
      type: 'PARTIAL_REFUND',
      merchant_id: merchantId,
      parent_transaction_id: parent.id,
      amount: '40.00',
    });
    expect(refund.body).toMatchObject({ type: 'PARTIAL_REFUND', amount: '40.00', surcharge_amount: '1.00' });
    const after = await partner.client.get(`/transactions/${parent.id}`);
    expect(after.body).toMatchObject({ state: 'PARTIALLY_REFUNDED', surcharge_reversed_amount: '1.00' });
  });

  it('the sandbox reads the cents of the amount sent, not of the surcharged total (CONTRACT §5)', async () => {
    const { vaultToken } = await vaultedCredential(platform(), partner, merchantId);
    // 10.51 + 2.5% = 10.77 charged: still the .51 decline.
    expect((await sale(vaultToken, 'ONE_TIME_FUTURE', '10.51')).body).toMatchObject({
      state: 'FAILED',
      decline_code: 'card_declined',
      surcharge_amount: '0.26',
      total_amount: '10.77',
    });
    // 2.00 + 2.5% = 2.05 charged: approved, not the .05 decline.
    expect((await sale(vaultToken, 'ONE_TIME_FUTURE', '2.00')).body).toMatchObject({
      state: 'CAPTURED',
      surcharge_amount: '0.05',
      total_amount: '2.05',
    });
  });

  it('the partner’s AVS policy declines a no-match only on cardholder-initiated charges', async () => {
    const policy = await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
      avs_decline_policy: 'DECLINE_ON_NO_MATCH',
    });
    expect(policy.status).toBe(200);
    const noMatch = await vaultedCredential(platform(), partner, merchantId, {
      instrument: { ...VISA, postalCode: '00000' },
    });
    const declined = await sale(noMatch.vaultToken, 'ONE_TIME_FUTURE', '10.00');
    expect(declined.body).toMatchObject({
      state: 'FAILED',
      decline_code: 'avs_mismatch',
      avs_response_code: 'N',
    });
    const recurring = await sale(noMatch.vaultToken, 'RECURRING', '10.00');
    expect(recurring.body).toMatchObject({ state: 'CAPTURED', avs_response_code: 'N' });
    const partial = await vaultedCredential(platform(), partner, merchantId, {
      instrument: { ...VISA, postalCode: '11111' },
    });
    expect((await sale(partial.vaultToken, 'ONE_TIME_FUTURE', '10.00')).body).toMatchObject({
      state: 'CAPTURED',
      avs_response_code: 'Z',
    });
    await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
      avs_decline_policy: 'DECLINE_ON_PARTIAL_MATCH',
    });
    expect((await sale(partial.vaultToken, 'ONE_TIME_FUTURE', '10.00')).body).toMatchObject({
      state: 'FAILED',
      decline_code: 'avs_mismatch',
    });
  });
});
