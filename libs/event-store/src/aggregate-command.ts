import { Inject } from '@nestjs/common';
import { Command, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/src/clock/clock';
import {
  Aggregate,
  READ_MODEL_WAIT,
  type AggregateResult,
  type AggregateSpec,
  type CommandInput,
  type ReadModelWait,
  type RunOptions,
} from './aggregate';
import { EventStore, type EventMetadata } from './event-store';
import type { DomainEvent } from './handle-command';

/**
 * The `@nestjs/cqrs` face of one aggregate: a command class that carries a domain command with
 * its metadata, and a handler that runs it on the aggregate. Each context names them once:
 *
 * ```ts
 * const merchantCommands = aggregateCommands(merchantAggregate);
 * export class RunMerchantCommand extends merchantCommands.Command {}
 * @CommandHandler(RunMerchantCommand)
 * export class RunMerchantCommandHandler extends merchantCommands.Handler {}
 * ```
 *
 * and every write of the context is `commandBus.execute(new RunMerchantCommand(command, metadata))`.
 */
export function aggregateCommands<C extends { at: Date }, S, E extends DomainEvent>(
  spec: AggregateSpec<C, S, E>,
) {
  class RunCommand extends Command<AggregateResult<S, E>> {
    constructor(
      readonly command: CommandInput<C>,
      readonly metadata: EventMetadata,
      readonly options: RunOptions<S> = {},
    ) {
      super();
    }
  }

  class RunCommandHandler implements ICommandHandler<RunCommand, AggregateResult<S, E>> {
    readonly aggregate: Aggregate<C, S, E>;

    constructor(store: EventStore, clock: Clock, @Inject(READ_MODEL_WAIT) waitFor: ReadModelWait) {
      this.aggregate = new Aggregate(spec, store, clock, waitFor);
    }

    execute({ command, metadata, options }: RunCommand): Promise<AggregateResult<S, E>> {
      return this.aggregate.run(command, metadata, options);
    }
  }

  return { Command: RunCommand, Handler: RunCommandHandler };
}
