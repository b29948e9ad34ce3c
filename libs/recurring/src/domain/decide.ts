import { InvalidStateTransition } from '../../../platform/src/problem';
import { dateOf, isCalendarDate, MAX_CONTRACT_INTERVAL } from './contract-calendar';
import {
  evolve,
  nothingLeft,
  regularDueDate,
  remainingRegular,
  type Contract,
  type ContractOrNone,
} from './contract';
import { ContractCommandInvalid, ContractInvalid, ContractNotFound } from './contract-errors';
import type {
  ContractActor,
  ContractEvent,
  ContractPaymentMethod,
  ContractRail,
  ContractTerms,
  HoldReason,
} from './contract-events';
import { transition, type ContractAction } from './contract-states';
import { isRetryableReturn, isSoftDecline, MAX_MAX_RETRIES, retryDate } from './dunning';

interface Base {
  contractId: string;
  at: Date;
}

/**
 * POST /contracts (origin `api`), or a hosted page's plan at its first submit (origin `hpp`). The
 * `paymentMethod` is required for `api`, null for `hpp` (the page's payment brings it at
 * activation); `activationDeadline` is `hpp`'s only (when an unpaid plan is given up).
 */
export interface CreateContract extends Base, ContractTerms {
  type: 'CreateContract';
  partnerId: string;
  merchantId: string;
  amountMinor: bigint;
}

/** The hosted page's first payment was approved. */
export interface ActivateContract extends Base {
  type: 'ActivateContract';
  paymentMethod: ContractPaymentMethod;
  initialTransactionId: string;
  initialAmountMinor: bigint;
}

/** PATCH: `nextChargeDate` / `endDate` left out mean unchanged; `endDate: null` removes it. */
export interface UpdateContract extends Base {
  type: 'UpdateContract';
  nextChargeDate?: string;
  endDate?: string | null;
  reason: string | null;
}

export interface PauseContract extends Base {
  type: 'PauseContract';
  reason: string | null;
}

export interface ResumeContract extends Base {
  type: 'ResumeContract';
  reason: string | null;
}

export interface CancelContract extends Base {
  type: 'CancelContract';
  reason: string | null;
}

/** The platform pauses charging: the merchant cannot transact, or a flag the charges need is off. */
export interface HoldContract extends Base {
  type: 'HoldContract';
  reasonCode: HoldReason;
  reason: string;
}

/** The platform lifts its own hold (the cause is gone). */
export interface ReleaseContract extends Base {
  type: 'ReleaseContract';
}

/** The scheduler gives up a hosted page's plan its payer never paid for. */
export interface ExpireContractActivation extends Base {
  type: 'ExpireContractActivation';
}

/** A charge of the installment due now starts (the scheduler, before it calls the command path). */
export interface StartInstallmentAttempt extends Base {
  type: 'StartInstallmentAttempt';
  installment: number;
  attempt: number;
  transactionId: string;
  idempotencyKey: string;
}

/** The charge will not reach the gateway (a hold applies, or the contract stopped before it began). */
export interface WithdrawInstallmentAttempt extends Base {
  type: 'WithdrawInstallmentAttempt';
  installment: number;
  attempt: number;
  reasonCode: string;
}

export type InstallmentResult =
  /** Approved (card CAPTURED, ACH SUBMITTED). */
  | { kind: 'approved' }
  /** Declined by the gateway: the transaction is FAILED with this code. */
  | { kind: 'declined'; declineCode: string }
  /** Refused before a transaction was recorded, for good (a revoked or expired credential). */
  | { kind: 'refused'; code: string };

export interface RecordInstallmentOutcome extends Base {
  type: 'RecordInstallmentOutcome';
  installment: number;
  attempt: number;
  transactionId: string | null;
  result: InstallmentResult;
}

/** An ACH installment's transaction was returned (NACHA R-code). */
export interface RecordInstallmentReturn extends Base {
  type: 'RecordInstallmentReturn';
  transactionId: string;
  returnCode: string;
}

export type ContractCommand =
  | CreateContract
  | ActivateContract
  | UpdateContract
  | PauseContract
  | ResumeContract
  | CancelContract
  | HoldContract
  | ReleaseContract
  | ExpireContractActivation
  | StartInstallmentAttempt
  | WithdrawInstallmentAttempt
  | RecordInstallmentOutcome
  | RecordInstallmentReturn;

export type ContractCommandType = ContractCommand['type'];

/** The table row each command (but create) moves by. */
export const COMMAND_ACTIONS: Readonly<
  Record<Exclude<ContractCommandType, 'CreateContract'>, ContractAction>
