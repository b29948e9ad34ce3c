import { randomUUID } from 'node:crypto';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { idFor } from '../../../platform/src/http/request-metadata';
import type { ClaimHolderStatus } from '../domain/serial-claim';
import type { Terminal } from '../domain/terminal';
import { assertTerminalFields, serialNumberKey } from '../domain/terminal-rules';
import { RunSerialClaimCommand, RunTerminalCommand } from './terminal-commands';
import { TerminalReader } from './terminal-reader';

export interface RegisterTerminalInput {
  /** Derived from the request's command id, so a re-run registers the same terminal. */
  terminalId: string;
  merchantId: string;
  partnerId: string;
  serialNumber: string;
  model: string;
}

/**
 * `POST /terminals`: claims the merchant's serial number for the new terminal, then creates it
 * UNASSIGNED (two streams, docs/terminals.md). Bad values are refused before anything is claimed;
 * a re-run of the same request finds its own claim and its own terminal and appends nothing.
 */
export class RegisterTerminal extends Command<Terminal> {
  constructor(
    readonly input: RegisterTerminalInput,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

@CommandHandler(RegisterTerminal)
export class RegisterTerminalHandler implements ICommandHandler<RegisterTerminal, Terminal> {
  constructor(
    private readonly commands: CommandBus,
    private readonly terminals: TerminalReader,
  ) {}

  async execute({ input, metadata }: RegisterTerminal): Promise<Terminal> {
    assertTerminalFields({ serialNumber: input.serialNumber, model: input.model });
    const claimId = idFor(
      serialNumberKey(input.merchantId, input.serialNumber),
      'terminal_serial',
      randomUUID,
    );
    const claim = await this.terminals.claim(claimId);
    const holder =
      claim && claim.terminalId !== input.terminalId
        ? { terminalId: claim.terminalId, status: await this.statusOf(claim.terminalId) }
        : null;
    await this.commands.execute(
      new RunSerialClaimCommand(
        {
          type: 'ClaimTerminalSerialNumber',
          claimId,
          merchantId: input.merchantId,
          partnerId: input.partnerId,
          serialNumber: input.serialNumber,
          terminalId: input.terminalId,
          holder,
        },
        metadata,
      ),
    );
    const result = await this.commands.execute(
      new RunTerminalCommand({ type: 'CreateTerminal', ...input }, metadata),
    );
    return result.state;
  }

  private async statusOf(terminalId: string): Promise<ClaimHolderStatus> {
    const terminal = await this.terminals.find(terminalId);
    if (!terminal) return 'absent';
    return terminal.state === 'DECOMMISSIONED' ? 'decommissioned' : 'live';
  }
}
