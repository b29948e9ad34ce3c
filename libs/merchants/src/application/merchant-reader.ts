import { Inject, Injectable } from '@nestjs/common';
import { AggregateReader, EventStore, appendInvalidatedCache } from '../../../event-store/src';
import type { RecentCache } from '../../../platform/src/cache/recent-cache';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { MERCHANT_STREAM_EVENT_TYPES, type Merchant } from '../domain/merchant';
import { merchantAggregate } from './merchant-commands';

/**
 * One merchant, straight from its stream. A merchant of another partner reads exactly like one
 * that does not exist: 404 `merchant_not_found` (spec Authentication, the two cases are
 * indistinguishable by design).
 */
@Injectable()
export class MerchantReader extends AggregateReader<Merchant> {
  private readonly recent: RecentCache<Merchant | null>;

  constructor(store: EventStore, @Inject(APP_CONFIG) config: AppConfig) {
    super(store, merchantAggregate);
    this.recent = appendInvalidatedCache(store, MERCHANT_STREAM_EVENT_TYPES, {
      maxAgeMs: config.readCacheMaxAgeMs,
      maxEntries: CACHED_MERCHANTS,
    });
  }

  /**
   * `getForPartner` as of at most `READ_CACHE_MAX_AGE_MS` ago (usually as of now: a change made
   * here shows at once, one made on another process as soon as its NOTIFY arrives), for the hot
   * paths that check a merchant on every request (a charge, a hosted page): a suspended merchant
   * is refused everywhere within that bound. Never for an answer that shows the merchant.
   */
  async getForPartnerCached(merchantId: string, partnerId: string): Promise<Merchant> {
    const merchant = await this.recent.get(
      merchantId,
      () => this.find(merchantId),
      (found) => found !== null,
    );
    return this.ownedBy(merchant, merchantId, partnerId);
  }
}

/** Merchants kept by each process's cache (a few kilobytes each). */
const CACHED_MERCHANTS = 10_000;
