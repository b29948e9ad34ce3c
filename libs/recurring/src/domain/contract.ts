import { subtractMinor, sumMinor } from '../../../platform/src/money/money';
import { firstPeriodOnOrAfter, periodDate, periodsThrough, type Cadence } from './contract-calendar';
import type {
  ContractActor,
  ContractCreated,
  ContractEvent,
  ContractTerms,
  HoldReason,
} from './contract-events';
import type { ContractState } from './contract-states';

/** An installment that failed (or came back) and is to be charged again on `dueDate`. */
export interface PendingRetry {
  installment: number;
  attempt: number;
  amountMinor: string;
  dueDate: string;
}

/** A charge started and not yet recorded: its outcome is resolved before anything else. */
export interface InFlightAttempt {
  installment: number;
  attempt: number;
  transactionId: string;
  idempotencyKey: string;
  amountMinor: string;
  dueDate: string;
  startedAt: string;
}

/** The contract as its events make it: plain JSON (the read model keeps it as a snapshot). */
export interface Contract extends ContractTerms {
  id: string;
  partnerId: string;
  merchantId: string;
  state: ContractState;
  amountMinor: string;
  /** Period `nextPeriod` of the schedule anchored on `anchorDate` is the next regular charge. */
  anchorDate: string;
  nextPeriod: number;
  /** The number (1-based) the next regular installment will have. */
  nextInstallment: number;
  /** Installments paid and not returned. */
  paidCount: number;
  amountPaidMinor: string;
  lastSuccessfulChargeDate: string | null;
  /** Installments that failed or came back and are to be charged again, by installment number. */
  retries: PendingRetry[];
  inFlight: InFlightAttempt | null;
  /** The last failed try (its installment and attempt number) until that installment is collected. */
  lastFailure: { installment: number; attempt: number } | null;
  /** ACH installments paid and not (yet) returned, by transaction id: a return names one of these. */
  returnable: Record<string, { installment: number; attempt: number; amountMinor: string }>;
  /** Why it is PAUSED (null while not). */
  pause: { by: ContractActor; reasonCode: HoldReason | null; reason: string | null; at: string } | null;
  /** Why it ended CANCELLED or FAILED. */
  ending: { by: ContractActor; reasonCode: string | null; reason: string | null; at: string } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type ContractOrNone = Contract | null;

export const initialState = (): ContractOrNone => null;

export const cadenceOf = (c: Pick<Contract, 'frequency' | 'interval'>): Cadence => ({
  frequency: c.frequency,
  interval: c.interval,
});

/** The date of the next regular installment (whether or not one is left). */
export function regularDueDate(c: Contract): string {
  return periodDate(c.anchorDate, cadenceOf(c), c.nextPeriod);
}

/**
 * Regular installments still to start: the fewer of what `number_of_payments` leaves and the
 * periods up to `end_date`; null when neither bounds it (open-ended).
 */
export function remainingRegular(c: Contract): number | null {
  const byCount =
    c.numberOfPayments === null ? null : Math.max(0, c.numberOfPayments - (c.nextInstallment - 1));
  const byDate =
    c.endDate === null ? null : periodsThrough(c.anchorDate, cadenceOf(c), c.nextPeriod, c.endDate);
  if (byCount === null) return byDate;
  if (byDate === null) return byCount;
  return Math.min(byCount, byDate);
}

const ENDED: readonly ContractState[] = ['COMPLETED', 'CANCELLED', 'FAILED'];

/** The amounts of the installments started and not settled: pending retries and the one in flight. */
function pendingAmounts(c: Contract): string[] {
  return [...c.retries.map((r) => r.amountMinor), ...(c.inFlight ? [c.inFlight.amountMinor] : [])];
}

/**
 * Installments still to collect: the regular ones left, the pending retries and one in flight; 0
 * once the contract has ended; null when open-ended.
 */
export function remainingInstallments(c: Contract): number | null {
  if (ENDED.includes(c.state)) return 0;
  const regular = remainingRegular(c);
  if (regular === null) return null;
  return regular + pendingAmounts(c).length;
}

/** What the contract will have collected when it runs to its end as scheduled now; null when open-ended. */
export function totalAmountMinor(c: Contract): bigint | null {
  if (ENDED.includes(c.state)) return BigInt(c.amountPaidMinor);
  const regular = remainingRegular(c);
  if (regular === null) return null;
  return sumMinor(
    [BigInt(c.amountPaidMinor), ...pendingAmounts(c).map(BigInt), BigInt(c.amountMinor) * BigInt(regular)],
    c.currency,
  );
}

/**
 * Retries used so far by the installments still being collected: scheduled, in flight, or tried
 * and failed (so a contract FAILED for exhausted retries shows them all); 0 when none failed.
 */
export function retryCountOf(c: Contract): number {
  return Math.max(
    0,
    ...c.retries.map((r) => r.attempt),
    c.inFlight?.attempt ?? 0,
    c.lastFailure?.attempt ?? 0,
  );
}

/** The date the next charge falls due; null when none is scheduled (or the contract has ended). */
export function nextChargeDate(c: Contract): string | null {
  if (c.state !== 'ACTIVE' && c.state !== 'PAUSED') return null;
  if (c.inFlight) return c.inFlight.dueDate;
  if (c.retries.length > 0) return c.retries.map((r) => r.dueDate).sort()[0];
  return remainingRegular(c) === 0 ? null : regularDueDate(c);
}

/** Nothing left to charge: no regular installment, no retry, nothing in flight. */
export function nothingLeft(c: Contract): boolean {
  return c.inFlight === null && c.retries.length === 0 && remainingRegular(c) === 0;
}

/** The pending retries with `retry` put in (replacing one of the same installment), by installment. */
function withRetry(retries: readonly PendingRetry[], retry: PendingRetry): PendingRetry[] {
  return [...retries.filter((r) => r.installment !== retry.installment), retry].sort(
    (a, b) => a.installment - b.installment,
  );
}

function created(d: ContractCreated['data']): Contract {
  return {
    id: d.contractId,
    partnerId: d.partnerId,
    merchantId: d.merchantId,
    customerId: d.customerId,
    origin: d.origin,
    hppSessionId: d.hppSessionId,
    state: d.origin === 'hpp' ? 'PENDING_ACTIVATION' : 'ACTIVE',
    paymentMethodType: d.paymentMethodType,
    paymentMethod: d.paymentMethod,
    useType: d.useType,
    amountMinor: d.amountMinor,
    currency: d.currency,
    frequency: d.frequency,
    interval: d.interval,
    startDate: d.startDate,
    endDate: d.endDate,
    numberOfPayments: d.numberOfPayments,
    maxRetries: d.maxRetries,
    customFields: d.customFields.map((f) => ({ ...f })),
    level2Data: d.level2Data,
    level3Data: d.level3Data,
    activationDeadline: d.activationDeadline,
    anchorDate: d.startDate,
    nextPeriod: 0,
    nextInstallment: 1,
    paidCount: 0,
    amountPaidMinor: '0',
    lastSuccessfulChargeDate: null,
    retries: [],
    inFlight: null,
    lastFailure: null,
    returnable: {},
    pause: null,
    ending: null,
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    version: 1,
  };
}

const add = (c: Contract, minor: string) =>
  sumMinor([BigInt(c.amountPaidMinor), BigInt(minor)], c.currency).toString();
const subtract = (c: Contract, minor: string) =>
  subtractMinor(BigInt(c.amountPaidMinor), BigInt(minor), c.currency).toString();

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(contract: ContractOrNone, event: ContractEvent): ContractOrNone {
  if (event.type === 'ContractCreated') return created(event.data);
  if (!contract) return contract;
  const c: Contract = { ...contract, version: contract.version + 1 };
  switch (event.type) {
    case 'ContractActivated': {
      const d = event.data;
      const ach = contract.paymentMethodType === 'ACH';
      return {
        ...c,
        state: 'ACTIVE',
        paymentMethod: d.paymentMethod,
        startDate: d.startDate,
        anchorDate: d.startDate,
        // Period 0 (installment 1) was the page's payment; the schedule goes on from period 1.
        nextPeriod: 1,
        nextInstallment: 2,
        paidCount: 1,
        amountPaidMinor: add(c, d.initialAmountMinor),
        lastSuccessfulChargeDate: d.activatedAt.slice(0, 10),
        returnable: ach
          ? { [d.initialTransactionId]: { installment: 1, attempt: 0, amountMinor: d.initialAmountMinor } }
          : {},
        updatedAt: d.activatedAt,
      };
    }
    case 'ContractUpdated': {
      const d = event.data;
      let next: Contract = { ...c, updatedAt: d.updatedAt };
      if (d.endDate !== undefined) next = { ...next, endDate: d.endDate };
      const moved = d.nextChargeDate;
      if (moved !== undefined) {
        // Pending retries are what is charged next: they move; otherwise the schedule re-anchors.
        next =
          next.retries.length > 0
            ? { ...next, retries: next.retries.map((r) => ({ ...r, dueDate: moved })) }
            : { ...next, anchorDate: moved, nextPeriod: 0 };
      }
      return next;
    }
    case 'ContractPaused': {
      const d = event.data;
      return {
        ...c,
        state: 'PAUSED',
        pause: { by: d.by, reasonCode: d.reasonCode, reason: d.reason, at: d.pausedAt },
        updatedAt: d.pausedAt,
      };
    }
    case 'ContractResumed': {
      const d = event.data;
      // Periods that fell due while paused are skipped: billing goes on from the resume date.
      const today = d.resumedAt.slice(0, 10);
      const first = firstPeriodOnOrAfter(c.anchorDate, cadenceOf(c), today);
      return {
        ...c,
        state: 'ACTIVE',
        pause: null,
        nextPeriod: Math.max(c.nextPeriod, first),
        updatedAt: d.resumedAt,
      };
    }
    case 'ContractCancelled': {
      const d = event.data;
      return {
        ...c,
        state: 'CANCELLED',
        retries: [],
        ending: { by: d.by, reasonCode: d.reasonCode, reason: d.reason, at: d.cancelledAt },
        updatedAt: d.cancelledAt,
      };
    }
    case 'ContractInstallmentAttempted': {
      const d = event.data;
      const regular = !c.retries.some((r) => r.installment === d.installment);
      return {
        ...c,
        inFlight: {
          installment: d.installment,
          attempt: d.attempt,
          transactionId: d.transactionId,
          idempotencyKey: d.idempotencyKey,
          amountMinor: d.amountMinor,
          dueDate: d.dueDate,
          startedAt: d.attemptedAt,
        },
        retries: c.retries.filter((r) => r.installment !== d.installment),
        nextInstallment: regular ? c.nextInstallment + 1 : c.nextInstallment,
        nextPeriod: regular ? c.nextPeriod + 1 : c.nextPeriod,
        updatedAt: d.attemptedAt,
      };
    }
    case 'ContractInstallmentAttemptWithdrawn': {
      const d = event.data;
      const attempt = c.inFlight;
      // An ended contract keeps nothing to charge.
      if (!attempt || ENDED.includes(c.state)) return { ...c, inFlight: null, updatedAt: d.withdrawnAt };
      // Nothing was charged: the installment waits, due as it was, under the same attempt.
      return {
        ...c,
        inFlight: null,
        retries: withRetry(c.retries, {
          installment: attempt.installment,
          attempt: attempt.attempt,
          amountMinor: attempt.amountMinor,
          dueDate: attempt.dueDate,
        }),
        updatedAt: d.withdrawnAt,
      };
    }
    case 'ContractInstallmentCharged': {
      const d = event.data;
      return {
        ...c,
        inFlight: null,
        lastFailure: c.lastFailure?.installment === d.installment ? null : c.lastFailure,
        paidCount: c.paidCount + 1,
        amountPaidMinor: add(c, d.amountMinor),
        lastSuccessfulChargeDate: d.chargedAt.slice(0, 10),
        returnable:
          d.rail === 'ACH'
            ? {
                ...c.returnable,
                [d.transactionId]: {
                  installment: d.installment,
                  attempt: d.attempt,
                  amountMinor: d.amountMinor,
                },
              }
            : c.returnable,
        updatedAt: d.chargedAt,
      };
    }
    case 'ContractInstallmentFailed': {
      const d = event.data;
      return {
        ...c,
        inFlight: null,
        lastFailure: { installment: d.installment, attempt: d.attempt },
        updatedAt: d.failedAt,
      };
    }
    case 'ContractRetryScheduled': {
      const d = event.data;
      return {
        ...c,
        retries: withRetry(c.retries, {
          installment: d.installment,
          attempt: d.attempt,
          amountMinor: d.amountMinor,
          dueDate: d.retryDate,
        }),
        updatedAt: d.scheduledAt,
      };
    }
    case 'ContractInstallmentReturned': {
      const d = event.data;
      const returnable = { ...c.returnable };
      delete returnable[d.transactionId];
      return {
        ...c,
        paidCount: c.paidCount - 1,
        amountPaidMinor: subtract(c, d.amountMinor),
        returnable,
        updatedAt: d.returnedAt,
      };
    }
    case 'ContractCompleted':
      return { ...c, state: 'COMPLETED', retries: [], updatedAt: event.data.completedAt };
    case 'ContractFailed': {
      const d = event.data;
      return {
        ...c,
        state: 'FAILED',
        retries: [],
        ending: { by: 'system', reasonCode: d.reasonCode, reason: d.reason, at: d.failedAt },
        updatedAt: d.failedAt,
      };
    }
  }
}

export const contractEvolver = { initialState, evolve };
