import { randomUUID } from 'node:crypto';
import type { TestPartner, TestPlatform } from './api';
import { activeMerchant, vaultedCredential } from './payments';
import { eventually, type WebhookReceiver } from './webhook-receiver';

/** A partner's records, one of each kind a route can name by id, by the path parameter's name. */
export type PartnerFixtures = Record<string, string>;

/**
 * One of each record a partner route can name in its path, made through the API (a settlement
 * batch and a webhook delivery included), with every feature a route needs switched on, so each
 * route reaches its handler: the tenancy sweep and the hostile-input test walk every route with
 * them. `name` makes the partner's records recognisable (`Alpha Cafe`, `owner@alpha.test`).
 */
export async function partnerFixtures(
  platform: TestPlatform,
  partner: TestPartner,
  name: string,
  receiver: WebhookReceiver,
): Promise<PartnerFixtures> {
  const op = platform.operator;
  const features = [
    await op.put(`/platform/partners/${partner.id}/feature-flags/terminals`, { enabled: true }),
    await partner.client.put('/config/feature-flags/me/three_d_secure', { enabled: true }),
  ];
  for (const res of features) if (res.status !== 200) throw new Error(`feature: ${res.status} ${res.text}`);
  const merchantId = await activeMerchant(op, partner, `${name} Cafe`);
  const customer = await partner.client.post(`/merchants/${merchantId}/customers`, {
    email: `owner@${name.toLowerCase()}.test`,
  });
  const credential = await vaultedCredential(platform, partner, merchantId);
  const sale = await partner.client.post('/transactions', {
    type: 'SALE',
    merchant_id: merchantId,
    amount: '10.00',
    currency: 'USD',
    vault_token: credential.vaultToken,
    use_type: 'ONE_TIME_FUTURE',
  });
  const session = await partner.client.post('/hpp/sessions', { merchant_id: merchantId, amount: '5.00' });
  const flow = await partner.client.post('/partner/me/certification/prepare');
  const endpoint = await partner.client.post('/webhook-endpoints', { url: receiver.url(`/${name}`) });
  const terminal = await partner.client.post('/terminals', {
    merchant_id: merchantId,
    serial_number: `SN-${name}-${randomUUID().slice(0, 8)}`,
    model: 'PAX A920 Pro',
  });
  // A contract due a month from now (nothing charges meanwhile).
  const now = Date.parse((await op.get('/platform/sandbox/clock')).body.now as string);
  const contract = await partner.client.post('/contracts', {
    merchant_id: merchantId,
    payment_method_type: 'CARD',
    payment_method_token: credential.vaultToken,
    amount: '9.00',
    frequency: 'MONTHLY',
    start_date: new Date(now + 30 * 86_400_000).toISOString().slice(0, 10),
  });
  for (const res of [customer, sale, session, flow, endpoint, terminal, contract]) {
    if (res.status >= 300) throw new Error(`fixture: ${res.status} ${res.text}`);
  }
  // A settlement batch of the merchant: the end-of-day run settles its SALE.
  const run = await op.post('/platform/settlement/run', { merchant_id: merchantId });
  if (run.status !== 200 || !run.body.data?.[0]) throw new Error(`settlement run: ${run.status} ${run.text}`);
  const deliveries = await eventually(
    () => partner.client.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`),
    (res) => res.body.data?.length > 0,
    10_000,
    100,
  );
  return {
    id: partner.id,
    partnerId: partner.id,
    merchantId,
    customerId: customer.body.id,
    storedCredentialId: credential.id,
    vaultToken: credential.vaultToken,
    transactionId: sale.body.id,
    sessionId: session.body.id,
    flowId: flow.body.id,
    endpointId: endpoint.body.id,
    deliveryId: deliveries.body.data[0].id,
    terminalId: terminal.body.id,
    batchId: run.body.data[0].id,
    contractId: contract.body.id,
  };
}
