import { randomUUID } from 'node:crypto';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { CertificationFacts } from '../../../partners/src';
import { generateKey } from '../../../platform/src/auth/secret-key';
import type { Terminal } from '../domain/terminal';
import { RunTerminalCommand } from './terminal-commands';

/** A terminal with the key just issued to it: the only moment the key exists outside a hash. */
export interface IssuedTerminalKey {
  terminal: Terminal;
  apiKey: string;
}

/**
 * `provision` (UNASSIGNED → PROVISIONED) or `rotate` (a new key, the old one refused from then
 * on): generates a terminal key `ctk_<8>_<32>` and records only its prefix and hash.
 *
 * The key exists only in this run's memory, like a partner API key (ADR 0004): when a run
 * recorded the key and then failed before its answer was stored, the retry (same
 * Idempotency-Key) finds its events already there and cannot show a key nobody kept, so it
 * rotates once more and shows that key; the lost one never worked for anyone.
 */
export class IssueTerminalKey extends Command<IssuedTerminalKey> {
  constructor(
    readonly terminalId: string,
    readonly mode: 'provision' | 'rotate',
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

@CommandHandler(IssueTerminalKey)
export class IssueTerminalKeyHandler implements ICommandHandler<IssueTerminalKey, IssuedTerminalKey> {
  constructor(
    private readonly commands: CommandBus,
    private readonly facts: CertificationFacts,
  ) {}

  async execute({ terminalId, mode, metadata }: IssueTerminalKey): Promise<IssuedTerminalKey> {
    const type = mode === 'provision' ? 'ProvisionTerminal' : 'RotateTerminalApiKey';
    let issued = await this.issue(type, terminalId, metadata);
    if (issued.alreadyApplied) {
      // A fresh causation id: this rotation is new work, not a re-run of the lost one.
      issued = await this.issue('RotateTerminalApiKey', terminalId, {
        ...metadata,
        causation_id: randomUUID(),
      });
    }
    if (mode === 'provision') {
      // Certification evidence (TERMINAL_PROVISIONING), recorded once per partner.
      await this.facts.observeFor(issued.terminal.partnerId, 'TERMINAL_PROVISIONED', metadata);
    }
    return { terminal: issued.terminal, apiKey: issued.apiKey };
  }

  private async issue(
    type: 'ProvisionTerminal' | 'RotateTerminalApiKey',
    terminalId: string,
    metadata: EventMetadata,
  ): Promise<IssuedTerminalKey & { alreadyApplied: boolean }> {
    const fresh = generateKey('ctk');
    const result = await this.commands.execute(
      new RunTerminalCommand({ type, terminalId, keyPrefix: fresh.prefix, keyHash: fresh.hash }, metadata),
    );
    return { terminal: result.state, apiKey: fresh.key, alreadyApplied: result.alreadyApplied };
  }
}
