import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  enabledFeatures,
  evolve,
  type Partner,
  PARTNER_EVENT_TYPES,
  type PartnerEvent,
} from '../../libs/partners/src';

/**
 * What the auth guard reads on every request: live API keys by prefix (`api_keys`) and each
 * partner's rate-limit tier, enabled features and IP allow-list (`partner_access`).
 *
 * The projector folds the partner aggregate's own `evolve` over a JSON snapshot, so the guard
 * sees exactly what the command side decided, and a new partner event needs no projector change.
 * Rotated and deleted keys lose their row: an unknown prefix is a 401.
 */
export class PartnerAccessProjector {
  readonly name = 'partner-access';
  readonly eventTypes = PARTNER_EVENT_TYPES;
  readonly tables = ['partner_access', 'api_keys'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as PartnerEvent;
    // From the stream name: not every partner event repeats the partner id in its data.
    const partnerId = recorded.stream.slice('partner-'.length);
    const rows = (await tx.query('select snapshot from partner_access where partner_id = $1', [
      partnerId,
    ])) as { snapshot: Partner }[];
    const partner = evolve(rows[0]?.snapshot ?? null, event);
    if (!partner) return;

    await tx.query(
      `insert into partner_access (partner_id, rate_limit_tier, enabled_features, ip_allowlist, snapshot, revision)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (partner_id) do update set
         rate_limit_tier = excluded.rate_limit_tier, enabled_features = excluded.enabled_features,
         ip_allowlist = excluded.ip_allowlist, snapshot = excluded.snapshot, revision = excluded.revision`,
      [
        partnerId,
        partner.rateLimitTier,
        enabledFeatures(partner.configuration),
        partner.configuration.ipAllowlist,
        JSON.stringify(partner),
        recorded.revision.toString(),
      ],
    );
    if (event.type.startsWith('ApiKey')) {
      await tx.query('delete from api_keys where partner_id = $1', [partnerId]);
      for (const key of Object.values(partner.apiKeys)) {
        if (key.revokedAt) continue;
        await tx.query(
          `insert into api_keys (prefix, key_id, partner_id, key_hash, scopes, created_at, secret_issued_at)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [key.prefix, key.id, partnerId, key.keyHash, key.scopes, key.createdAt, key.secretIssuedAt],
        );
      }
    }
  }
}