> = {
  ActivateContract: 'activate',
  UpdateContract: 'update',
  PauseContract: 'pause',
  ResumeContract: 'resume',
  CancelContract: 'cancel',
  HoldContract: 'hold',
  ReleaseContract: 'release',
  ExpireContractActivation: 'expire_activation',
  StartInstallmentAttempt: 'attempt',
  WithdrawInstallmentAttempt: 'record_outcome',
  RecordInstallmentOutcome: 'record_outcome',
  RecordInstallmentReturn: 'record_return',
};

/** The installment a charge may start on now (`today`), or null: nothing is due, or one is in flight. */
export interface DueInstallment {
  installment: number;
  attempt: number;
  amountMinor: string;
  dueDate: string;
}

/**
 * What is due on `today`: pending retries first, the lowest installment first (a returned or
 * declined installment is collected before any later one); then the next regular installment,
 * when one is left and its date has come. Nothing while a charge is in flight or the contract is
 * not ACTIVE, so missed periods are charged one after another, in order, never side by side.
 */
export function dueInstallment(c: Contract, today: string): DueInstallment | null {
  if (c.state !== 'ACTIVE' || c.inFlight) return null;
  if (c.retries.length > 0) {
    const retry = c.retries.find((r) => r.dueDate <= today);
    return retry ? { ...retry } : null;
  }
  if (remainingRegular(c) === 0) return null;
  const dueDate = regularDueDate(c);
  if (dueDate > today) return null;
  return { installment: c.nextInstallment, attempt: 0, amountMinor: c.amountMinor, dueDate };
}

/** The platform's reserved key of one charge: `recurring:{contract}:{installment}` (`:retry-{n}` for retry n). */
export function installmentKey(contractId: string, installment: number, attempt: number): string {
  const base = `recurring:${contractId}:${installment}`;
  return attempt === 0 ? base : `${base}:retry-${attempt}`;
}

function assertCreatable(c: CreateContract): void {
  const bad = (message: string): never => {
    throw new ContractCommandInvalid(message);
  };
  if (c.amountMinor <= 0n) bad('amount must be greater than zero');
  if (!Number.isInteger(c.interval) || c.interval < 1 || c.interval > MAX_CONTRACT_INTERVAL)
    bad('bad interval');
  if (c.numberOfPayments !== null && (!Number.isInteger(c.numberOfPayments) || c.numberOfPayments < 1))
    bad('bad number of payments');
  if (!Number.isInteger(c.maxRetries) || c.maxRetries < 0 || c.maxRetries > MAX_MAX_RETRIES)
    bad('bad max_retries');
  if (!isCalendarDate(c.startDate) || (c.endDate !== null && !isCalendarDate(c.endDate))) bad('bad dates');
  if (c.endDate !== null && c.endDate < c.startDate) bad('end_date before start_date');
  if (c.origin === 'api' && (c.paymentMethod === null || c.activationDeadline !== null))
    bad('a contract created on a token starts with it');
  if (c.origin === 'hpp' && (c.paymentMethod !== null || c.activationDeadline === null || !c.hppSessionId))
    bad("a hosted page's plan waits for its first payment, until a deadline");
  if (c.paymentMethod) assertRail(c.paymentMethodType, c.paymentMethod);
}

function assertRail(rail: ContractRail, method: ContractPaymentMethod): void {
  if ((rail === 'CARD') !== (method.card !== null) || (rail === 'ACH') !== (method.bank !== null)) {
    throw new ContractCommandInvalid(
      `a ${rail} contract needs a ${rail === 'CARD' ? 'card' : 'bank account'}`,
    );
  }
}

/** The events, plus ContractCompleted when they leave an ACTIVE contract nothing to charge. */
function andCompleteIfDone(contract: Contract, events: ContractEvent[], at: string): ContractEvent[] {
  const after = events.reduce<ContractOrNone>(evolve, contract);
  if (!after || after.state !== 'ACTIVE' || !nothingLeft(after)) return events;
  return [...events, { type: 'ContractCompleted', data: { ...idsOf(contract), completedAt: at } }];
}

const idsOf = (c: Contract) => ({ contractId: c.id, partnerId: c.partnerId, merchantId: c.merchantId });

