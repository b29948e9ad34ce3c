import { createHash } from 'node:crypto';
import type { Clock } from '../../../platform/src/clock/clock';
import { CURRENCY_EXPONENTS } from '../../../platform/src/money/amount';
import { subtractMinor, sumMinor } from '../../../platform/src/money/money';
// The ABA checksum lives with the merchants' bank rules; imported, never copied. (merchants has
// no lib-level index.ts yet, so this is a direct import of the pure module.)
import { isAbaRoutingNumber } from '../../../platform/src/banking/aba';
import { cardExpired, cardNumberProblem, type CardFunding } from '../card';
import {
  ProcessSandboxMemory,
  sandboxTransactionId,
  type Decision,
  type SandboxCall,
  type SandboxMemory,
  type SandboxTransaction,
} from './sandbox-memory';
import { sandboxCardFunding } from './test-cards';
import {
  GatewayReferenceReused,
  PaymentGateway,
  type AchDebitRequest,
  type AchDebitResult,
  type AuthorizeAndCaptureRequest,
  type ChargeFees,
  type ChargeResult,
  type DeclineCode,
  type GatewayLookup,
  type GatewayOperation,
  type RefundRequest,
  type RefundResult,
  type VoidRequest,
  type VoidResult,
} from '../gateway';

/**
 * Sandbox address verification (an extension of CONTRACT §5, documented in docs/gateway.md): the
 * billing postal code picks the issuer's AVS answer, so partners can try their AVS policy.
 */
export const SANDBOX_AVS_TRIGGERS: Readonly<Record<string, string>> = {
  /** No match. */
  '00000': 'N',
  /** ZIP matches, street address does not (a partial match). */
  '11111': 'Z',
};

/** `U` (unavailable) without a postal code, the trigger's answer, else `Y` (match). */
export function sandboxAvs(postalCode: string | null): string {
  if (!postalCode) return 'U';
  return SANDBOX_AVS_TRIGGERS[postalCode.trim()] ?? 'Y';
}

/** CONTRACT §5: a valid ACH routing number with any account number. */
export const SANDBOX_ROUTING_NUMBER = '011000015';

/**
 * CONTRACT §5: the cents of the amount pick the outcome of a card SALE and of an ACH debit: the
 * amount the partner sent, before any surcharge or convenience fee (the request's `fees`), so a
 * merchant's fee settings never turn a test amount into another outcome.
 * `.91` answers UNKNOWN on the first attempt of a reference; the gateway has in fact approved it,
 * so any later attempt or lookup of the same reference answers approved (SUBMITTED for ACH).
 * ACH uses the same table and the same decline codes (the contract's table names no rail).
 */
export const SANDBOX_CENTS_TRIGGERS: Readonly<Record<string, DeclineCode | 'unknown_then_approved'>> = {
  '05': 'insufficient_funds',
  '51': 'card_declined',
  '54': 'expired_card',
  '91': 'unknown_then_approved',
};

export interface SandboxGatewayOptions {
  /** Start with every call answering UNKNOWN (see {@link SandboxGateway.setUnknownOutcomeMode}). */
  unknownOutcomeMode?: boolean;
  /** Where references and transactions are kept; default: this process's memory. */
  memory?: SandboxMemory;
}

/** What the sandbox has done, for tests: each counts effects, never answers. */
export interface SandboxEffects {
  captures: number;
  achDebits: number;
  refunds: number;
  voids: number;
}

type Results = {
  authorizeAndCapture: ChargeResult;
  refund: RefundResult;
  void: VoidResult;
  achDebit: AchDebitResult;
};

const UNKNOWN = { outcome: 'UNKNOWN' } as const;

/**
 * The sandbox adapter of {@link PaymentGateway}, CONTRACT §5 exactly:
 *
 * - Cards: the test cards (any future expiry, any CVC) and, likewise, any other card whose number
 *   passes card.ts `cardNumberProblem` (known network, length, Luhn): the sandbox has no issuer,
 *   so the card number never changes the outcome. The cents of the amount do
 *   ({@link SANDBOX_CENTS_TRIGGERS}; `.00` and any cents not listed approve).
 * - Defensive refusals, checked before the cents (validation belongs before the gateway; these
 *   only stop a bad request from being "approved"): a card number the platform should have
 *   refused → DECLINED `invalid_card_number`; a malformed expiry → `invalid_expiry_date`; an
 *   expiry month that ended before the clock's now → `expired_card`; a zero or negative amount →
 *   `invalid_amount`; a currency platform/money does not know → `currency_not_supported`.
 * - ACH: the routing number must pass the ABA checksum (else `invalid_routing_number`);
 *   `011000015` with any account number of 1 to 17 digits is valid (else `invalid_account_number`).
 * - Refund and void act on the sandbox's own record of a capture or ACH debit
 *   (`transaction_not_found`, `transaction_not_refundable`, `transaction_not_voidable`,
 *   `amount_exceeds_refundable`); the cents triggers do not apply to them.
 * - Idempotent by reference: each reference's outcome is kept ({@link SandboxMemory}), so a repeat
 *   answers the same and has no second effect. The service keeps them in PostgreSQL, shared by
 *   every process like a real gateway's records ({@link PostgresSandboxMemory}); alone, the
 *   gateway keeps them in this process's memory.
 * - Unknown-outcome mode: while on, every call is carried out and recorded as usual but answers
 *   UNKNOWN (as when the response is lost on the way back), and `lookup` answers UNKNOWN. Once it
 *   is off, a retry or lookup of the reference answers what the gateway did.
 *
 * Nothing is logged; the sandbox keeps no PAN, CVC or account number (only hashes in fingerprints).
 */
