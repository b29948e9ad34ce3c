import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { EventMetadata } from '../../../event-store/src';
import { MerchantReader } from '../../../merchants/src';
import { enabledFeatures, PartnerReader } from '../../../partners/src';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import {
  fingerprintOf,
  IdempotencyStore,
  type BeginOutcome,
} from '../../../platform/src/idempotency/idempotency-store';
import { IdempotencyRecordTaken, RequestRecord } from '../../../platform/src/idempotency/request-record';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { ConcurrencyConflict, DomainError, InvalidStateTransition } from '../../../platform/src/problem';
import {
  assertMerchantTransactable,
  Charges,
  GatewayOutcomeUnknown,
  MerchantNotTransactable,
  TransactionReader,
  type RequestedPayment,
  type Transaction,
} from '../../../transactions/src';
import {
  ContractCommandInvalid,
  dateOf,
  dueInstallment,
  holdFor,
  installmentKey,
  type Contract,
  type Hold,
  type InFlightAttempt,
  type InstallmentResult,
} from '../domain';
import { RunContractCommand, type ContractCommandInput, type ContractResult } from './contract-commands';
import { ContractReader } from './contract-reader';

/** A contract and the revision of its stream it was read (or written) at. */
export interface Known {
  contract: Contract;
  revision: bigint;
}

interface Charged {
  /**
   * 'recorded': approved, declined or refused for good, or withdrawn under a hold; 'pending': the
   * gateway's answer is still unknown (the next pass asks again); 'busy': another process holds the
   * key right now.
   */
  status: 'recorded' | 'pending' | 'busy';
  /** The contract after the outcome, when this write knows it. */
  next: Known | null;
}

/** The `actor` of every event the scheduler writes. */
export const RECURRING_ACTOR = 'system:recurring';

/** A contract is brought up to date in at most this many steps per pass (a clock jump of years of days). */
const MAX_STEPS = 1_000;

/** What one pass did, by kind (the scheduler sums them). */
export interface BillingTally {
  charged: number;
  declined: number;
  pending: number;
  held: number;
  released: number;
  cancelled: number;
  returns: number;
}

export const emptyTally = (): BillingTally => ({
  charged: 0,
  declined: 0,
  pending: 0,
  held: 0,
  released: 0,
  cancelled: 0,
  returns: 0,
});

/**
 * What one pass of the scheduler reads once and shares between contracts: each merchant's
 * state and each partner's flags (a pass lasts seconds; a change during it is met by the charge's
 * own checks, which withdraw the attempt and hold the contract).
 */
export class PassFacts {
  private readonly merchants = new Map<string, Promise<{ state: string; transactable: boolean }>>();
  private readonly features = new Map<string, Promise<string[]>>();

  constructor(
    private readonly readMerchant: (id: string) => Promise<{ state: string; transactable: boolean }>,
    private readonly readFeatures: (partnerId: string) => Promise<string[]>,
  ) {}

  merchant(id: string) {
    let found = this.merchants.get(id);
    if (!found) this.merchants.set(id, (found = this.readMerchant(id)));
    return found;
  }

  enabledFeatures(partnerId: string) {
    let found = this.features.get(partnerId);
    if (!found) this.features.set(partnerId, (found = this.readFeatures(partnerId)));
    return found;
  }

  async holdOf(contract: Contract): Promise<Hold | null> {
    const [merchant, features] = await Promise.all([
      this.merchant(contract.merchantId),
      this.enabledFeatures(contract.partnerId),
    ]);
    return holdFor(contract, merchant, features);
  }
}

/** An approval makes these states (card CAPTURED, ACH SUBMITTED, and what they become later). */
const NOT_APPROVED = ['INITIATED', 'FAILED', 'THREE_DS_PENDING', 'THREE_DS_FAILED'];

/**
 * Bringing one contract up to date (docs/recurring.md "Charging"): resolve a charge left in
 * flight, give up an unpaid hosted plan past its deadline, apply or lift a hold, then charge each
 * installment that is due, one after another (a clock jump over several periods charges each once,
 * in order, never in parallel).
 *
 * One charge: `ContractInstallmentAttempted` on the contract (from here the installment is in
 * flight, whatever happens to the contract), then the platform's reserved key
 * `recurring:{contract}:{installment}` taken in the idempotency store, partner-scoped, with a
 * command id derived from the key (on the PostgreSQL store its record is inserted by the attempt's
 * own append), then {@link Charges.charge}, the command path of `POST /transactions` (same checks,
 * same transaction events, same gateway reference; its last append stores the key's answer when
 * the record came with the attempt), then the outcome on the contract. A crash anywhere resumes exactly like
 * a partner's retry: the attempt is still in flight, the key is taken over under the same command
 * id, the charge finds its transaction and asks the gateway about it instead of charging again.
 */
