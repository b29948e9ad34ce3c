import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec } from '../../../event-store/src';
import { decide, type SettlementBatchCommand } from '../domain/decide';
import { settlementBatchEvolver, type SettlementBatch } from '../domain/settlement-batch';
import { SettlementBatchNotFound } from '../domain/settlement-batch-errors';
import { settlementBatchStream, type SettlementBatchEvent } from '../domain/settlement-batch-events';

/** `batch-{id}`: one merchant's settlement batch of one run. */
export const settlementBatchAggregate: AggregateSpec<
  SettlementBatchCommand,
  SettlementBatch,
  SettlementBatchEvent
> = {
  stream: settlementBatchStream,
  idOf: (command) => command.batchId,
  evolver: settlementBatchEvolver,
  decide,
  // Every batch command creates or follows an open, so a batch exists after any of them.
  notFound: (id) => new SettlementBatchNotFound(id),
};

const settlementBatchCommands = aggregateCommands(settlementBatchAggregate);

/** Every batch write: `commandBus.execute(new RunSettlementBatchCommand(command, metadata))`. */
export class RunSettlementBatchCommand extends settlementBatchCommands.Command {}

@CommandHandler(RunSettlementBatchCommand)
export class RunSettlementBatchCommandHandler extends settlementBatchCommands.Handler {}
