import { randomUUID } from 'node:crypto';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec, type EventMetadata } from '../../../event-store/src';
import { decide, type StoredCredentialCommand } from '../domain/decide';
import { storedCredentialEvolver, type StoredCredential } from '../domain/stored-credential';
import { StoredCredentialNotFound } from '../domain/stored-credential-errors';
import type { StoredCredentialEvent } from '../domain/stored-credential-events';
import { storedCredentialStream } from '../domain/stored-credential-stream';
import { CustomerNotFound, RunCustomerCommand } from '../../../customers/src';
import { StoredCredentialReader } from './stored-credential-reader';

/** The projection every stored-credential write waits for, so the list answers it at once. */
export const STORED_CREDENTIAL_LIST = 'stored-credential-list';

/** `stored_credential-{id}`: a vault entry's scope, consent and revocation. */
export const storedCredentialAggregate: AggregateSpec<
  StoredCredentialCommand,
  StoredCredential,
  StoredCredentialEvent
> = {
  stream: storedCredentialStream,
  idOf: (command) => command.storedCredentialId,
  evolver: storedCredentialEvolver,
  decide,
  notFound: (id) => new StoredCredentialNotFound(id),
  // A list or a vault-token lookup that follows sees the write.
  readModels: [STORED_CREDENTIAL_LIST],
};

const storedCredentialCommands = aggregateCommands(storedCredentialAggregate);

/** Every stored-credential write: `commandBus.execute(new RunStoredCredentialCommand(command, metadata))`. */
export class RunStoredCredentialCommand extends storedCredentialCommands.Command {}

@CommandHandler(RunStoredCredentialCommand)
export class RunStoredCredentialCommandHandler extends storedCredentialCommands.Handler {}

type CreateCommand = Extract<StoredCredentialCommand, { type: 'CreateStoredCredential' }>;

/**
 * What minting needs: the vault token and display data the vault answered, the owners, the scope
 * (`allowedUseTypes`) and the payer's consent. `storedCredentialId` should be derived from the
 * caller's own command id (e.g. the completing session), so a re-run mints the same credential
 * instead of a second one; a fresh UUID is used when it is left out.
 */
export type MintStoredCredentialInput = Omit<CreateCommand, 'type' | 'at' | 'storedCredentialId'> & {
  storedCredentialId?: string;
};

/**
 * Mints an ACTIVE credential (hosted-page completion; the spec has no create endpoint), with the
 * caller's metadata (its actor, request and causation). A vault token is minted once: when the
 * partner already has a credential on `vaultToken` (a re-run of the same completion), that
 * credential is answered and nothing is recorded.
 */
export class MintStoredCredential extends Command<StoredCredential> {
  constructor(
    readonly metadata: EventMetadata,
    readonly input: MintStoredCredentialInput,
  ) {
    super();
  }
}

@CommandHandler(MintStoredCredential)
export class MintStoredCredentialHandler implements ICommandHandler<MintStoredCredential, StoredCredential> {
  constructor(
    private readonly commands: CommandBus,
    private readonly reader: StoredCredentialReader,
  ) {}

  async execute({ metadata, input }: MintStoredCredential): Promise<StoredCredential> {
    const existing = await this.reader.findByVaultToken(input.partnerId, input.vaultToken);
    if (existing) {
      if (existing.merchantId !== input.merchantId) {
        throw new Error('a vault token of one merchant cannot be minted for another merchant');
      }
      return existing;
    }
    const { storedCredentialId, ...rest } = input;
    const result = await this.commands.execute(
      new RunStoredCredentialCommand(
        { ...rest, type: 'CreateStoredCredential', storedCredentialId: storedCredentialId ?? randomUUID() },
        metadata,
      ),
    );
    const credential = result.state;
    if (credential.customerId !== null) {
      // The customer now has a payment method at the gateway (`gateway_linked`).
      await linkCustomer(this.commands, metadata, {
        type: 'LinkCustomerToGateway',
        customerId: credential.customerId,
        storedCredentialId: credential.id,
      });
    }
    return credential;
  }
}

/**
 * Revokes a stored credential (DELETE; ACTIVE → REVOKED, a REVOKED one is 409
 * `invalid_state_transition`) with the caller's metadata; when it was its customer's last active
 * credential, the customer is no longer linked to the gateway.
 */
export class RevokeStoredCredential extends Command<StoredCredential> {
  constructor(
    readonly metadata: EventMetadata,
    readonly storedCredentialId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

@CommandHandler(RevokeStoredCredential)
export class RevokeStoredCredentialHandler implements ICommandHandler<
  RevokeStoredCredential,
  StoredCredential
> {
  constructor(
    private readonly commands: CommandBus,
    private readonly reader: StoredCredentialReader,
  ) {}

  async execute({ metadata, storedCredentialId, reason }: RevokeStoredCredential): Promise<StoredCredential> {
    const { state: credential } = await this.commands.execute(
      new RunStoredCredentialCommand(
        { type: 'RevokeStoredCredential', storedCredentialId, reason },
        metadata,
      ),
    );
    const customerId = credential.customerId;
    if (customerId !== null && !(await this.reader.hasActiveCredentials(customerId))) {
      await linkCustomer(this.commands, metadata, {
        type: 'UnlinkCustomerFromGateway',
        customerId,
        storedCredentialId,
      });
    }
    return credential;
  }
}

/** A customer deleted meanwhile has no link to keep: its stream refuses every command, as absent. */
async function linkCustomer(
  commands: CommandBus,
  metadata: EventMetadata,
  command: {
    type: 'LinkCustomerToGateway' | 'UnlinkCustomerFromGateway';
    customerId: string;
    storedCredentialId: string;
  },
): Promise<void> {
  try {
    await commands.execute(new RunCustomerCommand(command, metadata));
  } catch (error) {
    if (!(error instanceof CustomerNotFound)) throw error;
  }
}
