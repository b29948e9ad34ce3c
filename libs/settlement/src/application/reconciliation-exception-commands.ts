import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec } from '../../../event-store/src';
import {
  reconciliationExceptionEvolver,
  type ReconciliationException,
} from '../domain/reconciliation-exception';
import {
  decideException,
  type ReconciliationExceptionCommand,
} from '../domain/reconciliation-exception-decide';
import { ReconciliationExceptionNotFound } from '../domain/reconciliation-exception-errors';
import {
  reconciliationExceptionStream,
  type ReconciliationExceptionEvent,
} from '../domain/reconciliation-exception-events';

/** `reconciliation_exception-{id}`: one difference found by reconciliation, resolved on its own. */
export const reconciliationExceptionAggregate: AggregateSpec<
  ReconciliationExceptionCommand,
  ReconciliationException,
  ReconciliationExceptionEvent
> = {
  stream: reconciliationExceptionStream,
  idOf: (command) => command.exceptionId,
  evolver: reconciliationExceptionEvolver,
  decide: decideException,
  notFound: (id) => new ReconciliationExceptionNotFound(id),
};

const exceptionCommands = aggregateCommands(reconciliationExceptionAggregate);

/** Every exception write: `commandBus.execute(new RunReconciliationExceptionCommand(command, metadata))`. */
export class RunReconciliationExceptionCommand extends exceptionCommands.Command {}

@CommandHandler(RunReconciliationExceptionCommand)
export class RunReconciliationExceptionCommandHandler extends exceptionCommands.Handler {}
