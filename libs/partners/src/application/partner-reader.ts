import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStore, appendInvalidatedCache, type RecordedEvent } from '../../../event-store/src';
import { ProjectionRunner } from '../../../projections/src';
import { CredentialDirectory, type PartnerCredential } from '../../../platform/src/auth/credential-directory';
import { RecentCache } from '../../../platform/src/cache/recent-cache';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CURRENT_API_VERSION } from '../../../platform/src/http/api-version';
import { evolve, initialState, type Partner } from '../domain/partner';
import { PartnerNotFound } from '../domain/partner-errors';
import { PARTNER_EVENT_TYPES, type PartnerEvent } from '../domain/partner-events';
import { partnerStream } from '../domain/partner-stream';

/**
 * Single-partner reads come straight from `partner-{id}` (strongly consistent: a partner sees
 * its own write at once); lists and the per-request key lookup come from read models.
 */
@Injectable()
export class PartnerReader {
  private readonly recent: RecentCache<Partner>;

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.recent = appendInvalidatedCache(store, PARTNER_EVENT_TYPES, {
      maxAgeMs: config.readCacheMaxAgeMs,
      maxEntries: CACHED_PARTNERS,
    });
  }

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

  /**
   * The partner as of at most `READ_CACHE_MAX_AGE_MS` ago (usually as of now: a change made here
   * shows at once, one made on another process as soon as its NOTIFY arrives): for the hot paths
   * that read its configuration on every request (pricing, the AVS policy). Never for an answer
   * that shows the partner: those read `get`.
   */
  getCached(partnerId: string): Promise<Partner> {
    return this.recent.get(partnerId, () => this.get(partnerId));
  }
}

/** Partners kept by each process's cache (a few kilobytes each). */
const CACHED_PARTNERS = 5_000;

/**
 * The guard's key lookup, over the `partner-access` read model, cached: a key is read once per
 * `READ_CACHE_MAX_AGE_MS` at most, and its entries are forgotten as soon as this process's runner
 * has the read model past a partner event (a key revoked, a flag switched, a partner suspended),
 * whichever process wrote it. So a change is refused everywhere within that bound (1 s), usually
 * within milliseconds. An unknown prefix is never cached.
 */
@Injectable()
export class SqlCredentialDirectory extends CredentialDirectory {
  private readonly recent: RecentCache<PartnerCredential | null>;

  constructor(
    private readonly pool: Pool,
    projections: ProjectionRunner,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.recent = new RecentCache({ maxAgeMs: config.readCacheMaxAgeMs, maxEntries: CACHED_KEYS });
    projections.onApplied('partner-access', () => this.recent.invalidate());
  }

  async findByPrefix(prefix: string): Promise<PartnerCredential | null> {
    return this.recent.get(
      prefix,
      () => this.lookUp(prefix),
      (found) => found !== null,
    );
  }

  private async lookUp(prefix: string): Promise<PartnerCredential | null> {
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

/** Keys kept by each process's cache (under a kilobyte each). */
const CACHED_KEYS = 10_000;
