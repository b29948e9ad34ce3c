import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { idFor } from '../../../platform/src/http/request-metadata';
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
 *
 * No step waits for `transaction-list`: a request answers from the state it decided, the
 * transaction's own read (`GET /transactions/{id}`, from its stream) is current at once, and the
 * list, search, summary and export catch up a moment later (docs/api.md, "Consistency").
 */
@Injectable()
export class TransactionSteps {
  constructor(private readonly commands: CommandBus) {}

  /** One write to a transaction stream, as a named step of the request (see transactionAggregate). */
  async step(context: StepContext, step: string, command: TransactionCommandInput): Promise<Transaction> {
    return (await this.write(context, step, command)).state;
  }

  /** The write of a step, with what it returned (revision, position). */
  async write(
    context: StepContext,
    step: string,
    command: TransactionCommandInput,
    known?: KnownTransactionStream,
    /** The request's last write: its answer may commit with it (`RunOptions.final`). */
    final = false,
  ): Promise<TransactionResult> {
    const causation = idFor(context.commandId, `${command.transactionId}:${step}`, () => context.commandId);
    return this.commands.execute(
      new RunTransactionCommand(
        command,
        { ...context.metadata, causation_id: causation },
        { known: known && { state: known.transaction, revision: known.revision }, final },
      ),
    );
  }
}
