import { InvalidStateTransition } from '../../../../platform/src/problem';
import type { TransactionPrice } from '../../../../merchants/src/domain';
import { effectiveState, isExpired, type HppSession, type HppSessionStateOrNone } from './session';
import { HppSessionCommandInvalid, HppSessionNotFound } from './session-errors';
import type { HppBankSummary, HppCardSummary, HppPriceData, HppSessionEvent } from './session-events';
import type { HppSessionRequest } from './session-request';
import {
  canTransition,
  HPP_MAX_FAILED_ATTEMPTS,
  HPP_SESSION_TTL_MS,
  type HppSessionAction,
  type TokenizationOutcome,
} from './session-states';

interface Base {
  sessionId: string;
  at: Date;
}

/**
 * `POST /hpp/sessions`. The handler parses the body (`parseSessionRequest`), checks the merchant
 * and customer, and prices a fixed amount with `priceTransaction` (channel CARD_NOT_PRESENT) before
 * deciding: `price` is required exactly when `request.amountMinor` is set, and must be for it.
 */
export interface CreateHppSession extends Base {
  type: 'CreateHppSession';
  partnerId: string;
  request: HppSessionRequest;
  price: TransactionPrice | null;
}

export interface CancelHppSession extends Base {
  type: 'CancelHppSession';
}

/** From the sweeper; allowed at or after `expires_at` only. */
export interface ExpireHppSession extends Base {
  type: 'ExpireHppSession';
}

/** A payer attempt that failed (decline, invalid card entry): counts toward the lockout. */
export interface RecordHppSessionFailedAttempt extends Base {
  type: 'RecordHppSessionFailedAttempt';
  reason: string;
}

/** Names the contract of the session's `recurring_plan` (once; the same id again changes nothing). */
export interface LinkHppSessionContract extends Base {
  type: 'LinkHppSessionContract';
  contractId: string;
}

export interface CompleteHppSession extends Base {
  type: 'CompleteHppSession';
  vaultToken: string | null;
  storedCredentialId: string | null;
  transactionId: string | null;
  card: HppCardSummary | null;
  bank: HppBankSummary | null;
  tokenizationOutcome: Exclude<TokenizationOutcome, 'pending'>;
  /** Required when `tokenizationOutcome` is failed. */
  tokenCaptureFailureReason?: string | null;
  /** A customer_entered page: the typed amount priced at submit. Otherwise null or omitted. */
  enteredPrice?: TransactionPrice | null;
}

export type HppSessionCommand =
  | CreateHppSession
  | CancelHppSession
  | ExpireHppSession
  | RecordHppSessionFailedAttempt
  | LinkHppSessionContract
  | CompleteHppSession;

export type HppSessionCommandType = HppSessionCommand['type'];

const ACTIONS: Record<Exclude<HppSessionCommandType, 'CreateHppSession'>, HppSessionAction> = {
  CancelHppSession: 'cancel',
  ExpireHppSession: 'expire',
  RecordHppSessionFailedAttempt: 'record_failed_attempt',
  LinkHppSessionContract: 'link_contract',
  CompleteHppSession: 'complete',
};

function priceData(price: TransactionPrice, amountMinor: bigint, what: string): HppPriceData {
  const { baseMinor, surchargeMinor, convenienceFeeMinor, totalMinor } = price;
  if (baseMinor !== amountMinor) throw new HppSessionCommandInvalid(`${what} is for another amount`);
  if (
    surchargeMinor < 0n ||
    convenienceFeeMinor < 0n ||
    totalMinor !== baseMinor + surchargeMinor + convenienceFeeMinor
  ) {
    throw new HppSessionCommandInvalid(`${what} does not add up`);
  }
  return {
    amountMinor: baseMinor.toString(),
    surchargeMinor: surchargeMinor.toString(),
    convenienceFeeMinor: convenienceFeeMinor.toString(),
    totalMinor: totalMinor.toString(),
  };
}

