import { CommandBus } from '@nestjs/cqrs';
import { Inject, Injectable } from '@nestjs/common';
import { NO_STREAM, type EventMetadata } from '../../../event-store/src';
import { PaymentGateway, type ChargeResult } from '../../../gateway/src';
import { CustomerReader } from '../../../customers/src';
import {
  MerchantPricing,
  MerchantReader,
  validateCustomFieldValues,
  type Merchant,
} from '../../../merchants/src';
import { PartnerReader, assertFeaturesEnabled, type Partner } from '../../../partners/src';
import { Clock } from '../../../platform/src/clock/clock';
import { sumMinor } from '../../../platform/src/money/money';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import { DomainError, InvalidStateTransition } from '../../../platform/src/problem';
import { ProjectionRunner } from '../../../projections/src';
import {
  CardVault,
  StoredCredentialReader,
  assertChargeable,
  type StoredCredential,
  type BankDisplay,
  type CardDisplay,
  type UseType,
  StoredCredentialNotFound,
} from '../../../vault/src';
import { AVS_DECLINE_CODE, avsPolicyDeclines, declineReasonOf } from '../domain/avs-policy';
import {
  nextBankingDayOnOrAfter,
  type Level2DataInput,
  type Level3DataInput,
  toLevel2Data,
  toLevel3Data,
  validateLevel2,
  validateLevel3,
  toReversalReason,
} from '../domain/rules';
import { totalMinor, type Transaction } from '../domain/transaction';
import { TransactionNotFound, type FieldError } from '../domain/transaction-errors';
import { featuresNeeded } from '../domain/transaction-features';
import type { TransactionInitiated } from '../domain/transaction-events';
import {
  TransactionRequestInvalid,
  type ChargeRequest,
  type FollowUpRequest,
} from '../domain/transaction-request';
import {
  RunTransactionCommand,
  type KnownTransactionStream,
  type TransactionCommandInput,
  type TransactionResult,
} from './transaction-commands';
import { TransactionReader } from './transaction-reader';

/** 502 `gateway_outcome_unknown`: retry with the same Idempotency-Key, or read the transaction. */
export class GatewayOutcomeUnknown extends DomainError {
  readonly code = 'gateway_outcome_unknown';
  override readonly retryable = true;

  constructor(readonly transactionId: string) {
    super(
      `the gateway's answer for transaction ${transactionId} is not known yet; it is recorded as pending. ` +
        'Retry with the SAME Idempotency-Key (a new key risks a double charge) or read the transaction.',
    );
  }
}

/** 422 `merchant_not_transactable` (CONTRACT §5a). */
export class MerchantNotTransactable extends DomainError {
  readonly code = 'merchant_not_transactable';
  override readonly retryable = false;

  constructor(merchantId: string, state: string, environment: string) {
    super(
      `merchant ${merchantId} is ${state}; it must be ${environment === 'production' ? 'LIVE' : 'ACTIVE or LIVE'} to transact`,
    );
  }
}

/** 422: the vault token is of the other rail (a bank account on SALE, a card on ACH_DEBIT). */
export class PaymentMethodMismatch extends DomainError {
  readonly code = 'payment_method_mismatch';
  override readonly retryable = false;

  constructor(type: string, method: string) {
    super(
      `a ${type} needs a ${type === 'SALE' ? 'card' : 'bank account'} vault token; this one holds a ${method}`,
    );
  }
}

/** 422: `customer_id` names another customer than the one the vault entry belongs to. */
export class CustomerMismatch extends DomainError {
  readonly code = 'customer_mismatch';
  override readonly retryable = false;

  constructor() {
    super('customer_id does not match the customer the vault token belongs to');
  }
}

/** 422 with one entry per field: values that break the merchant's custom-field configuration. */
export class CustomFieldsInvalid extends DomainError {
  readonly code = 'custom_fields_invalid';
  override readonly retryable = false;

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }
}