/** The contract's decisions. Pure: time and ids arrive with the command. */
export function decide(command: ContractCommand, contract: ContractOrNone): ContractEvent[] {
  const at = command.at.toISOString();
  const today = dateOf(command.at);

  if (command.type === 'CreateContract') {
    if (contract) throw new InvalidStateTransition('contract', contract.state, 'create');
    assertCreatable(command);
    return [
      {
        type: 'ContractCreated',
        data: {
          contractId: command.contractId,
          partnerId: command.partnerId,
          merchantId: command.merchantId,
          origin: command.origin,
          hppSessionId: command.hppSessionId,
          customerId: command.customerId,
          paymentMethodType: command.paymentMethodType,
          paymentMethod: command.paymentMethod,
          useType: command.useType,
          amountMinor: command.amountMinor.toString(),
          currency: command.currency,
          frequency: command.frequency,
          interval: command.interval,
          startDate: command.startDate,
          endDate: command.endDate,
          numberOfPayments: command.numberOfPayments,
          maxRetries: command.maxRetries,
          customFields: command.customFields.map((f) => ({ ...f })),
          level2Data: command.level2Data,
          level3Data: command.level3Data,
          activationDeadline: command.activationDeadline,
          createdAt: at,
        },
      },
    ];
  }

  if (!contract) throw new ContractNotFound(command.contractId);
  // An outcome recorded already (a re-run of the same charge) adds nothing, whatever the state now.
  if (
    (command.type === 'RecordInstallmentOutcome' || command.type === 'WithdrawInstallmentAttempt') &&
    (contract.inFlight?.installment !== command.installment || contract.inFlight.attempt !== command.attempt)
  ) {
    return [];
  }
  transition(contract.state, COMMAND_ACTIONS[command.type]);
  const ids = idsOf(contract);
  const partner: ContractActor = 'partner';

  switch (command.type) {
    case 'ActivateContract':
      assertRail(contract.paymentMethodType, command.paymentMethod);
      return [
        {
          type: 'ContractActivated',
          data: {
            ...ids,
            paymentMethod: command.paymentMethod,
            initialTransactionId: command.initialTransactionId,
            initialAmountMinor: command.initialAmountMinor.toString(),
            startDate: today,
            activatedAt: at,
          },
        },
      ];
    case 'UpdateContract':
      return decideUpdate(command, contract, at);
    case 'PauseContract':
      return [
        {
          type: 'ContractPaused',
          data: { ...ids, by: partner, reasonCode: null, reason: command.reason, pausedAt: at },
        },
      ];
    case 'ResumeContract':
      return andCompleteIfDone(
        contract,
        [{ type: 'ContractResumed', data: { ...ids, by: partner, reason: command.reason, resumedAt: at } }],
        at,
      );
    case 'CancelContract':
      return [
        {
          type: 'ContractCancelled',
          data: { ...ids, by: partner, reasonCode: null, reason: command.reason, cancelledAt: at },
        },
      ];
    case 'HoldContract':
      return [
        {
          type: 'ContractPaused',
          data: {
            ...ids,
            by: 'system',
            reasonCode: command.reasonCode,
            reason: command.reason,
            pausedAt: at,
          },
        },
      ];
    case 'ReleaseContract':
      if (contract.pause?.by !== 'system') {
        throw new ContractCommandInvalid('only a pause the platform made is released by the platform');
      }
      return andCompleteIfDone(
        contract,
        [{ type: 'ContractResumed', data: { ...ids, by: 'system', reason: null, resumedAt: at } }],
        at,
      );
    case 'ExpireContractActivation':
      if (contract.activationDeadline === null || contract.activationDeadline > at) {
        throw new ContractCommandInvalid(
          `the plan waits for its first payment until ${contract.activationDeadline}`,
        );
      }
      return [
        {
          type: 'ContractCancelled',
          data: {
            ...ids,
            by: 'system',
            reasonCode: 'activation_expired',
            reason: 'the hosted page that was to make the first payment was never paid',
            cancelledAt: at,
          },
        },
      ];
    case 'StartInstallmentAttempt': {
      const running = contract.inFlight;
      if (running) {
        if (running.installment === command.installment && running.attempt === command.attempt) return [];
        throw new ContractCommandInvalid(`installment ${running.installment} is being charged`);
      }
      const due = dueInstallment(contract, today);
      if (!due || due.installment !== command.installment || due.attempt !== command.attempt) {
        throw new ContractCommandInvalid(
          `installment ${command.installment} (attempt ${command.attempt}) is not due on ${today}`,
        );
      }
      return [
        {
          type: 'ContractInstallmentAttempted',
          data: {
            ...ids,
            installment: due.installment,
            attempt: due.attempt,
            transactionId: command.transactionId,
            idempotencyKey: command.idempotencyKey,
            amountMinor: due.amountMinor,
            dueDate: due.dueDate,
            attemptedAt: at,
          },
        },
      ];
    }
    case 'WithdrawInstallmentAttempt': {
      const running = contract.inFlight!;
      return [
        {
          type: 'ContractInstallmentAttemptWithdrawn',
          data: {
            ...ids,
            installment: running.installment,
            attempt: running.attempt,
            reasonCode: command.reasonCode,
            withdrawnAt: at,
          },
        },
      ];
    }
    case 'RecordInstallmentOutcome':
      return decideOutcome(command, contract, at, today);
    case 'RecordInstallmentReturn':
      return decideReturn(command, contract, at, today);
  }
}

