import { performance } from 'node:perf_hooks';

/**
 * Request-rate limits per partner, by the partner's `rate_limit_tier` (docs/rate-limits.md).
 * A fixed 60-second window per partner, in memory: the service is one process, so one counter
 * per partner is exact. It runs on real (monotonic) time, not the sandbox clock, because it
 * protects the machine, which does not age when an operator advances the sandbox clock.
 */
export const RATE_LIMITS = {
  SANDBOX: 120,
  STANDARD: 600,
  ELEVATED: 1_500,
  ENTERPRISE: 6_000,
} as const;

export type RateLimitTier = keyof typeof RATE_LIMITS;

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(partnerId: string, tier: string): RateDecision {
    const limit = RATE_LIMITS[tier as RateLimitTier] ?? RATE_LIMITS.STANDARD;
    const now = this.now();
    const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
    let window = this.windows.get(partnerId);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(partnerId, window);
    }
    // From the elapsed time (never negative: the clock is monotonic), not `startedAt + windowMs -
    // now`, whose floating-point rounding can exceed the window and announce a 61-second reset.
    const elapsed = Math.max(0, now - window.startedAt);
    const resetSeconds = Math.max(1, Math.ceil((windowMs - elapsed) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
  }
}
