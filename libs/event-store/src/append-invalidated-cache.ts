import { RecentCache, type RecentCacheOptions } from '../../platform/src/cache/recent-cache';
import type { EventStore } from './event-store';

/**
 * A {@link RecentCache} of state folded from streams, forgotten whenever an event of `types` is
 * appended: at once for this process's appends (before they return), and as the store hears of
 * other processes' (PostgreSQL's NOTIFY, a few milliseconds later). Its age bound covers a
 * notification that is late or lost (docs/adr/0008-write-path.md).
 */
export function appendInvalidatedCache<V>(
  store: EventStore,
  types: readonly string[],
  options: RecentCacheOptions,
): RecentCache<V> {
  const cache = new RecentCache<V>(options);
  const watched = new Set(types);
  if (options.maxAgeMs > 0) {
    store.onAppended((appended) => {
      if (appended === null || appended.some((type) => watched.has(type))) cache.invalidate();
    });
  }
  return cache;
}