/** Everything a charge records, resolved and checked by the caller. */
export interface ChargeFacts {
  type: 'SALE' | 'ACH_DEBIT';
  merchant: Merchant;
  vaultToken: string;
  storedCredentialId: string | null;
  card: CardDisplay | null;
  bank: BankDisplay | null;
  useType: UseType;
  amountMinor: bigint;
  currency: string;
  customerId: string | null;
  taxMinor: bigint | null;
  secCode: 'WEB' | 'PPD' | 'CCD' | 'TEL' | null;
  customFields: { name: string; value: string }[];
  level2Data: Record<string, unknown> | null;
  level3Data: Record<string, unknown> | null;
}

/** Where a charge comes from: the request's ids and metadata. */
export interface PaymentContext {
  partnerId: string;
  /** The idempotency record's id (stable across re-runs); null only outside a request. */
  commandId: string;
  /**
   * True when `commandId` is new to this request (no earlier run of it): the transaction it
   * names cannot exist yet, so a charge skips looking for it. Absent means "maybe a re-run".
   */
  fresh?: boolean;
  metadata: EventMetadata;
  source: 'api' | 'hpp';
  /** The channel a fee disclosure was shown on, when one applies. */
  disclosureChannel: string;
  entryMode: string;
}

/** A partner's own request: its variants are held against the partner's feature flags. */
export interface RequestedPayment extends PaymentContext {
  enabledFeatures: readonly string[];
}

/**
 * The payment command path: `POST /transactions` and hosted-page completion both charge here,
 * so the rules (merchant transactable, credential scope, pricing, AVS policy, unknown outcome)
 * hold the same for both.
 *
 * Order of a charge, and why: (1) every check, before anything is written; (2) the transaction is
 * recorded INITIATED; (3) the gateway is called with the transaction id as its reference (the
 * gateway is idempotent by reference); (4) its answer is recorded. A crash or a lost answer between
 * (2) and (4) leaves an INITIATED transaction with the outcome pending; a retry of the same
 * request (same command id → same transaction id) or the sweep asks the gateway what happened to
 * that reference (`lookup`) and sends the charge again only when the gateway never received it.
 */
@Injectable()
export class Payments {
  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: TransactionReader,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    private readonly pricing: MerchantPricing,
    private readonly credentials: StoredCredentialReader,
    private readonly customers: CustomerReader,
    private readonly vault: CardVault,
    private readonly gateway: PaymentGateway,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses a merchant that may not transact (sandbox: ACTIVE or LIVE; production: LIVE). */
  assertTransactable(merchant: Merchant): void {
    const allowed = this.config.appEnv === 'production' ? ['LIVE'] : ['ACTIVE', 'LIVE'];
    if (!allowed.includes(merchant.state)) {
      throw new MerchantNotTransactable(merchant.id, merchant.state, this.config.appEnv);
    }
  }

  /**
   * A SALE or ACH_DEBIT on a vault token. A re-run of a request that already recorded its
   * transaction finishes it whatever the flags say now; anything new passes the feature gates
   * (403) before the first lookup.
   */
  async charge(context: RequestedPayment, request: ChargeRequest): Promise<Transaction> {
    const transactionId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = context.fresh ? null : await this.transactions.find(transactionId);
    if (existing) return this.finish(context, existing);
    assertFeaturesEnabled(context.enabledFeatures, featuresNeeded(request));

    const merchant = await this.merchants.getForPartner(request.merchantId, context.partnerId);
    this.assertTransactable(merchant);
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

    return this.initiate(context, transactionId, {
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
    });
  }

  /**
   * A hosted page's charge: the payer's instrument was just vaulted (and, on a save page, minted
   * as a stored credential); the page checked the entry. Same pricing, recording and gateway path
   * as `charge`, with the CVC the payer typed passed through to this one gateway call.
   */
  async chargeHosted(context: PaymentContext, facts: ChargeFacts, cvc: string | null): Promise<Transaction> {
    const transactionId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = await this.transactions.find(transactionId);
    if (existing) return this.finish(context, existing, { cvc });
    this.assertTransactable(facts.merchant);
    return this.initiate(context, transactionId, facts, cvc);
  }

