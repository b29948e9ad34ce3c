import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { foldEvents, type EventMetadata } from '../../../event-store/src';
import { CertificationFacts } from '../../../partners/src';
import { terminalEvolver, type Terminal } from '../domain/terminal';
import { TerminalNotFound } from '../domain/terminal-errors';
import { RunTerminalCommand } from './terminal-commands';
import { TerminalReader } from './terminal-reader';

/**
 * A terminal reports in (`POST /terminals/{id}/heartbeat`, with its own key), optionally with
 * its firmware version. Most heartbeats record nothing (decide.ts records one every few minutes),
 * so the stream read for the decision is handed to the command path instead of being read twice.
 */
export class ReceiveTerminalHeartbeat extends Command<Terminal> {
  constructor(
    readonly terminalId: string,
    readonly firmwareVersion: string | null,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

@CommandHandler(ReceiveTerminalHeartbeat)
export class ReceiveTerminalHeartbeatHandler implements ICommandHandler<ReceiveTerminalHeartbeat, Terminal> {
  constructor(
    private readonly commands: CommandBus,
    private readonly terminals: TerminalReader,
    private readonly facts: CertificationFacts,
  ) {}

  async execute({ terminalId, firmwareVersion, metadata }: ReceiveTerminalHeartbeat): Promise<Terminal> {
    const history = await this.terminals.history(terminalId);
    const before = foldEvents(terminalEvolver, history);
    if (!before) throw new TerminalNotFound(terminalId);
    const result = await this.commands.execute(
      new RunTerminalCommand({ type: 'RecordTerminalHeartbeat', terminalId, firmwareVersion }, metadata, {
        known: { state: before, revision: history[history.length - 1].revision },
      }),
    );
    if (before.lastHeartbeatAt === null && result.events.length > 0) {
      // Certification evidence (TERMINAL_HEARTBEAT): the partner's first terminal reported in.
      await this.facts.observeFor(before.partnerId, 'TERMINAL_HEARTBEAT_RECEIVED', metadata);
    }
    return result.state;
  }
}