export class SandboxGateway extends PaymentGateway {
  private readonly memory: SandboxMemory;
  private readonly counts: SandboxEffects = { captures: 0, achDebits: 0, refunds: 0, voids: 0 };
  private unknownOutcomeMode: boolean;

  constructor(
    /** Decides card expiry (the sandbox's operator-advanced clock in the sandbox environment). */
    private readonly clock: Clock,
    options: SandboxGatewayOptions = {},
  ) {
    super();
    this.unknownOutcomeMode = options.unknownOutcomeMode ?? false;
    this.memory = options.memory ?? new ProcessSandboxMemory();
  }

  /** While on, every call answers UNKNOWN (the pending path); effects still happen. */
  setUnknownOutcomeMode(on: boolean): void {
    this.unknownOutcomeMode = on;
  }

  /** What this process's calls did (calls another process made count there). */
  effects(): SandboxEffects {
    return { ...this.counts };
  }

  transaction(gatewayTransactionId: string): Promise<SandboxTransaction | undefined> {
    return this.memory.transaction(gatewayTransactionId);
  }

  async authorizeAndCapture(request: AuthorizeAndCaptureRequest): Promise<ChargeResult> {
    const { reference, merchantGatewayId, amountMinor, fees, currency, card } = request;
    const fingerprint = hash(
      JSON.stringify([
        merchantGatewayId,
        amountMinor.toString(),
        currency,
        feesKey(fees),
        hash(card.pan),
        card.expMonth,
        card.expYear,
      ]),
    );
    return this.once({ operation: 'authorizeAndCapture', reference, fingerprint }, 'captures', () => {
      const refusal =
        amountRefusal(amountMinor) ??
        (CURRENCY_EXPONENTS[currency] === undefined ? 'currency_not_supported' : null) ??
        (cardNumberProblem(card.pan) !== null ? 'invalid_card_number' : null) ??
        this.expiryRefusal(card.expMonth, card.expYear);
      if (refusal) return { result: { outcome: 'DECLINED', declineCode: refusal } };
      const trigger = centsTrigger(baseOf(amountMinor, fees, currency));
      if (trigger !== 'approve' && trigger !== 'unknown_then_approved') {
        return { result: { outcome: 'DECLINED', declineCode: trigger } };
      }
      return {
        result: {
          outcome: 'APPROVED',
          authorizationCode: authorizationCode(reference),
          gatewayTransactionId: sandboxTransactionId(reference),
          avsResponseCode: sandboxAvs(card.postalCode ?? null),
          cvResponseCode: card.cvc ? 'M' : 'P',
        },
        answerUnknown: trigger === 'unknown_then_approved',
        creates: { kind: 'CAPTURE', amountMinor },
      };
    });
  }

  async achDebit(request: AchDebitRequest): Promise<AchDebitResult> {
    const { reference, routingNumber, accountNumber, accountType, amountMinor, fees, secCode } = request;
    const fingerprint = hash(
      JSON.stringify([
        routingNumber,
        hash(accountNumber),
        accountType,
        amountMinor.toString(),
        feesKey(fees),
        secCode,
      ]),
    );
    return this.once({ operation: 'achDebit', reference, fingerprint }, 'achDebits', () => {
      const refusal =
        amountRefusal(amountMinor) ??
        (isAbaRoutingNumber(routingNumber) ? null : 'invalid_routing_number') ??
        (/^[0-9]{1,17}$/.test(accountNumber) ? null : 'invalid_account_number');
      if (refusal) return { result: { outcome: 'DECLINED', declineCode: refusal } };
      const trigger = centsTrigger(baseOf(amountMinor, fees));
      if (trigger !== 'approve' && trigger !== 'unknown_then_approved') {
        return { result: { outcome: 'DECLINED', declineCode: trigger } };
      }
      return {
        result: { outcome: 'SUBMITTED', gatewayTransactionId: sandboxTransactionId(reference) },
        answerUnknown: trigger === 'unknown_then_approved',
        creates: { kind: 'ACH_DEBIT', amountMinor },
      };
    });
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const { reference, gatewayTransactionId, amountMinor } = request;
    const fingerprint = hash(JSON.stringify([gatewayTransactionId, amountMinor.toString()]));
    const call = { operation: 'refund' as const, reference, fingerprint, parentId: gatewayTransactionId };
    return this.once(call, 'refunds', (parent) => {
      if (!parent) return { result: { outcome: 'DECLINED', declineCode: 'transaction_not_found' } };
      const refusal =
        amountRefusal(amountMinor) ??
        (parent.kind === 'REFUND' || parent.voided ? 'transaction_not_refundable' : null) ??
        (amountMinor > parent.amountMinor - parent.refundedMinor ? 'amount_exceeds_refundable' : null);
      if (refusal) return { result: { outcome: 'DECLINED', declineCode: refusal } };
      return {
        result: { outcome: 'APPROVED', gatewayTransactionId: sandboxTransactionId(reference) },
        creates: { kind: 'REFUND', amountMinor },
        refunds: amountMinor,
      };
    });
  }

