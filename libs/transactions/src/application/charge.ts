import { Inject, Injectable } from '@nestjs/common';
import { NO_STREAM } from '../../../event-store/src';
import { CustomerReader } from '../../../customers/src';
import {
  MerchantPricing,
  MerchantReader,
  validateCustomFieldValues,
  type Merchant,
} from '../../../merchants/src';
import { PartnerReader, assertFeaturesEnabled } from '../../../partners/src';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import {
  StoredCredentialReader,
  assertChargeable,
  type StoredCredential,
  StoredCredentialNotFound,
} from '../../../vault/src';
import {
  assertMerchantTransactable,
  type Level2DataInput,
  type Level3DataInput,
  toLevel2Data,
  toLevel3Data,
  validateLevel2,
  validateLevel3,
} from '../domain/rules';
import type { Transaction } from '../domain/transaction';
import { CustomerMismatch, CustomFieldsInvalid, PaymentMethodMismatch } from '../domain/transaction-errors';
import type { TransactionInitiated } from '../domain/transaction-events';
import { featuresNeeded } from '../domain/transaction-features';
import { TransactionRequestInvalid, type ChargeRequest } from '../domain/transaction-request';
import { GatewayOutcomes } from './gateway-outcome';
import type { ChargeFacts, PaymentContext, RequestedPayment } from './payment-context';
import { TransactionReader } from './transaction-reader';
import { TransactionSteps } from './transaction-steps';

/**
 * A charge (SALE, ACH_DEBIT): `POST /transactions` and hosted-page completion both charge here,
 * so the rules (merchant transactable, credential scope, pricing, AVS policy, unknown outcome)
 * hold the same for both.
 *
 * Order, and why: (1) every check, before anything is written; (2) the transaction is recorded
 * INITIATED; (3) the gateway is called with the transaction id as its reference; (4) its answer is
 * recorded (`GatewayOutcomes`). A crash or a lost answer between (2) and (4) leaves an INITIATED
 * transaction with the outcome pending; a retry of the same request (same command id → same
 * transaction id) or the sweep resolves it without charging twice.
 */
