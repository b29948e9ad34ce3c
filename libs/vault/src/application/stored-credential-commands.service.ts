import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { EventMetadata } from '../../../event-store/src';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import type { StoredCredentialCommand } from '../domain/decide';
import type { StoredCredential } from '../domain/stored-credential';
import {
  ExecuteStoredCredentialCommand,
  type StoredCredentialCommandInput,
  type StoredCredentialResult,
} from './stored-credential-commands';
import { StoredCredentialReader } from './stored-credential-reader';

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

/** The projection every stored-credential write waits for, so the list answers it at once. */
export const STORED_CREDENTIAL_LIST = 'stored-credential-list';

/**
 * The stored-credential writes: minting (called by hosted-page completion, never by an HTTP
 * route: the spec has no create endpoint) and revoking (DELETE). Each runs the command, then
 * waits until `stored-credential-list` has it, so a list or a vault-token lookup that follows
 * sees the write.
 */
@Injectable()
export class StoredCredentialCommands {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly reader: StoredCredentialReader,
  ) {}

  /**
   * Mints an ACTIVE credential; `metadata` is the caller's (its actor, request and causation).
   * A vault token is minted once: when the partner already has a credential on `vaultToken` (a
   * re-run of the same completion), that credential is answered and nothing is recorded.
   */
  async mint(metadata: EventMetadata, input: MintStoredCredentialInput): Promise<StoredCredential> {
    const existing = await this.reader.findByVaultToken(input.partnerId, input.vaultToken);
    if (existing) {
      if (existing.merchantId !== input.merchantId) {
        throw new Error('a vault token of one merchant cannot be minted for another merchant');
      }
      return existing;
    }
    const { storedCredentialId, ...rest } = input;
    const result = await this.run(
      { ...rest, type: 'CreateStoredCredential', storedCredentialId: storedCredentialId ?? randomUUID() },
      metadata,
    );
    return result.credential;
  }

  /**
   * Revokes (ACTIVE → REVOKED; a REVOKED one is 409 `invalid_state_transition`). The reason is
   * trimmed, blank means none, at most 500 characters; it is kept in the event's data.
   */
  async revoke(
    request: FastifyRequest,
    partnerId: string,
    storedCredentialId: string,
    reason: string | null,
  ): Promise<StoredCredential> {
    const result = await this.run(
      { type: 'RevokeStoredCredential', storedCredentialId, reason },
      metadataOf(request, partnerId),
    );
    return result.credential;
  }

  private async run(
    command: StoredCredentialCommandInput,
    metadata: EventMetadata,
  ): Promise<StoredCredentialResult> {
    const result = await this.commands.execute(new ExecuteStoredCredentialCommand(command, metadata));
    if (result.position !== null) await this.projections.waitFor(result.position, [STORED_CREDENTIAL_LIST]);
    return result;
  }
}