  async void(request: VoidRequest): Promise<VoidResult> {
    const { reference, gatewayTransactionId } = request;
    const call = {
      operation: 'void' as const,
      reference,
      fingerprint: hash(gatewayTransactionId),
      parentId: gatewayTransactionId,
    };
    return this.once(call, 'voids', (parent) => {
      if (!parent) return { result: { outcome: 'DECLINED', declineCode: 'transaction_not_found' } };
      if (parent.kind === 'REFUND' || parent.voided || parent.refundedMinor > 0n) {
        return { result: { outcome: 'DECLINED', declineCode: 'transaction_not_voidable' } };
      }
      return { result: { outcome: 'APPROVED' }, voids: true };
    });
  }

  /** The sandbox's BIN data: the test cards of CONTRACT §5 (sandbox/test-cards.ts). */
  cardFunding(pan: string): Promise<CardFunding> {
    return Promise.resolve(sandboxCardFunding(pan));
  }

  async lookup(reference: string): Promise<GatewayLookup> {
    if (this.unknownOutcomeMode) return { status: 'UNKNOWN' };
    const record = await this.memory.lookup(reference);
    if (!record) return { status: 'NOT_FOUND' };
    return { status: 'FOUND', operation: record.operation, result: { ...record.result } } as GatewayLookup;
  }

  /**
   * The idempotency core: the first call of a reference decides (with {@link SandboxMemory.once},
   * which keeps its outcome and effects together); every later call answers that outcome and does
   * nothing. An approval that did something counts in {@link effects}.
   */
  private async once<Op extends GatewayOperation>(
    call: SandboxCall & { operation: Op },
    effect: keyof SandboxEffects,
    decide: (parent: SandboxTransaction | undefined) => Decision & { result: Results[Op] },
  ): Promise<Results[Op]> {
    const { stored, fresh, answerUnknown } = await this.memory.once(call, decide);
    if (stored.operation !== call.operation || stored.fingerprint !== call.fingerprint) {
      throw new GatewayReferenceReused(call.reference, call.operation);
    }
    const result = stored.result as Results[Op];
    if (fresh && result.outcome !== 'DECLINED') this.counts[effect]++;
    return (this.unknownOutcomeMode || answerUnknown ? UNKNOWN : { ...result }) as Results[Op];
  }

  private expiryRefusal(expMonth: number, expYear: number): DeclineCode | null {
    const wellFormed =
      Number.isInteger(expMonth) &&
      expMonth >= 1 &&
      expMonth <= 12 &&
      Number.isInteger(expYear) &&
      expYear >= 1000 &&
      expYear <= 9999;
    if (!wellFormed) return 'invalid_expiry_date';
    return cardExpired(expMonth, expYear, this.clock.now()) ? 'expired_card' : null;
  }
}

function amountRefusal(amountMinor: bigint): DeclineCode | null {
  return amountMinor > 0n ? null : 'invalid_amount';
}

/** The amount before fees: what the partner asked for. */
function baseOf(amountMinor: bigint, fees: ChargeFees, currency = 'USD'): bigint {
  return subtractMinor(
    amountMinor,
    sumMinor([fees.surchargeMinor, fees.convenienceFeeMinor], currency),
    currency,
  );
}

function feesKey(fees: ChargeFees): string {
  return `${fees.surchargeMinor}+${fees.convenienceFeeMinor}`;
}

/** The last two digits of the minor units: the cents for USD, the only currency. */
function centsTrigger(amountMinor: bigint): DeclineCode | 'unknown_then_approved' | 'approve' {
  const cents = (amountMinor % 100n).toString().padStart(2, '0');
  return SANDBOX_CENTS_TRIGGERS[cents] ?? 'approve';
}

function authorizationCode(reference: string): string {
  return hash(`authorization:${reference}`).slice(0, 6).toUpperCase();
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
