import { Inject, Injectable } from '@nestjs/common';
import { MerchantReader } from '../../../merchants/src';
import { assertFeaturesEnabled } from '../../../partners/src';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import { assertMerchantTransactable, toReversalReason } from '../domain/rules';
import type { Transaction } from '../domain/transaction';
import { TransactionNotFound } from '../domain/transaction-errors';
import { featuresNeeded } from '../domain/transaction-features';
import type { FollowUpRequest } from '../domain/transaction-request';
import { GatewayOutcomes } from './gateway-outcome';
import type { RequestedPayment } from './payment-context';
import { TransactionReader } from './transaction-reader';
import { TransactionSteps } from './transaction-steps';

/**
 * A follow-up on an earlier transaction (CONTRACT §8): a new transaction of the follow-up's type
 * with its own id and `parent_transaction_id`. The parent moves first (the state machine and the
 * refundable remainder decide there, so two racing refunds never exceed the original), then the
 * child is recorded and sent (`GatewayOutcomes.finishFollowUp`).
 */
@Injectable()
export class FollowUps {
  constructor(
    private readonly steps: TransactionSteps,
    private readonly outcomes: GatewayOutcomes,
    private readonly transactions: TransactionReader,
    private readonly merchants: MerchantReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A follow-up (VOID, AUTH_REVERSAL, REFUND, PARTIAL_REFUND, ACH_VOID, ACH_REFUND, ACH_REVERSAL). */
  async followUp(context: RequestedPayment, request: FollowUpRequest): Promise<Transaction> {
    const childId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = await this.transactions.find(childId);
    if (existing) return this.outcomes.finishFollowUp(context, existing);
    assertFeaturesEnabled(context.enabledFeatures, featuresNeeded(request));

    const merchant = await this.merchants.getForPartner(request.merchantId, context.partnerId);
    assertMerchantTransactable(merchant, this.config.appEnv);
    const parent = await this.transactions.getForPartner(request.parentTransactionId, context.partnerId);
    // A parent of another merchant reads like an unknown one.
    if (parent.merchantId !== merchant.id) throw new TransactionNotFound(parent.id);
    // The stored form: the code, and the description trimmed (null when blank).
    const reason =
      request.type === 'ACH_REVERSAL'
        ? toReversalReason(request.reversalReason as { code: string; description?: string })
        : null;
    const reversalReason = reason && { code: reason.code, description: reason.description ?? null };

    const before = parent;
    const after = await this.steps.step(context, 'parent', {
      type: 'ApplyFollowUp',
      transactionId: parent.id,
      followUp: request.type,
      childId,
      amountMinor: request.amountMinor ?? undefined,
      reversalReason,
    });
    const granted = after.refunds[childId];
    const amountMinor = granted ? granted.amountMinor : before.amountMinor;
    const child = await this.steps.step(context, 'initiate', {
      type: 'InitiateTransaction',
      transactionId: childId,
      data: {
        partnerId: parent.partnerId,
        merchantId: parent.merchantId,
        type: request.type,
        rail: parent.rail,
        amountMinor,
        currency: parent.currency,
        surchargeMinor: granted ? granted.surchargeReversedMinor : '0',
        convenienceFeeMinor: '0',
        taxMinor: null,
        entryMode: parent.entryMode,
        useType: null,
        storedCredentialId: parent.storedCredentialId,
        vaultToken: parent.vaultToken,
        customerId: parent.customerId,
        parentTransactionId: parent.id,
        card: parent.card,
        bank: parent.bank,
        secCode: parent.secCode,
        customFields: [],
        level2Data: null,
        level3Data: null,
        refundReason:
          request.type === 'PARTIAL_REFUND' ? ((request.refundReason as string | null) ?? null) : null,
        reversalReason,
        convenienceFeeDisclosure: null,
        surchargeDisclosure: null,
        source: context.source,
      },
    });
    return this.outcomes.finishFollowUp(context, child);
  }
}