  private async initiate(
    context: PaymentContext,
    transactionId: string,
    facts: ChargeFacts,
    cvc: string | null = null,
  ): Promise<Transaction> {
    const cardholderInitiated = facts.useType === 'ONE_TIME_FUTURE';
    const funding = facts.card?.funding ?? null;
    // Read once: pricing needs the partner's features, the gateway's answer its AVS policy.
    const partner = cardholderInitiated ? await this.partners.get(context.partnerId) : undefined;
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
    const initiated = await this.write(
      context,
      'initiate',
      { type: 'InitiateTransaction', transactionId, data },
      // A fresh command's transaction cannot exist: append without reading the stream first.
      context.fresh ? { transaction: null, revision: NO_STREAM } : undefined,
    );
    return this.finish(context, initiated.state, {
      cvc,
      revision: initiated.revision,
      partner,
    });
  }

  /**
   * Takes an INITIATED transaction to the gateway's answer; a transaction already past INITIATED is
   * returned as it is. Throws {@link GatewayOutcomeUnknown} while the answer stays unknown.
   */
  async finish(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    transaction: Transaction,
    options: {
      /** The CVC the payer just typed (hosted page); never stored, used for this one call. */
      cvc?: string | null;
      /** The stream revision `transaction` was read at, when this request just wrote it. */
      revision?: bigint;
      /** The transaction's partner, when this request has read it already. */
      partner?: Partner;
    } = {},
  ): Promise<Transaction> {
    if (transaction.state !== 'INITIATED') return transaction;
    const send = () => this.send(transaction, options.cvc ?? null);
    const result = transaction.outcomePending ? await this.lookupOrSend(transaction.id, send) : await send();
    const recorded = await this.recordOutcome(context, transaction, result, options);
    if (recorded.state === 'INITIATED') throw new GatewayOutcomeUnknown(recorded.id);
    return recorded;
  }

  private async send(t: Transaction, cvc: string | null): Promise<ChargeResult> {
    const instrument = t.vaultToken ? await this.vault.reveal(t.partnerId, t.vaultToken) : null;
    if (!instrument) return { outcome: 'DECLINED', declineCode: 'invalid_card_number' };
    const amountMinor = totalMinor(t);
    const fees = {
      surchargeMinor: BigInt(t.surchargeMinor),
      convenienceFeeMinor: BigInt(t.convenienceFeeMinor),
    };
    if (instrument.kind === 'card') {
      return this.gateway.authorizeAndCapture({
        reference: t.id,
        merchantGatewayId: t.merchantId,
        amountMinor,
        fees,
        currency: t.currency,
        card: {
          pan: instrument.pan,
          expMonth: instrument.expMonth,
          expYear: instrument.expYear,
          cvc,
          postalCode: instrument.postalCode ?? null,
        },
      });
    }
    const ach = await this.gateway.achDebit({
      reference: t.id,
      routingNumber: instrument.routingNumber,
      accountNumber: instrument.accountNumber,
      accountType: instrument.accountType,
      amountMinor,
      fees,
      secCode: (t.secCode ?? 'WEB') as 'WEB' | 'PPD' | 'CCD' | 'TEL',
    });
    return ach.outcome === 'SUBMITTED' ? approvedWithout(ach.gatewayTransactionId) : ach;
  }

