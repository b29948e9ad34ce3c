import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { Inject } from '@nestjs/common';
import type { EventMetadata } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { idFor } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { ProjectionRunner } from '../../../projections/src';
import type { StoredCredential, UseType } from '../../../vault/src';
import {
  contractPaymentMethod,
  contractUseType,
  dateOf,
  DEFAULT_MAX_RETRIES,
  isContractFrequency,
  ContractCommandInvalid,
} from '../domain';
import { CONTRACT_LIST, RunContractCommand } from './contract-commands';
import { ContractReader } from './contract-reader';

/** A hosted page's `recurring_plan`, as the session holds it (CONTRACT §8: lower-case frequencies). */
export interface HostedPlanInput {
  sessionId: string;
  partnerId: string;
  merchantId: string;
  customerId: string | null;
  paymentMethod: 'card' | 'ach';
  currency: string;
  /** The session's `credential_usages`: the scope the payer's method is saved with. */
  credentialUsages: readonly UseType[];
  customFields: { name: string; value: string }[];
  recurringAmountMinor: bigint;
  frequency: string;
  interval: number;
  /** The payments of the plan, the page's first one included; null: until cancelled. */
  numberOfPayments: number | null;
  /** The session's `expires_at`: a plan its page never paid for is cancelled then. */
  expiresAt: string;
}

/** The contract of a hosted page's plan: derived from the session, so every post of the page finds the same one. */
export const contractIdForSession = (sessionId: string): string =>
  idFor(sessionId, 'contract', () => sessionId);

/**
 * The hosted page's side of a plan (docs/recurring.md "From a hosted page"): the page's first
 * submit opens the plan's contract (PENDING_ACTIVATION), and the approval of the page's payment
 * activates it with the method the payer just saved, as installment 1.
 */
@Injectable()
export class HostedPlans {
  constructor(
    private readonly commands: CommandBus,
    private readonly contracts: ContractReader,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The plan's contract, created PENDING_ACTIVATION unless the session already has it. */
  async open(input: HostedPlanInput, metadata: EventMetadata): Promise<string> {
    const contractId = contractIdForSession(input.sessionId);
    if (await this.contracts.find(contractId)) return contractId;
    const frequency = input.frequency.toUpperCase();
    if (!isContractFrequency(frequency))
      throw new ContractCommandInvalid(`unknown frequency ${input.frequency}`);
    const result = await this.commands.execute(
      new RunContractCommand(
        {
          type: 'CreateContract',
          contractId,
          partnerId: input.partnerId,
          merchantId: input.merchantId,
          customerId: input.customerId,
          origin: 'hpp',
          hppSessionId: input.sessionId,
          paymentMethodType: input.paymentMethod === 'card' ? 'CARD' : 'ACH',
          paymentMethod: null,
          useType: contractUseType(input.credentialUsages, input.numberOfPayments),
          amountMinor: input.recurringAmountMinor,
          currency: input.currency,
          frequency,
          interval: input.interval,
          startDate: dateOf(this.clock.now()),
          endDate: null,
          numberOfPayments: input.numberOfPayments,
          maxRetries: DEFAULT_MAX_RETRIES,
          customFields: input.customFields,
          level2Data: null,
          level3Data: null,
          activationDeadline: input.expiresAt,
        },
        metadata,
      ),
    );
    if (result.position !== null) await this.projections.waitFor(result.position, [CONTRACT_LIST]);
    return contractId;
  }

  /**
   * The page's payment was approved: the plan starts, with its first payment counted. A plan the
   * partner cancelled while the payer was paying stays cancelled (the payment stands).
   */
  async activate(
    contractId: string,
    credential: StoredCredential,
    initial: { transactionId: string; amountMinor: bigint },
    metadata: EventMetadata,
  ): Promise<void> {
    try {
      const result = await this.commands.execute(
        new RunContractCommand(
          {
            type: 'ActivateContract',
            contractId,
            paymentMethod: contractPaymentMethod(credential),
            initialTransactionId: initial.transactionId,
            initialAmountMinor: initial.amountMinor,
          },
          metadata,
        ),
      );
      if (result.position !== null) await this.projections.waitFor(result.position, [CONTRACT_LIST]);
    } catch (error) {
      if (!(error instanceof InvalidStateTransition)) throw error;
      this.logger.warn(
        { contract_id: contractId },
        'a hosted plan was paid after it stopped waiting for payment',
      );
    }
  }
}
