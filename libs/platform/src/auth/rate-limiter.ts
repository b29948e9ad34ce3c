import { performance } from 'node:perf_hooks';
import type { RateWindows, WindowGrant } from './rate-windows';

/**
 * Request-rate limits per partner, by the partner's `rate_limit_tier` (docs/rate-limits.md).
 * Fixed 60-second windows shared by every process on the database: each process reserves a small
 * share of a partner's window budget at a time ({@link RateWindows.reserve}, one upsert) and spends
 * it in memory, so a request costs a round trip only when its process's share is spent. The
 * windows run on the database's real time, never the sandbox clock: the limit protects the
 * machine, which does not age when an operator advances the sandbox clock.
 */
export const RATE_LIMITS = {
  SANDBOX: 120,
  STANDARD: 600,
  ELEVATED: 1_500,
  ENTERPRISE: 6_000,
} as const;

export type RateLimitTier = keyof typeof RATE_LIMITS;

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/**
 * A process reserves at most this share of a window's budget at once (1/20: 6 requests of
 * SANDBOX's 120, 300 of ENTERPRISE's 6,000). While other processes hold reserved requests they
 * have not used, this process may refuse early: at most `(processes - 1) × share` of the limit.
 */
export const RESERVATION_SHARE = 20;

/** The largest reservation one process makes for a window whose budget is `limit`. */
export function reservationSize(limit: number): number {
  return Math.max(1, Math.ceil(limit / RESERVATION_SHARE));
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests the caller can still count on in this window (others' unused reservations excluded). */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** This process's share of one key's current window. */
interface Allowance {
  window: number;
  /** When the window ends, on this process's monotonic clock. */
  endsAt: number;
  /** Requests reserved and not yet spent here. */
  unspent: number;
  /** The window's reservations of every process together, as of this process's last one. */
  reserved: number;
}

/** A key whose window is spent waits for it to end; a reservation that keeps coming back empty is a refusal. */
const MAX_RESERVATIONS_PER_REQUEST = 3;
/** How often windows that ended are dropped from memory. */
const FORGET_EVERY_MS = 60_000;

export class RateLimiter {
  private readonly allowances = new Map<string, Allowance>();
  private readonly reserving = new Map<string, Promise<void>>();
  private forgottenAt: number;

  constructor(
    private readonly windows: RateWindows,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.forgottenAt = now();
  }

  /**
   * One request of `key` against its tier's budget. Synchronous while this process holds part of
   * the window's budget; otherwise it reserves more first (a promise).
   */
  take(key: string, tier: string): RateDecision | Promise<RateDecision> {
    const limit = RATE_LIMITS[tier as RateLimitTier] ?? RATE_LIMITS.STANDARD;
    return this.spend(key, limit) ?? this.reserveAndSpend(key, limit);
  }

  /** A decision from what this process holds, or null when it must reserve first. */
  private spend(key: string, limit: number): RateDecision | null {
    const allowance = this.allowances.get(key);
    const now = this.now();
    if (!allowance || now >= allowance.endsAt) return null;
    const resetSeconds = Math.max(1, Math.ceil((allowance.endsAt - now) / 1000));
    if (allowance.unspent > 0) {
      allowance.unspent -= 1;
      const remaining = Math.max(0, limit - allowance.reserved + allowance.unspent);
      return { allowed: true, limit, remaining, resetSeconds };
    }
    if (allowance.reserved >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    return null;
  }

  private async reserveAndSpend(key: string, limit: number): Promise<RateDecision> {
    for (let attempt = 1; ; attempt++) {
      await this.reserve(key, limit);
      const decision = this.spend(key, limit);
      if (decision) return decision;
      // Only when every grant went to requests that were waiting with this one.
      if (attempt === MAX_RESERVATIONS_PER_REQUEST) {
        const allowance = this.allowances.get(key);
        const left = allowance ? Math.max(0, allowance.endsAt - this.now()) : 1000;
        return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(left / 1000)) };
      }
    }
  }

  /** One reservation per key at a time: requests arriving meanwhile wait for it. */
  private reserve(key: string, limit: number): Promise<void> {
    const pending = this.reserving.get(key);
    if (pending) return pending;
    const reservation = this.windows
      .reserve(key, limit, reservationSize(limit))
      .then((grant) => this.keep(key, grant))
      .finally(() => this.reserving.delete(key));
    this.reserving.set(key, reservation);
    return reservation;
  }

  private keep(key: string, grant: WindowGrant): void {
    const now = this.now();
    this.forgetEndedWindows(now);
    const endsAt = now + grant.endsInMs;
    const allowance = this.allowances.get(key);
    if (allowance && allowance.window === grant.window) {
      allowance.unspent += grant.granted;
      allowance.reserved = Math.max(allowance.reserved, grant.reserved);
      allowance.endsAt = endsAt;
    } else {
      this.allowances.set(key, {
        window: grant.window,
        endsAt,
        unspent: grant.granted,
        reserved: grant.reserved,
      });
    }
  }

  private forgetEndedWindows(now: number): void {
    if (now - this.forgottenAt < FORGET_EVERY_MS) return;
    this.forgottenAt = now;
    for (const [key, allowance] of this.allowances) if (now >= allowance.endsAt) this.allowances.delete(key);
  }
}