  private async recordOutcome(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    t: Transaction,
    result: ChargeResult,
    known: { revision?: bigint; partner?: Partner } = {},
  ): Promise<Transaction> {
    const at = this.clock.now();
    let outcome: Extract<TransactionCommandInput, { type: 'RecordGatewayOutcome' }>['outcome'];
    if (result.outcome === 'UNKNOWN') {
      outcome = { kind: 'unknown' };
    } else if (result.outcome === 'DECLINED') {
      outcome = {
        kind: 'declined',
        declineCode: result.declineCode,
        declineReason: declineReasonOf(result.declineCode, t.rail),
      };
    } else if (t.rail === 'CARD' && (await this.avsDeclines(t, result.avsResponseCode, known.partner))) {
      // Approved by the issuer but refused by the partner's AVS policy: release the hold.
      await this.gateway.void({
        reference: `${t.id}:avs`,
        gatewayTransactionId: result.gatewayTransactionId,
      });
      outcome = {
        kind: 'declined',
        declineCode: AVS_DECLINE_CODE,
        declineReason: declineReasonOf(AVS_DECLINE_CODE),
        avsResponseCode: result.avsResponseCode,
        cvResponseCode: result.cvResponseCode,
      };
    } else {
      outcome = {
        kind: 'approved',
        approvalCode: result.authorizationCode || null,
        gatewayTransactionId: result.gatewayTransactionId,
        avsResponseCode: result.avsResponseCode || null,
        cvResponseCode: result.cvResponseCode || null,
        effectiveDate: t.rail === 'ACH' ? nextBankingDayOnOrAfter(at.toISOString().slice(0, 10)) : null,
      };
    }
    const step = outcome.kind === 'unknown' ? 'outcome-unknown' : 'outcome';
    try {
      const recorded = await this.write(
        context,
        step,
        { type: 'RecordGatewayOutcome', transactionId: t.id, outcome },
        known.revision === undefined ? undefined : { transaction: t, revision: known.revision },
      );
      await this.waitForList(recorded);
      return recorded.state;
    } catch (error) {
      // The sweep (or a parallel retry) recorded the answer first: what it recorded stands.
      if (error instanceof InvalidStateTransition) return (await this.transactions.find(t.id))!;
      throw error;
    }
  }

  private async avsDeclines(t: Transaction, avsResponseCode: string, known?: Partner): Promise<boolean> {
    if (t.useType !== 'ONE_TIME_FUTURE') return false;
    const partner = known ?? (await this.partners.get(t.partnerId));
    return avsPolicyDeclines(partner.avsDeclinePolicy, avsResponseCode || null);
  }

  /** One write to a transaction stream, as a named step of the request (see transactionAggregate). */
  async step(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    step: string,
    command: TransactionCommandInput,
    /**
     * Wait until `transaction-list` has this write (read-your-writes for the answer). Steps that
     * are followed by another write of the same request skip it: waiting for the last one covers
     * them all, since the read model's checkpoint is one global position.
     */
    options: { wait: boolean } = { wait: true },
  ): Promise<Transaction> {
    const result = await this.write(context, step, command);
    if (options.wait) await this.waitForList(result);
    return result.state;
  }

  /** The write of a step, without the read-model wait. */
  private async write(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    step: string,
    command: TransactionCommandInput,
    known?: KnownTransactionStream,
  ): Promise<TransactionResult> {
    const causation = idFor(context.commandId, `${command.transactionId}:${step}`, () => context.commandId);
    return this.commands.execute(
      new RunTransactionCommand(
        command,
        { ...context.metadata, causation_id: causation },
        { known: known && { state: known.transaction, revision: known.revision } },
      ),
    );
  }

  /** Read-your-writes: `transaction-list` has the write (a list read right after finds it). */
  private async waitForList(result: TransactionResult): Promise<void> {
    if (result.position !== null) await this.projections.waitFor(result.position, ['transaction-list']);
  }