function decideUpdate(command: UpdateContract, contract: Contract, at: string): ContractEvent[] {
  const errors: { field: string; message: string }[] = [];
  const endDate = command.endDate === undefined ? contract.endDate : command.endDate;
  if (command.endDate != null && command.endDate < contract.startDate) {
    errors.push({ field: 'end_date', message: `must not be before start_date (${contract.startDate})` });
  }
  if (command.nextChargeDate !== undefined) {
    if (command.nextChargeDate < contract.startDate) {
      errors.push({
        field: 'next_charge_date',
        message: `must not be before start_date (${contract.startDate})`,
      });
    } else if (endDate !== null && command.nextChargeDate > endDate) {
      errors.push({ field: 'next_charge_date', message: `must not be after end_date (${endDate})` });
    }
  }
  if (errors.length > 0) throw new ContractInvalid(errors);
  const changes: { nextChargeDate?: string; endDate?: string | null } = {};
  if (command.endDate !== undefined && command.endDate !== contract.endDate)
    changes.endDate = command.endDate;
  if (command.nextChargeDate !== undefined) changes.nextChargeDate = command.nextChargeDate;
  if (Object.keys(changes).length === 0) return [];
  return andCompleteIfDone(
    contract,
    [
      {
        type: 'ContractUpdated',
        data: { ...idsOf(contract), ...changes, reason: command.reason, updatedAt: at },
      },
    ],
    at,
  );
}

function decideOutcome(
  command: RecordInstallmentOutcome,
  contract: Contract,
  at: string,
  today: string,
): ContractEvent[] {
  const running = contract.inFlight!;
  const ids = idsOf(contract);
  const { installment, attempt } = running;
  if (command.result.kind === 'approved') {
    if (!command.transactionId) throw new ContractCommandInvalid('an approved charge has a transaction');
    return andCompleteIfDone(
      contract,
      [
        {
          type: 'ContractInstallmentCharged',
          data: {
            ...ids,
            installment,
            attempt,
            transactionId: command.transactionId,
            amountMinor: running.amountMinor,
            rail: contract.paymentMethodType,
            chargedAt: at,
          },
        },
      ],
      at,
    );
  }
  const code = command.result.kind === 'declined' ? command.result.declineCode : command.result.code;
  const soft = command.result.kind === 'declined' && isSoftDecline(code);
  const failed: ContractEvent = {
    type: 'ContractInstallmentFailed',
    data: {
      ...ids,
      installment,
      attempt,
      transactionId: command.transactionId,
      declineCode: code,
      soft,
      failedAt: at,
    },
  };
  // A cancelled contract records what happened to its last charge and nothing more.
  if (contract.state === 'CANCELLED') return [failed];
  return [
    failed,
    afterFailure(contract, { installment, attempt, amountMinor: running.amountMinor }, soft, code, at, today),
  ];
}

/** A failed (or returned) installment: the next retry, or the end of the contract. */
function afterFailure(
  contract: Contract,
  failed: { installment: number; attempt: number; amountMinor: string },
  retryable: boolean,
  code: string,
  at: string,
  today: string,
): ContractEvent {
  const ids = idsOf(contract);
  if (retryable && failed.attempt < contract.maxRetries) {
    const attempt = failed.attempt + 1;
    return {
      type: 'ContractRetryScheduled',
      data: {
        ...ids,
        installment: failed.installment,
        attempt,
        amountMinor: failed.amountMinor,
        retryDate: retryDate(today, attempt),
        scheduledAt: at,
      },
    };
  }
  const exhausted = retryable;
  return {
    type: 'ContractFailed',
    data: {
      ...ids,
      reasonCode: exhausted ? 'retries_exhausted' : code,
      reason: exhausted
        ? `installment ${failed.installment} failed (${code}) after ${contract.maxRetries} retries`
        : `installment ${failed.installment} failed: ${code}`,
      failedAt: at,
    },
  };
}

function decideReturn(
  command: RecordInstallmentReturn,
  contract: Contract,
  at: string,
  today: string,
): ContractEvent[] {
  const paid = contract.returnable[command.transactionId];
  // Not an ACH installment of this contract, or its return is recorded already.
  if (!paid) return [];
  const returned: ContractEvent = {
    type: 'ContractInstallmentReturned',
    data: {
      ...idsOf(contract),
      installment: paid.installment,
      attempt: paid.attempt,
      transactionId: command.transactionId,
      amountMinor: paid.amountMinor,
      returnCode: command.returnCode,
      returnedAt: at,
    },
  };
  // An ended contract no longer bills: the return is recorded (the counters follow) and not retried.
  if (contract.state !== 'ACTIVE' && contract.state !== 'PAUSED') return [returned];
  return [
    returned,
    afterFailure(contract, paid, isRetryableReturn(command.returnCode), command.returnCode, at, today),
  ];
}
