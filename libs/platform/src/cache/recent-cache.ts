/** How long a cached entry may be served at most, by default (docs/adr/0008-write-path.md). */
export const DEFAULT_CACHE_MAX_AGE_MS = 1000;

export interface RecentCacheOptions {
  /** An entry older than this is loaded again, whatever else happened: the staleness bound. 0: no caching. */
  maxAgeMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries: number;
  /** Monotonic milliseconds; `performance.now()` unless a test gives its own. */
  now?: () => number;
}

/**
 * A read-through cache for what every request reads (the API key's principal, the partner, the
 * merchant, the stored credential), so that a request costs no round trip for them. Its owner
 * calls `invalidate()` when what it caches may have changed (an append of one of its event
 * types, here or in another process), and an entry is never served once older than `maxAgeMs`,
 * which bounds the staleness when a notification is late or lost.
 *
 * A load that started before an invalidation is not cached (it may have read the old value):
 * every invalidation moves the generation, and a load only fills the generation it began in.
 * Values are shared between callers and must not be changed by them.
 */
export class RecentCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: RecentCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, loaded when missing or too old; `keep` says whether a loaded value is cached. */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.options.maxAgeMs <= 0) return load();
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.at < this.options.maxAgeMs) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && keep(value)) {
      this.entries.delete(key);
      if (this.entries.size >= this.options.maxEntries) {
        this.entries.delete(this.entries.keys().next().value as string);
      }
      this.entries.set(key, { value, at: now });
    }
    return value;
  }

  /** Forgets everything, and keeps loads already under way from filling in what they read. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}
