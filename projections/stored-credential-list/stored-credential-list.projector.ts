import { SnapshotListProjector } from '../../libs/projections/src';
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
 * scoped, `vault_token` unique). A revoked credential keeps its row with `state = 'REVOKED'` (the
 * list shows it only when asked for `state=REVOKED`).
 */
export class StoredCredentialListProjector extends SnapshotListProjector<StoredCredential> {
  constructor() {
    super({
      name: 'stored-credential-list',
      table: 'stored_credential_list',
      eventTypes: STORED_CREDENTIAL_EVENT_TYPES,
      streamPrefix: STORED_CREDENTIAL_STREAM_PREFIX,
      evolve: (state, event) => evolve(state, event as StoredCredentialEvent),
      columns: (credential) => ({
        vault_token: credential.vaultToken,
        partner_id: credential.partnerId,
        merchant_id: credential.merchantId,
        customer_id: credential.customerId,
        state: credential.state,
        created_at: credential.createdAt,
        version: credential.version,
      }),
    });
  }
}