@Injectable()
export class ContractBilling {
  constructor(
    private readonly commands: CommandBus,
    private readonly contracts: ContractReader,
    private readonly charges: Charges,
    private readonly transactions: TransactionReader,
    private readonly idempotency: IdempotencyStore,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The highest event-store position this process's contract writes reached (each contract write
   * comes after its charge's transaction writes): a pass waits for its read models up to here.
   */
  private written = 0n;

  get lastWrittenPosition(): bigint {
    return this.written;
  }

  /** Every contract write of the scheduler goes through here (and moves {@link lastWrittenPosition}). */
  private async execute(command: RunContractCommand): Promise<ContractResult> {
    const result = await this.commands.execute<RunContractCommand, ContractResult>(command);
    if (result.position !== null && result.position > this.written) this.written = result.position;
    return result;
  }

  /** The facts of one pass, read on first use. */
  facts(): PassFacts {
    return new PassFacts(
      (id) => this.merchantFacts(id),
      async (partnerId) => enabledFeatures((await this.partners.get(partnerId)).configuration),
    );
  }

  /** The merchant's state, and whether it may transact (the rule every charge applies). */
  private async merchantFacts(merchantId: string): Promise<{ state: string; transactable: boolean }> {
    const merchant = await this.merchants.get(merchantId);
    try {
      assertMerchantTransactable(merchant, this.config.appEnv);
      return { state: merchant.state, transactable: true };
    } catch (error) {
      if (error instanceof MerchantNotTransactable) return { state: merchant.state, transactable: false };
      throw error;
    }
  }

  /**
   * Brings the contract up to date; stops early while a charge's outcome stays unknown. `listed`:
   * the contract as the list holds it, when the caller has it (saves the first read; if it is
   * stale, the first write is refused by its expected revision and decided again on the stream).
   */
  async settle(contractId: string, facts: PassFacts, tally: BillingTally, listed?: Known): Promise<void> {
    // The contract as this pass's last write left it, when it knows (saves reading it again). A
    // charge in flight is resolved from the stream only: a stale list could show one that another
    // run withdrew, and charging it would take money the contract never records.
    let next: Known | null = listed && !listed.contract.inFlight ? listed : null;
    for (let step = 0; step < MAX_STEPS; step++) {
      const loaded = next ?? (await this.contracts.load(contractId));
      next = null;
      if (!loaded) return;
      const { contract, revision } = loaded;
      const now = this.clock.now();

      if (contract.inFlight) {
        const charged = await this.charge(loaded, contract.inFlight, facts, tally, false);
        if (charged.status !== 'recorded') return;
        next = charged.next;
        continue;
      }
      if (contract.state === 'PENDING_ACTIVATION') {
        if (contract.activationDeadline !== null && contract.activationDeadline <= now.toISOString()) {
          await this.run({ type: 'ExpireContractActivation', contractId }, contract, 'activation-expiry');
          tally.cancelled += 1;
        }
        return;
      }
      if (contract.state === 'PAUSED') {
        if (contract.pause?.by !== 'system' || (await facts.holdOf(contract))) return;
        await this.run({ type: 'ReleaseContract', contractId }, contract, 'release');
        tally.released += 1;
        continue;
      }
      if (contract.state !== 'ACTIVE') return;
      const due = dueInstallment(contract, dateOf(now));
      if (!due) return;
      const hold = await facts.holdOf(contract);
      if (hold) {
        await this.run({ type: 'HoldContract', contractId, ...hold }, contract, 'hold');
        tally.held += 1;
        return;
      }
      const key = installmentKey(contract.id, due.installment, due.attempt);
      const commandId = this.commandIdOf(contract.id, key);
      const start = (options: { maxAttempts?: number }) =>
        this.execute(
          new RunContractCommand(
            {
              type: 'StartInstallmentAttempt',
              contractId,
              installment: due.installment,
              attempt: due.attempt,
              transactionId: idFor(commandId, 'transaction', () => key),
              idempotencyKey: key,
            },
            this.metadata(contract, `attempt:${key}`, key),
            // Just read: the append needs no second read (a race costs a retry, nothing more).
            { known: { state: contract, revision }, ...options },
          ),
        );
      // The key's record rides with the attempt's append (one commit, not two), on a store that
      // writes records in its appends' transactions. Its fingerprint is the attempt this state
      // decides, so the append is decided on this state only: a lost race reads the contract again.
      const record = this.idempotency.joinsAppends
        ? this.installmentRecord(contract, key, commandId, due)
        : null;
      let started: ContractResult;
      let carried: RequestRecord | null;
      try {
        ({ started, carried } = await this.startAttempt(start, record));
      } catch (error) {
        // Paused, cancelled or moved by a partner since it was read: read it again.
        if (
          error instanceof InvalidStateTransition ||
          error instanceof ContractCommandInvalid ||
          error instanceof ConcurrencyConflict
        )
          continue;
        throw error;
      }
      const attempt = started.state.inFlight;
      if (!attempt) return;
      const known = { contract: started.state, revision: started.revision };
      const charged = await this.charge(known, attempt, facts, tally, !started.alreadyApplied, carried);
      if (charged.status !== 'recorded') return;
      next = charged.next;
    }
    this.logger.warn({ contract_id: contractId }, 'contract still due after the most steps one pass takes');
  }

  /**
   * Appends the attempt, with the key's record when there is one to carry; `carried` is that
   * record when the append wrote it (not when the attempt was there already). A key that has a
   * record already (an attempt given back under a hold, a run that died) refuses that append
   * whole: the attempt is then written alone, and the charge takes the key as any run would.
   */
  private async startAttempt(
    start: (options: { maxAttempts?: number }) => Promise<ContractResult>,
    record: RequestRecord | null,
  ): Promise<{ started: ContractResult; carried: RequestRecord | null }> {
    if (!record) return { started: await start({}), carried: null };
    try {
      const started = await record.run(() => start({ maxAttempts: 1 }));
      return { started, carried: record.written ? record : null };
    } catch (error) {
      if (!(error instanceof IdempotencyRecordTaken)) throw error;
      return { started: await start({}), carried: null };
    }
  }

  /** Records an ACH installment's return (found by the scheduler in the transaction list). */
  async recordReturn(contractId: string, transactionId: string, returnCode: string): Promise<boolean> {
    const contract = await this.contracts.find(contractId);
    if (!contract) return false;
    const result = await this.execute(
      new RunContractCommand(
        { type: 'RecordInstallmentReturn', contractId, transactionId, returnCode },
        this.metadata(contract, `return:${transactionId}`, null),
      ),
    );
    return !result.alreadyApplied && result.events.length > 0;
  }

  /**
   * The charge of an attempt in flight, to its recorded outcome: 'recorded' (approved, declined or
   * refused for good, or withdrawn under a hold), 'pending' (the gateway's answer is still
   * unknown: the next pass asks again) or 'busy' (another process holds the key right now).
   */
  private async charge(
    known: Known,
    attempt: InFlightAttempt,
    facts: PassFacts,
    tally: BillingTally,
    /** This pass just recorded the attempt: nothing of its charge can exist unless the key says so. */
    justStarted: boolean,
    /** The key's record, written with the attempt's append: the key is this run's already. */
    carried: RequestRecord | null = null,
  ): Promise<Charged> {
    const { contract } = known;
    const key = attempt.idempotencyKey;
    const scope = scopeOf(contract);
    const commandId = this.commandIdOf(contract.id, key);
    const fingerprint = installmentFingerprint(
      contract,
      attempt.installment,
      attempt.attempt,
      attempt.amountMinor,
    );
    const begun: BeginOutcome = carried
      ? { kind: 'execute', commandId, resumed: false, lease: carried.lease }
      : await this.idempotency.begin(scope, key, fingerprint, { commandId });
    if (begun.kind === 'in_progress') return { status: 'busy', next: null };
    if (begun.kind === 'reused') {
      this.logger.error({ contract_id: contract.id, key }, 'a recurring key was taken for another charge');
      return { status: 'busy', next: null };
    }
    if (begun.kind === 'replay') {
      // The charge finished and was stored; only its outcome is missing from the contract.
      const body = begun.response.body as { transaction_id?: string; code?: string } | null;
      const transaction = body?.transaction_id ? await this.transactions.find(body.transaction_id) : null;
      const result: InstallmentResult = transaction
        ? resultOf(transaction)
        : { kind: 'refused', code: body?.code ?? 'charge_refused' };
      return {
        status: 'recorded',
        next: await this.record(known, attempt, transaction?.id ?? null, result, tally),
      };
    }

    // Paused or cancelled before its transaction was recorded: the charge never happens.
    if (contract.state !== 'ACTIVE' && !(await this.transactions.find(attempt.transactionId))) {
      await this.idempotency.abandon(scope, key, begun.lease);
      const reasonCode = contract.state === 'PAUSED' ? 'contract_paused' : 'contract_cancelled';
      await this.withdraw(contract, attempt, reasonCode);
      return { status: 'recorded', next: null };
    }
    const hold = this.idempotency.hold(scope, key, begun.lease);
    let transaction: Transaction;
    try {
      const features = await facts.enabledFeatures(contract.partnerId);
      const charge = () =>
        this.charges.charge(
          this.paymentContext(contract, commandId, key, justStarted && !begun.resumed, features),
          {
            kind: 'charge',
            type: contract.paymentMethodType === 'CARD' ? 'SALE' : 'ACH_DEBIT',
            merchantId: contract.merchantId,
            amountMinor: BigInt(attempt.amountMinor),
            currency: contract.currency,
            vaultToken: contract.paymentMethod!.vaultToken,
            useType: contract.useType,
            customerId: null,
            taxMinor: null,
            secCode: contract.paymentMethodType === 'ACH' ? 'WEB' : null,
            customFields: contract.customFields,
            level2Data: contract.level2Data,
            level3Data: contract.level3Data,
          },
        );
      // With the record carried, the charge's last append (the gateway's answer) stores the key's
      // answer too; an answer still unknown stores none (the key is given back below).
      carried?.answerWith((state) => {
        const t = state as Transaction;
        return t.state === 'INITIATED' ? null : chargeAnswer(t);
      });
      transaction = carried ? await carried.run(charge) : await charge();
    } catch (error) {
      await hold.release();
      if (error instanceof GatewayOutcomeUnknown) {
        await this.idempotency.abandon(scope, key, begun.lease);
        tally.pending += 1;
        return { status: 'pending', next: null };
      }
      const reason = isHold(error) ? await this.currentHold(contract, error) : null;
      if (reason) {
        // Refused before anything was recorded: nothing was charged. The key is given back, so
        // the installment runs under it again once the hold is lifted.
        await this.idempotency.abandon(scope, key, begun.lease);
        await this.withdraw(contract, attempt, reason.reasonCode);
        const after = await this.contracts.find(contract.id);
        if (after?.state === 'ACTIVE') {
          await this.run({ type: 'HoldContract', contractId: contract.id, ...reason }, after, 'hold');
          tally.held += 1;
        }
        return { status: 'recorded', next: null };
      }
      if (error instanceof DomainError && error.retryable !== true) {
        // Refused for good (the credential was revoked or expired, the merchant's custom fields
        // changed...): a failed installment, and the key keeps the refusal.
        const next = await this.record(known, attempt, null, { kind: 'refused', code: error.code }, tally);
        await this.idempotency.complete(scope, key, commandId, {
          status: 422,
          headers: {},
          body: { code: error.code },
        });
        return { status: 'recorded', next };
      }
      await this.idempotency.abandon(scope, key, begun.lease);
      throw error;
    }
    await hold.release();
    const next = await this.record(known, attempt, transaction.id, resultOf(transaction), tally);
    const answer = { status: 200, headers: {}, body: chargeAnswer(transaction) };
    if (!carried?.storedAnswer) await this.idempotency.complete(scope, key, commandId, answer);
    return { status: 'recorded', next };
  }

  private async withdraw(contract: Contract, attempt: InFlightAttempt, reasonCode: string): Promise<void> {
    await this.run(
      {
        type: 'WithdrawInstallmentAttempt',
        contractId: contract.id,
        installment: attempt.installment,
        attempt: attempt.attempt,
        reasonCode,
      },
      contract,
      `withdraw:${attempt.idempotencyKey}`,
      attempt.idempotencyKey,
    );
  }

  /** Why the charge was just refused, read afresh (the pass's facts are older than the refusal). */
  private async currentHold(contract: Contract, error: DomainError): Promise<Hold> {
    const [merchant, partner] = await Promise.all([
      this.merchantFacts(contract.merchantId),
      this.partners.get(contract.partnerId),
    ]);
    return (
      holdFor(contract, merchant, enabledFeatures(partner.configuration)) ?? {
        reasonCode:
          error instanceof MerchantNotTransactable ? 'merchant_not_transactable' : 'feature_not_enabled',
        reason: error.message,
      }
    );
  }

  /** Records the charge's outcome on the contract; the contract after it, as far as this write knows. */
  private async record(
    known: Known,
    attempt: InFlightAttempt,
    transactionId: string | null,
    result: InstallmentResult,
    tally: BillingTally,
  ): Promise<Known | null> {
    const key = attempt.idempotencyKey;
    try {
      const recorded = await this.execute(
        new RunContractCommand(
          {
            type: 'RecordInstallmentOutcome',
            contractId: known.contract.id,
            installment: attempt.installment,
            attempt: attempt.attempt,
            transactionId,
            result,
          },
          this.metadata(known.contract, `outcome:${key}`, key),
          // The contract as the attempt left it: a partner's pause since then only costs a re-read.
          { known: { state: known.contract, revision: known.revision } },
        ),
      );
      if (recorded.alreadyApplied) return null;
      // Counted by the run that recorded it (another one may have, from a stale view).
      if (recorded.events.length > 0) {
        if (result.kind === 'approved') tally.charged += 1;
        else tally.declined += 1;
      }
      return { contract: recorded.state, revision: recorded.revision };
    } catch (error) {
      if (!(error instanceof InvalidStateTransition)) throw error;
      return null;
    }
  }

  private paymentContext(
    contract: Contract,
    commandId: string,
    key: string,
    fresh: boolean,
    features: readonly string[],
  ): RequestedPayment {
    return {
      partnerId: contract.partnerId,
      enabledFeatures: features,
      commandId,
      // An attempt this pass began, under a key taken for the first time: its transaction cannot
      // exist yet, so the charge skips looking for it. An attempt found in flight may have one
      // (its key's record can be new because its 24 hours ran out): the charge looks first.
      fresh,
      metadata: {
        actor: RECURRING_ACTOR,
        partner_id: contract.partnerId,
        request_id: null,
        idempotency_key: key,
        causation_id: commandId,
        correlation_id: contract.id,
      },
      source: 'recurring',
      disclosureChannel: 'RECURRING',
      entryMode: 'CREDENTIAL_ON_FILE',
    };
  }

  /** A new record of the installment's key, to be inserted by the attempt's append. */
  private installmentRecord(
    contract: Contract,
    key: string,
    commandId: string,
    due: { installment: number; attempt: number; amountMinor: string },
  ): RequestRecord {
    return new RequestRecord(
      this.idempotency,
      scopeOf(contract),
      key,
      commandId,
      installmentFingerprint(contract, due.installment, due.attempt, due.amountMinor),
      randomUUID(),
      false,
      (body) => ({ status: 200, headers: {}, body }),
    );
  }

  /** The command id of one charge: derived from its key, so every run of it (and its transaction) agrees. */
  private commandIdOf(contractId: string, key: string): string {
    return idFor(contractId, `charge:${key}`, () => contractId);
  }

  /**
   * Scheduler metadata. The causation derives from the contract, the step and the version the step
   * was decided on: two schedulers taking the same step on the same state write it once, while the
   * same step taken again later (an installment re-attempted under its key after a hold) is new.
   */
  private metadata(contract: Contract, step: string, key: string | null): EventMetadata {
    const causation = idFor(contract.id, `recurring:${step}:v${contract.version}`, () => contract.id);
    return {
      actor: RECURRING_ACTOR,
      partner_id: contract.partnerId,
      request_id: null,
      idempotency_key: key,
      causation_id: causation,
      correlation_id: contract.id,
    };
  }

  private async run(
    command: ContractCommandInput,
    contract: Contract,
    step: string,
    key: string | null = null,
  ) {
    try {
      await this.execute(new RunContractCommand(command, this.metadata(contract, step, key)));
    } catch (error) {
      // The contract moved meanwhile (a partner's cancel, another process): the next step re-reads it.
      if (!(error instanceof InvalidStateTransition)) throw error;
    }
  }
}

/** The scope of a contract's platform keys: its partner's. */
const scopeOf = (contract: Contract) => `partner:${contract.partnerId}`;

/** What an installment's key stands for: the contract, the installment, its attempt, amount and card. */
function installmentFingerprint(
  contract: Contract,
  installment: number,
  attempt: number,
  amountMinor: string,
): string {
  return fingerprintOf('POST', `/contracts/${contract.id}/installments/${installment}`, {
    attempt,
    amount: amountMinor,
    token: contract.paymentMethod?.vaultToken ?? null,
  });
}

/** The answer a charge's key keeps: what a later run needs to record the outcome. */
const chargeAnswer = (transaction: Transaction) => ({
  transaction_id: transaction.id,
  state: transaction.state,
});

function resultOf(transaction: Transaction): InstallmentResult {
  if (!NOT_APPROVED.includes(transaction.state)) return { kind: 'approved' };
  return { kind: 'declined', declineCode: transaction.declineCode ?? 'declined' };
}

/** A refusal that means "not now" rather than "never": the contract is held, not failed. */
function isHold(error: unknown): error is DomainError {
  return (
    error instanceof MerchantNotTransactable ||
    (error instanceof DomainError && error.code === 'feature_not_enabled')
  );
}