@Injectable()
export class Charges {
  constructor(
    private readonly steps: TransactionSteps,
    private readonly outcomes: GatewayOutcomes,
    private readonly transactions: TransactionReader,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    private readonly pricing: MerchantPricing,
    private readonly credentials: StoredCredentialReader,
    private readonly customers: CustomerReader,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A SALE or ACH_DEBIT on a vault token. A re-run of a request that already recorded its
   * transaction finishes it whatever the flags say now; anything new passes the feature gates
   * (403) before the first lookup.
   */
  async charge(context: RequestedPayment, request: ChargeRequest): Promise<Transaction> {
    const transactionId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = context.fresh ? null : await this.transactions.find(transactionId);
    // The gateway's answer is the charge's last write: the request's answer may commit with it.
    if (existing) return this.outcomes.finish(context, existing, { final: true });
    assertFeaturesEnabled(context.enabledFeatures, featuresNeeded(request));

    // Cached reads (at most READ_CACHE_MAX_AGE_MS old; docs/adr/0008-write-path.md): every charge reads them.
    const merchant = await this.merchants.getForPartnerCached(request.merchantId, context.partnerId);
    assertMerchantTransactable(merchant, this.config.appEnv);
    const credential = await this.credentialFor(context.partnerId, merchant.id, request);
    assertChargeable(credential, request.useType, this.clock.now());
    const customerId = await this.customerFor(context.partnerId, merchant.id, credential, request.customerId);
    const customFields = this.customFieldsFor(merchant, request.customFields);
    const levelErrors = [
      ...(request.level2Data === null ? [] : validateLevel2(request.level2Data)),
      ...(request.level3Data === null
        ? []
        : validateLevel3(request.level3Data, request.currency, request.amountMinor)),
    ];
    if (levelErrors.length > 0) throw new TransactionRequestInvalid(levelErrors);

    return this.initiate(
      context,
      transactionId,
      {
        type: request.type,
        merchant,
        vaultToken: request.vaultToken,
        storedCredentialId: credential.id,
        card: credential.card,
        bank: credential.bank,
        useType: request.useType,
        amountMinor: request.amountMinor,
        currency: request.currency,
        customerId,
        taxMinor: request.taxMinor,
        secCode: request.secCode,
        customFields,
        level2Data:
          request.level2Data === null ? null : { ...toLevel2Data(request.level2Data as Level2DataInput) },
        level3Data:
          request.level3Data === null
            ? null
            : { ...toLevel3Data(request.level3Data as Level3DataInput, request.currency) },
      },
      null,
      true,
    );
  }

  /**
   * A hosted page's charge: the payer's instrument was just vaulted (and, on a save page, minted
   * as a stored credential); the page checked the entry. Same pricing, recording and gateway path
   * as `charge`, with the CVC the payer typed passed through to this one gateway call.
   */
  async chargeHosted(context: PaymentContext, facts: ChargeFacts, cvc: string | null): Promise<Transaction> {
    const transactionId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = await this.transactions.find(transactionId);
    if (existing) return this.outcomes.finish(context, existing, { cvc });
    assertMerchantTransactable(facts.merchant, this.config.appEnv);
    return this.initiate(context, transactionId, facts, cvc);
  }

  private async initiate(
    context: PaymentContext,
    transactionId: string,
    facts: ChargeFacts,
    cvc: string | null = null,
    /** Nothing of the request comes after the charge (an API charge; a hosted page completes its session). */
    final = false,
  ): Promise<Transaction> {
    const cardholderInitiated = facts.useType === 'ONE_TIME_FUTURE';
    const funding = facts.card?.funding ?? null;
    // Read once: pricing needs the partner's features, the gateway's answer its AVS policy.
    const partner = cardholderInitiated ? await this.partners.getCached(context.partnerId) : undefined;
    const price = cardholderInitiated
      ? await this.pricing.price(
          facts.merchant,
          {
            amountMinor: facts.amountMinor,
            paymentMethod: facts.type === 'SALE' ? 'card' : 'ach',
            cardType: funding === 'credit' || funding === 'debit' || funding === 'prepaid' ? funding : null,
            channel: 'CARD_NOT_PRESENT',
            merchantInitiated: false,
          },
          partner,
        )
      : null;
    const now = this.clock.now().toISOString();
    const disclosure = (minor: bigint | undefined) =>
      minor !== undefined && minor > 0n ? { acknowledgedAt: now, channel: context.disclosureChannel } : null;

    const data: Omit<TransactionInitiated['data'], 'transactionId' | 'initiatedAt'> = {
      partnerId: context.partnerId,
      merchantId: facts.merchant.id,
      type: facts.type,
      rail: facts.type === 'SALE' ? 'CARD' : 'ACH',
      amountMinor: facts.amountMinor.toString(),
      currency: facts.currency,
      surchargeMinor: (price?.surchargeMinor ?? 0n).toString(),
      convenienceFeeMinor: (price?.convenienceFeeMinor ?? 0n).toString(),
      taxMinor: facts.taxMinor === null ? null : facts.taxMinor.toString(),
      entryMode: context.entryMode,
      useType: facts.useType,
      storedCredentialId: facts.storedCredentialId,
      vaultToken: facts.vaultToken,
      customerId: facts.customerId,
      parentTransactionId: null,
      card: facts.card && { ...facts.card, funding: facts.card.funding ?? 'unknown' },
      bank: facts.bank && {
        accountType: facts.bank.accountType,
        accountLast4: facts.bank.accountLast4,
        routingLast4: facts.bank.routingLast4,
      },
      secCode: facts.secCode,
      customFields: facts.customFields,
      level2Data: facts.level2Data,
      level3Data: facts.level3Data,
      refundReason: null,
      reversalReason: null,
      convenienceFeeDisclosure: disclosure(price?.convenienceFeeMinor),
      surchargeDisclosure: disclosure(price?.surchargeMinor),
      source: context.source,
    };
    const initiated = await this.steps.write(
      context,
      'initiate',
      { type: 'InitiateTransaction', transactionId, data },
      // A fresh command's transaction cannot exist: append without reading the stream first.
      context.fresh ? { transaction: null, revision: NO_STREAM } : undefined,
    );
    return this.outcomes.finish(context, initiated.state, {
      cvc,
      revision: initiated.revision,
      partner,
      final,
    });
  }

  private async credentialFor(
    partnerId: string,
    merchantId: string,
    request: ChargeRequest,
  ): Promise<StoredCredential> {
    const credential = await this.credentials.findByVaultTokenCached(partnerId, request.vaultToken);
    // Another merchant's token reads like an unknown one (tenancy).
    if (!credential || credential.merchantId !== merchantId)
      throw new StoredCredentialNotFound(request.vaultToken);
    const method = credential.paymentMethodType;
    if ((request.type === 'SALE') !== (method === 'card'))
      throw new PaymentMethodMismatch(request.type, method);
    return credential;
  }

  private async customerFor(
    partnerId: string,
    merchantId: string,
    credential: StoredCredential,
    requested: string | null,
  ): Promise<string | null> {
    if (requested === null) return credential.customerId;
    await this.customers.getForMerchant(requested, merchantId, partnerId);
    if (credential.customerId !== null && credential.customerId !== requested) throw new CustomerMismatch();
    return requested;
  }

  private customFieldsFor(merchant: Merchant, values: unknown) {
    const errors = validateCustomFieldValues(merchant.customFields, values, 'api');
    if (errors.length > 0) throw new CustomFieldsInvalid(errors);
    return ((values as { name: string; value: unknown }[] | null) ?? []).map((v) => ({
      name: v.name,
      value: String(v.value),
    }));
  }
}
