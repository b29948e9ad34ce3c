import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStore, type RecordedEvent } from '../../../event-store/src';
import { CredentialDirectory, type PartnerCredential } from '../../../platform/src/auth/credential-directory';
import { CURRENT_API_VERSION } from '../../../platform/src/http/api-version';
import { evolve, initialState, type Partner } from '../domain/partner';
import { PartnerNotFound } from '../domain/partner-errors';
import type { PartnerEvent } from '../domain/partner-events';
import { partnerStream } from '../domain/partner-stream';

/**
 * Single-partner reads come straight from `partner-{id}` (strongly consistent: a partner sees
 * its own write at once); lists and the per-request key lookup come from read models.
 */
@Injectable()
export class PartnerReader {
  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
  ) {}

  /** `live_merchant_count`: the partner's merchants in state LIVE (merchant-list read model). */
  async liveMerchantCount(partnerId: string): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(
      "select count(*)::int as count from merchant_list where partner_id = $1 and state = 'LIVE'",
      [partnerId],
    );
    return rows[0].count;
  }

  async history(partnerId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(partnerStream(partnerId));
  }

  async find(partnerId: string): Promise<Partner | null> {
    const events = await this.history(partnerId);
    return events.reduce<Partner | null>(
      (state, e) => evolve(state, { type: e.type, data: e.data } as PartnerEvent),
      initialState(),
    );
  }

  async get(partnerId: string): Promise<Partner> {
    const partner = await this.find(partnerId);
    if (!partner) throw new PartnerNotFound(partnerId);
    return partner;
  }
}

/** The guard's key lookup, over the `partner-access` read model. */
@Injectable()
export class SqlCredentialDirectory extends CredentialDirectory {
  constructor(private readonly pool: Pool) {
    super();
  }

  async findByPrefix(prefix: string): Promise<PartnerCredential | null> {
    const { rows } = await this.pool.query<{
      key_id: string;
      prefix: string;
      partner_id: string;
      key_hash: string;
      scopes: string[];
      enabled_features: string[];
      ip_allowlist: string[];
      rate_limit_tier: string;
      api_version: string | null;
    }>({
      name: 'partners.credential_by_prefix',
      text: `select k.key_id, k.prefix, k.partner_id, k.key_hash, k.scopes,
              a.enabled_features, a.ip_allowlist, a.rate_limit_tier,
              a.snapshot #>> '{configuration,apiVersion}' as api_version
         from api_keys k join partner_access a on a.partner_id = k.partner_id
        where k.prefix = $1`,
      values: [prefix],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      keyId: row.key_id,
      prefix: row.prefix,
      partnerId: row.partner_id,
      keyHash: row.key_hash,
      scopes: row.scopes,
      enabledFeatures: row.enabled_features,
      ipAllowlist: row.ip_allowlist,
      rateLimitTier: row.rate_limit_tier,
      apiVersion: row.api_version ?? CURRENT_API_VERSION,
    };
  }
}