  private async credentialFor(
    partnerId: string,
    merchantId: string,
    request: ChargeRequest,
  ): Promise<StoredCredential> {
    const credential = await this.credentials.findByVaultToken(partnerId, request.vaultToken);
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

  /** A follow-up (VOID, AUTH_REVERSAL, REFUND, PARTIAL_REFUND, ACH_VOID, ACH_REFUND, ACH_REVERSAL). */
  async followUp(context: RequestedPayment, request: FollowUpRequest): Promise<Transaction> {
    const childId = idFor(context.commandId, 'transaction', () => context.commandId);
    const existing = await this.transactions.find(childId);
    if (existing) return this.finishFollowUp(context, existing);
    assertFeaturesEnabled(context.enabledFeatures, featuresNeeded(request));

    const merchant = await this.merchants.getForPartner(request.merchantId, context.partnerId);
    this.assertTransactable(merchant);
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
    const after = await this.step(
      context,
      'parent',
      {
        type: 'ApplyFollowUp',
        transactionId: parent.id,
        followUp: request.type,
        childId,
        amountMinor: request.amountMinor ?? undefined,
        reversalReason,
      },
      { wait: false },
    );
    const granted = after.refunds[childId];
    const amountMinor = granted ? granted.amountMinor : before.amountMinor;
    const child = await this.step(
      context,
      'initiate',
      {
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
      },
      { wait: false },
    );
    return this.finishFollowUp(context, child);
  }

  /**
   * Resolves a transaction whose gateway answer is pending (the sweep; a 3DS challenge that
   * passed): asks the gateway about its reference, sends it only if the gateway never got it.
   */
  async resolve(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    transaction: Transaction,
  ): Promise<Transaction> {
    return transaction.parentTransactionId
      ? this.finishFollowUp(context, transaction)
      : this.finish(context, transaction);
  }

  /** Sends a follow-up child to the gateway (or not: a card VOID is ledger-only) and records it. */
  private async finishFollowUp(
    context: Pick<PaymentContext, 'commandId' | 'metadata'>,
    child: Transaction,
  ): Promise<Transaction> {
    if (child.state !== 'INITIATED') return child;
    const parent = (await this.transactions.find(child.parentTransactionId!))!;
    const send = () => this.sendFollowUp(child, parent);
    const result = child.outcomePending ? await this.lookupOrSend(child.id, send) : await send();
    const recorded = await this.recordOutcome(context, child, result);
    if (recorded.state === 'FAILED' && parent.refunds[child.id]) {
      await this.step(context, 'parent-release', {
        type: 'FailRefund',
        transactionId: parent.id,
        childId: child.id,
      });
    }
    if (recorded.state === 'INITIATED') throw new GatewayOutcomeUnknown(recorded.id);
    return recorded;
  }

  private async sendFollowUp(child: Transaction, parent: Transaction): Promise<ChargeResult> {
    const reference = child.id;
    const gatewayTransactionId = parent.gatewayTransactionId ?? '';
    // Spec: a VOID is ledger-only, no processor message; the hold expires on the issuer's schedule.
    if (child.type === 'VOID') return approvedWithout('');
    if (child.type === 'AUTH_REVERSAL' || child.type === 'ACH_VOID') {
      const voided = await this.gateway.void({ reference, gatewayTransactionId });
      return voided.outcome === 'APPROVED' ? approvedWithout('') : voided;
    }
    const refund = await this.gateway.refund({
      reference,
      gatewayTransactionId,
      amountMinor: sumMinor([BigInt(child.amountMinor), BigInt(child.surchargeMinor)], child.currency),
    });
    return refund.outcome === 'APPROVED' ? approvedWithout(refund.gatewayTransactionId) : refund;
  }

  /** The gateway's record of a reference whose answer was lost; sends again only if it never arrived. */
  private async lookupOrSend(reference: string, send: () => Promise<ChargeResult>): Promise<ChargeResult> {
    const found = await this.gateway.lookup(reference);
    if (found.status === 'NOT_FOUND') return send();
    if (found.status === 'UNKNOWN') return { outcome: 'UNKNOWN' };
    const result = found.result;
    if (result.outcome === 'UNKNOWN' || result.outcome === 'DECLINED') return result;
    if (found.operation === 'authorizeAndCapture') return found.result as ChargeResult;
    return approvedWithout('gatewayTransactionId' in result ? result.gatewayTransactionId : '');
  }
}

/** An approval that carries no authorization code or AVS answer (ACH, voids, refunds). */
function approvedWithout(gatewayTransactionId: string): ChargeResult {
  return {
    outcome: 'APPROVED',
    authorizationCode: '',
    gatewayTransactionId,
    avsResponseCode: '',
    cvResponseCode: '',
  };
}
