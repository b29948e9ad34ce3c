import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { idFor } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import type { Transaction } from '../domain/transaction';
import type { StepContext } from './payment-context';
import {
  RunTransactionCommand,
  type KnownTransactionStream,
  type TransactionCommandInput,
  type TransactionResult,
} from './transaction-commands';

/**
 * A payment request writes to transaction streams in named steps (initiate, outcome, parent,
 * ...). Each step's `causation_id` derives from the request's command id and the step's name, so
 * a re-run of the request recognises exactly the steps its first run finished.
 */
@Injectable()
export class TransactionSteps {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
  ) {}

  /** One write to a transaction stream, as a named step of the request (see transactionAggregate). */
  async step(
    context: StepContext,
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
  async write(
    context: StepContext,
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
  async waitForList(result: TransactionResult): Promise<void> {
    if (result.position !== null) await this.projections.waitFor(result.position, ['transaction-list']);
  }
}
