import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { EventStore, handleCommand } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { decide, type StoredCredentialCommand } from '../domain/decide';
import { storedCredentialEvolver, type StoredCredential } from '../domain/stored-credential';
import { StoredCredentialNotFound } from '../domain/stored-credential-errors';
import type { StoredCredentialEvent } from '../domain/stored-credential-events';
import { storedCredentialStream } from '../domain/stored-credential-stream';

export interface StoredCredentialResult {
  credential: StoredCredential;
  events: StoredCredentialEvent[];
  /** Global position of the command's last event, for read-your-writes; null if none. */
  position: bigint | null;
  alreadyApplied: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A stored-credential command as callers give it: the handler stamps the time from the clock. */
export type StoredCredentialCommandInput = DistributiveOmit<StoredCredentialCommand, 'at'>;

export class ExecuteStoredCredentialCommand extends Command<StoredCredentialResult> {
  constructor(
    readonly command: StoredCredentialCommandInput,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** Load `stored_credential-{id}`, decide, append with the expected revision, retry on a race. */
@CommandHandler(ExecuteStoredCredentialCommand)
export class ExecuteStoredCredentialCommandHandler implements ICommandHandler<ExecuteStoredCredentialCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ command, metadata }: ExecuteStoredCredentialCommand): Promise<StoredCredentialResult> {
    const at = this.clock.now();
    const result = await handleCommand<StoredCredential | null, StoredCredentialEvent>(
      this.store,
      storedCredentialStream(command.storedCredentialId),
      storedCredentialEvolver,
      (credential) => decide({ ...command, at } as StoredCredentialCommand, credential),
      metadata,
    );
    if (!result.state) throw new StoredCredentialNotFound(command.storedCredentialId);
    return {
      credential: result.state,
      events: result.events,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }
}
