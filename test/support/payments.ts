import { CardVault, type VaultCard, type VaultInstrument } from '../../libs/vault/src/application/card-vault';
import { CommandBus } from '@nestjs/cqrs';
import type { INestApplication } from '@nestjs/common';
import type { EventMetadata } from '../../libs/event-store/src';
import {
  RunTransactionCommand,
  type TransactionCommandInput,
  type TransactionResult,
} from '../../libs/transactions/src/application/transaction-commands';
import { TransactionReader } from '../../libs/transactions/src/application/transaction-reader';
import { MintStoredCredential } from '../../libs/vault/src/application/stored-credential-commands';
import type { ApiClient, ApiResponse, ApiTarget, TestPartner, TestPlatform } from './api';

/** A partner as the merchant helpers need it: a client holding its key. */
interface PartnerCaller {
  client: ApiClient<ApiTarget>;
}
import { testMetadata } from './metadata';
import { checkedFetch } from './checked-fetch';

export const VISA: VaultCard = { kind: 'card', pan: '4111111111111111', expMonth: 12, expYear: 2030 };
export const VISA_DEBIT: VaultCard = {
  kind: 'card',
  pan: '4000056655665556',
  expMonth: 12,
  expYear: 2030,
};
export const CHECKING: VaultInstrument = {
  kind: 'ach',
  routingNumber: '011000015',
  accountNumber: '000123456789',
  accountType: 'CHECKING',
};

/** The operator transitions that take a SUBMITTED merchant to ACTIVE (CONTRACT §2). */
export const TO_ACTIVE = [
  'start_review',
  'approve_precheck',
  'complete_signature',
  'pass_underwriting',
  'start_provisioning',
  'complete_provisioning',
];

/** A DRAFT merchant of `partner`, created through the real API; its id. */
export async function draftMerchant(
  partner: PartnerCaller,
  name = 'Blue Bottle Cafe',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await partner.client.post('/merchants', {
    business_name: name,
    contact_email: 'owner@bluebottle.test',
    contact_name: 'Jamie Rivera',
    merchant_category_code: '5812',
    ...extra,
  });
  if (created.status !== 201)
    throw new Error(`merchant create: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/** A merchant of `partner` walked to ACTIVE through the real API (sandbox: ACTIVE may transact). */
export async function activeMerchant(
  operator: ApiClient<ApiTarget>,
  partner: PartnerCaller,
  name = 'Blue Bottle Cafe',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = await draftMerchant(partner, name, extra);
  await partner.client.post(`/merchants/${id}/submit`);
  for (const action of TO_ACTIVE) {
    const res = await operator.post(`/platform/merchants/${id}/transitions`, { action });
    if (res.status !== 200) throw new Error(`${action}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return id;
}

/**
 * A stored credential minted the way a completed save-card page does (vault, then mint), for
 * tests of the charge path that do not need the page itself.
 */
export async function vaultedCredential(
  platform: TestPlatform,
  partner: TestPartner,
  merchantId: string,
  options: { instrument?: VaultInstrument; scope?: string[]; customerId?: string | null } = {},
): Promise<{ id: string; vaultToken: string }> {
  const app = platform.service.app;
  const stored = await app.get(CardVault).store(partner.id, merchantId, options.instrument ?? VISA);
  const credential = await app.get(CommandBus).execute(
    new MintStoredCredential(testMetadata({ partner_id: partner.id }), {
      vaultToken: stored.token,
      partnerId: partner.id,
      merchantId,
      customerId: options.customerId ?? null,
      processor: 'sandbox',
      paymentMethodType: stored.display.paymentMethodType,
      card: stored.display.card,
      bank: stored.display.bank,
      allowedUseTypes: (options.scope ?? ['ONE_TIME_FUTURE', 'RECURRING']) as never,
      consent: { capturedAt: '2026-11-01T00:00:00.000Z', channel: 'hpp', text: 'I agree.' },
      enrollmentTerms: null,
    }),
  );
  return { id: credential.id, vaultToken: stored.token };
}

/** The body of a one-time USD SALE on a vault token, as `POST /transactions` takes it. */
export function saleBody(merchantId: string, vaultToken: string, amount: string) {
  return {
    type: 'SALE',
    merchant_id: merchantId,
    amount,
    currency: 'USD',
    vault_token: vaultToken,
    use_type: 'ONE_TIME_FUTURE',
  };
}

/**
 * A charge through `POST /transactions` on a vault token: a $25.00 one-time SALE unless `body`
 * says otherwise (`{type: 'ACH_DEBIT'}` on a bank token); its answer, which must be 200.
 */
export async function charge(
  partner: TestPartner,
  merchantId: string,
  vaultToken: string,
  body: Record<string, unknown> = {},
): Promise<ApiResponse['body']> {
  const res = await partner.client.post('/transactions', {
    ...saleBody(merchantId, vaultToken, '25.00'),
    ...body,
  });
  if (res.status !== 200) throw new Error(`charge: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Transaction streams written directly, the way the bank side and the settlement run write them
 * (a settlement, a 3DS challenge), for tests that need a state no partner request produces.
 */
export function transactionStreams(app: Pick<INestApplication, 'get'>) {
  return {
    execute: (command: TransactionCommandInput, metadata: EventMetadata): Promise<TransactionResult> =>
      app.get(CommandBus).execute(new RunTransactionCommand(command, metadata)),
    find: (transactionId: string) => app.get(TransactionReader).find(transactionId),
  };
}

/**
 * The payer's side of a hosted card page, as a browser without JavaScript does it: GET the page,
 * POST its form with the sandbox Visa and the page's CSRF token. The answer is not followed (a
 * completed page answers 303).
 */
export async function payHostedPageByCard(hppUrl: string): Promise<Response> {
  const html = await (await checkedFetch(hppUrl)).text();
  return checkedFetch(hppUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf_token: /name="csrf_token" value="([^"]+)"/.exec(html)![1],
      card_number: '4111111111111111',
      exp_month: '12',
      exp_year: '2035',
      cvc: '123',
      postal_code: '94107',
    }).toString(),
  });
}