/** The session's decisions. Pure: time and ids arrive with the command. */
export function decide(command: HppSessionCommand, session: HppSessionStateOrNone): HppSessionEvent[] {
  const at = command.at.toISOString();

  if (command.type === 'CreateHppSession') {
    if (session) throw new InvalidStateTransition('hpp_session', session.state, 'create');
    const r = command.request;
    if ((r.amountMinor === null) !== (command.price === null)) {
      throw new HppSessionCommandInvalid('a price is required exactly when the session has a fixed amount');
    }
    const price =
      r.amountMinor !== null && command.price !== null
        ? priceData(command.price, r.amountMinor, 'price')
        : null;
    const plan = r.recurringPlan;
    return [
      {
        type: 'HppSessionCreated',
        data: {
          sessionId: command.sessionId,
          merchantId: r.merchantId,
          partnerId: command.partnerId,
          paymentMethod: r.paymentMethod,
          renderingMode: r.renderingMode,
          pagePurpose: r.pagePurpose,
          captureMode: r.captureMode,
          amountMode: r.amountMode,
          savesPaymentMethod: r.savesPaymentMethod,
          credentialUsages: [...r.credentialUsages],
          customerId: r.customerId,
          recurringPlan: plan && {
            recurringAmountMinor: plan.recurringAmountMinor.toString(),
            frequency: plan.frequency,
            interval: plan.interval,
            numberOfPayments: plan.numberOfPayments,
            initialChargeAmountMinor: plan.initialChargeAmountMinor?.toString() ?? null,
          },
          customFields: r.customFields.map((field) => ({ ...field })),
          currency: r.currency,
          amountMinor: price?.amountMinor ?? null,
          surchargeMinor: price?.surchargeMinor ?? null,
          convenienceFeeMinor: price?.convenienceFeeMinor ?? null,
          totalMinor: price?.totalMinor ?? null,
          expiresAt: new Date(command.at.getTime() + HPP_SESSION_TTL_MS).toISOString(),
          createdAt: at,
        },
      },
    ];
  }

  if (!session) throw new HppSessionNotFound(command.sessionId);
  const action = ACTIONS[command.type];
  // Expire records the lapse of time, so it sees the recorded state; every other command sees a
  // PENDING session past expires_at as EXPIRED.
  const from = command.type === 'ExpireHppSession' ? session.state : effectiveState(session, command.at);
  if (!canTransition(from, action)) throw new InvalidStateTransition('hpp_session', from, action);
  const ids = { sessionId: session.id, merchantId: session.merchantId, partnerId: session.partnerId };

  switch (command.type) {
    case 'CancelHppSession':
      return [{ type: 'HppSessionCancelled', data: { ...ids, cancelledAt: at } }];
    case 'ExpireHppSession':
      if (!isExpired(session, command.at)) {
        throw new HppSessionCommandInvalid(`the session expires at ${session.expiresAt}, not before`);
      }
      return [{ type: 'HppSessionExpired', data: { ...ids, expiredAt: at } }];
    case 'RecordHppSessionFailedAttempt': {
      const count = session.failedAttempts + 1;
      const failed: HppSessionEvent = {
        type: 'HppSessionAttemptFailed',
        data: { ...ids, count, reason: command.reason, failedAt: at },
      };
      if (count < HPP_MAX_FAILED_ATTEMPTS) return [failed];
      return [failed, { type: 'HppSessionLocked', data: { ...ids, failedAttempts: count, lockedAt: at } }];
    }
    case 'LinkHppSessionContract':
      if (!session.recurringPlan)
        throw new HppSessionCommandInvalid('only a session with a recurring_plan has a contract');
      if (session.contractId === command.contractId) return [];
      if (session.contractId)
        throw new HppSessionCommandInvalid(`the session's plan is contract ${session.contractId}`);
      return [
        { type: 'HppSessionContractLinked', data: { ...ids, contractId: command.contractId, linkedAt: at } },
      ];
    case 'CompleteHppSession':
      return [complete(command, session, ids, at)];
  }
}

function complete(
  c: CompleteHppSession,
  session: HppSession,
  ids: { sessionId: string; merchantId: string; partnerId: string },
  at: string,
): HppSessionEvent {
  const bad = (message: string): never => {
    throw new HppSessionCommandInvalid(message);
  };
  if (session.paymentMethod === 'card' && (c.card === null || c.bank !== null))
    bad('a card session completes with a card');
  if (session.paymentMethod === 'ach' && (c.bank === null || c.card !== null))
    bad('an ACH session completes with a bank');
  const payment = session.pagePurpose === 'payment';
  if (payment !== (c.transactionId !== null)) bad('a transaction is required exactly on a payment page');

  const outcome = c.tokenizationOutcome;
  if (!session.savesPaymentMethod && outcome !== 'not_requested') bad('this session saves nothing');
  if (session.savesPaymentMethod && outcome === 'not_requested') bad('this session saves a payment method');
  if (outcome === 'failed' && !payment)
    bad('a save_payment_method page completes only once the method is stored');
  const stored = outcome === 'stored';
  if (stored !== (c.vaultToken !== null && c.storedCredentialId !== null)) {
    bad('a vault token and stored credential are given exactly when the outcome is stored');
  }
  if (!stored && (c.vaultToken !== null || c.storedCredentialId !== null)) bad('nothing was stored');
  const failureReason = c.tokenCaptureFailureReason ?? null;
  if ((outcome === 'failed') !== (failureReason !== null))
    bad('a failure reason is given exactly when tokenization failed');

  const customerEntered = payment && session.amountMode === 'customer_entered';
  const entered = c.enteredPrice ?? null;
  if (customerEntered !== (entered !== null))
    bad('an entered price is given exactly on a customer_entered page');
  const enteredPrice = entered && priceData(entered, entered.baseMinor, 'entered price');
  if (enteredPrice && entered!.baseMinor <= 0n) bad('the entered amount must be greater than zero');

  return {
    type: 'HppSessionCompleted',
    data: {
      ...ids,
      vaultToken: c.vaultToken,
      storedCredentialId: c.storedCredentialId,
      transactionId: c.transactionId,
      card: c.card && { ...c.card },
      bank: c.bank && { ...c.bank },
      tokenizationOutcome: outcome,
      tokenCaptureFailure: failureReason === null ? null : { at, reason: failureReason },
      enteredPrice,
      completedAt: at,
    },
  };
}
