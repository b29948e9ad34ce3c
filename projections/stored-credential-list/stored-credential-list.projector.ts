import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  evolve,
  type StoredCredential,
  STORED_CREDENTIAL_EVENT_TYPES,
  type StoredCredentialEvent,
  STORED_CREDENTIAL_STREAM_PREFIX,
} from '../../libs/vault/src';

/**
 * `stored_credential_list`: one row per stored credential, for `GET
 * /merchants/{id}/stored-credentials` and for finding a credential by its vault token (partner
 * scoped, `vault_token` unique). Built by folding the aggregate's own `evolve` over a JSON
 * snapshot, so the list can never disagree with the credential read. A revoked credential keeps
 * its row with `state = 'REVOKED'` (the list shows it only when asked for `state=REVOKED`).
 */
export class StoredCredentialListProjector {
  readonly name = 'stored-credential-list';
  readonly eventTypes = STORED_CREDENTIAL_EVENT_TYPES;
  readonly tables = ['stored_credential_list'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice(STORED_CREDENTIAL_STREAM_PREFIX.length);
    const rows = (await tx.query(
      'select snapshot, created_position from stored_credential_list where id = $1',
      [id],
    )) as { snapshot: StoredCredential; created_position: string }[];
    const credential = evolve(rows[0]?.snapshot ?? null, {
      type: recorded.type,
      data: recorded.data,
    } as StoredCredentialEvent);
    if (!credential) return;
    await tx.query(
      `insert into stored_credential_list (id, vault_token, partner_id, merchant_id, customer_id, state,
         created_at, created_position, version, snapshot)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (id) do update set
         state = excluded.state, version = excluded.version, snapshot = excluded.snapshot`,
      [
        credential.id,
        credential.vaultToken,
        credential.partnerId,
        credential.merchantId,
        credential.customerId,
        credential.state,
        credential.createdAt,
        rows[0]?.created_position ?? recorded.globalPosition.toString(),
        credential.version,
        JSON.stringify(credential),
      ],
    );
  }
}
