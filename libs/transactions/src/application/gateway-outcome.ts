import { Injectable } from '@nestjs/common';
import { PaymentGateway, type ChargeResult } from '../../../gateway/src';
import { PartnerReader, type Partner } from '../../../partners/src';
import { Clock } from '../../../platform/src/clock/clock';
import { sumMinor } from '../../../platform/src/money/money';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { CardVault } from '../../../vault/src';
import { AVS_DECLINE_CODE, avsPolicyDeclines, declineReasonOf } from '../domain/avs-policy';
import { nextBankingDayOnOrAfter } from '../domain/rules';
import { totalMinor, type Transaction } from '../domain/transaction';
import { GatewayOutcomeUnknown } from '../domain/transaction-errors';
import type { StepContext } from './payment-context';
import type { TransactionCommandInput } from './transaction-commands';
import { TransactionReader } from './transaction-reader';
import { TransactionSteps } from './transaction-steps';

/**
 * The gateway's side of a payment: an INITIATED transaction is sent (the transaction id is the
 * gateway reference, so the gateway is idempotent by it) and its answer recorded — approved,
 * declined (the partner's AVS policy may decline an approval and release the hold), or unknown
 * (the transaction stays INITIATED with its outcome pending, and the request answers 502). A
 * retry of the request or the sweep asks the gateway about the reference (`lookup`) and sends
 * again only when the gateway never received it.
 */
@Injectable()
export class GatewayOutcomes {
  constructor(
    private readonly steps: TransactionSteps,
    private readonly transactions: TransactionReader,
    private readonly partners: PartnerReader,
    private readonly vault: CardVault,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes an INITIATED transaction to the gateway's answer; a transaction already past INITIATED is
   * returned as it is. Throws {@link GatewayOutcomeUnknown} while the answer stays unknown.
   */
  async finish(
    context: StepContext,
    transaction: Transaction,
    options: {
      /** The CVC the payer just typed (hosted page); never stored, used for this one call. */
      cvc?: string | null;
      /** The stream revision `transaction` was read at, when this request just wrote it. */
      revision?: bigint;
      /** The transaction's partner, when this request has read it already. */
      partner?: Partner;
      /** The answer is the last thing the request writes (see `TransactionSteps.write`). */
      final?: boolean;
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
    context: StepContext,
    t: Transaction,
    result: ChargeResult,
    known: { revision?: bigint; partner?: Partner; final?: boolean } = {},
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
      const recorded = await this.steps.write(
        context,
        step,
        { type: 'RecordGatewayOutcome', transactionId: t.id, outcome },
        known.revision === undefined ? undefined : { transaction: t, revision: known.revision },
        known.final === true,
      );
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

  /**
   * Resolves a transaction whose gateway answer is pending (the sweep; a 3DS challenge that
   * passed): asks the gateway about its reference, sends it only if the gateway never got it.
   */
  async resolve(context: StepContext, transaction: Transaction): Promise<Transaction> {
    return transaction.parentTransactionId
      ? this.finishFollowUp(context, transaction)
      : this.finish(context, transaction);
  }

  /** Sends a follow-up child to the gateway (or not: a card VOID is ledger-only) and records it. */
  async finishFollowUp(context: StepContext, child: Transaction): Promise<Transaction> {
    if (child.state !== 'INITIATED') return child;
    const parent = (await this.transactions.find(child.parentTransactionId!))!;
    const send = () => this.sendFollowUp(child, parent);
    const result = child.outcomePending ? await this.lookupOrSend(child.id, send) : await send();
    const recorded = await this.recordOutcome(context, child, result);
    if (recorded.state === 'FAILED' && parent.refunds[child.id]) {
      await this.steps.step(context, 'parent-release', {
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
