import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec, type CommandInput } from '../../../event-store/src';
import { decide, type TerminalCommand } from '../domain/decide';
import {
  decideSerialClaim,
  serialClaimEvolver,
  type ClaimTerminalSerialNumber,
  type SerialClaim,
  type SerialClaimEvent,
} from '../domain/serial-claim';
import { terminalEvolver, type Terminal } from '../domain/terminal';
import { TerminalNotFound } from '../domain/terminal-errors';
import type { TerminalEvent } from '../domain/terminal-events';
import { serialClaimStream, terminalStream } from '../domain/terminal-stream';

/** The read model every terminal write waits for: the list, and the key lookup of the auth guard. */
export const TERMINAL_LIST = 'terminal-list';

/** `terminal-{id}`: a merchant's payment terminal, its state and its key. */
export const terminalAggregate: AggregateSpec<TerminalCommand, Terminal, TerminalEvent> = {
  stream: terminalStream,
  idOf: (command) => command.terminalId,
  evolver: terminalEvolver,
  decide,
  notFound: (id) => new TerminalNotFound(id),
  // A new key works, and an old or decommissioned one is refused, from the next request on.
  readModels: [TERMINAL_LIST],
};

export type TerminalCommandInput = CommandInput<TerminalCommand>;

const terminalCommands = aggregateCommands(terminalAggregate);

/** Every terminal write: `commandBus.execute(new RunTerminalCommand(command, metadata))`. */
export class RunTerminalCommand extends terminalCommands.Command {}

@CommandHandler(RunTerminalCommand)
export class RunTerminalCommandHandler extends terminalCommands.Handler {}

/** `terminal_serial-{claimId}`: which terminal holds a merchant's serial number. */
export const serialClaimAggregate: AggregateSpec<ClaimTerminalSerialNumber, SerialClaim, SerialClaimEvent> = {
  stream: serialClaimStream,
  idOf: (command) => command.claimId,
  evolver: serialClaimEvolver,
  decide: decideSerialClaim,
  // A claim command always leaves a claim (or refuses): never reached.
  notFound: (id) => new Error(`serial number claim ${id} vanished`),
};

const serialClaimCommands = aggregateCommands(serialClaimAggregate);

export class RunSerialClaimCommand extends serialClaimCommands.Command {}

@CommandHandler(RunSerialClaimCommand)
export class RunSerialClaimCommandHandler extends serialClaimCommands.Handler {}
