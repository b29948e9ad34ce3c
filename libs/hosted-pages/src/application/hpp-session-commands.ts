import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec, type CommandInput } from '../../../event-store/src';
import { decide, type HppSessionCommand } from '../domain/session/session-decide';
import { hppSessionEvolver, type HppSession } from '../domain/session/session';
import { HppSessionNotFound } from '../domain/session/session-errors';
import { hppSessionStream, type HppSessionEvent } from '../domain/session/session-events';

/** The read model a session write waits for (the expiry sweeper queries it). */
export const HPP_SESSION_LIST_PROJECTION = 'hpp-session-list';

/** `hpp_session-{id}`: one hosted payment page, from create to completion, cancel or expiry. */
export const hppSessionAggregate: AggregateSpec<HppSessionCommand, HppSession, HppSessionEvent> = {
  stream: hppSessionStream,
  idOf: (command) => command.sessionId,
  evolver: hppSessionEvolver,
  decide,
  notFound: (id) => new HppSessionNotFound(id),
  readModels: [HPP_SESSION_LIST_PROJECTION],
};

export type HppSessionCommandInput = CommandInput<HppSessionCommand>;

const hppSessionCommands = aggregateCommands(hppSessionAggregate);

/** Every session write: `commandBus.execute(new RunHppSessionCommand(command, metadata))`. */
export class RunHppSessionCommand extends hppSessionCommands.Command {}

@CommandHandler(RunHppSessionCommand)
export class RunHppSessionCommandHandler extends hppSessionCommands.Handler {}
