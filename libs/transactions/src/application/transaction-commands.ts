import { CommandHandler } from '@nestjs/cqrs';
import {
  aggregateCommands,
  type AggregateResult,
  type AggregateSpec,
  type CommandInput,
} from '../../../event-store/src';
import { decide, type TransactionCommand } from '../domain/decide';
import { transactionEvolver, type Transaction } from '../domain/transaction';
import { TransactionNotFound } from '../domain/transaction-errors';
import { transactionStream, type TransactionEvent } from '../domain/transaction-events';

/**
 * `transaction-{id}`. One request may write several times to one stream (initiate, then the
 * gateway's answer); each step carries its own `causation_id`, derived from the request's command
 * id and the step's name, so a re-run recognises exactly the steps its first run finished. The
 * payment use cases wait for `transaction-list` themselves, once per request (see `TransactionSteps`).
 */
export const transactionAggregate: AggregateSpec<TransactionCommand, Transaction, TransactionEvent> = {
  stream: transactionStream,
  idOf: (command) => command.transactionId,
  evolver: transactionEvolver,
  decide,
  notFound: (id) => new TransactionNotFound(id),
};

export type TransactionCommandInput = CommandInput<TransactionCommand>;
export type TransactionResult = AggregateResult<Transaction, TransactionEvent>;

/** A transaction stream as a caller already knows it (see `HandleCommandOptions.known`). */
export interface KnownTransactionStream {
  transaction: Transaction | null;
  /** The stream's revision (NO_STREAM for a stream not written yet). */
  revision: bigint;
}

const transactionCommands = aggregateCommands(transactionAggregate);

/** Every transaction write: `commandBus.execute(new RunTransactionCommand(command, metadata))`. */
export class RunTransactionCommand extends transactionCommands.Command {}

@CommandHandler(RunTransactionCommand)
export class RunTransactionCommandHandler extends transactionCommands.Handler {}
