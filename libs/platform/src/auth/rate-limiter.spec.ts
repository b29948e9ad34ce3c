import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { RATE_LIMITS, RateLimiter, reservationSize, type RateDecision } from './rate-limiter';
import { MemoryRateWindows, PostgresRateWindows, type RateWindows } from './rate-windows';

/** Counts the reservations a limiter makes (each one is a database round trip in the service). */
class CountingWindows implements RateWindows {
  calls = 0;
  constructor(private readonly inner: RateWindows) {}
  reserve(key: string, limit: number, want: number) {
    this.calls += 1;
    return this.inner.reserve(key, limit, want);
  }
}

describe('RateLimiter', () => {
  let now = 0;
  const limiterOn = (windows: RateWindows) => new RateLimiter(windows, () => now);

  it('allows the tier limit per window, refuses the next, and resets with the next window', async () => {
    now = 0;
    const limiter = limiterOn(new MemoryRateWindows(() => now));
    for (let i = 1; i <= RATE_LIMITS.SANDBOX; i++) {
      const d = await limiter.take('p1', 'SANDBOX');
      expect(d).toMatchObject({ allowed: true, limit: 120, remaining: 120 - i });
    }
    now = 15_000;
    expect(await limiter.take('p1', 'SANDBOX')).toEqual({
      allowed: false,
      limit: 120,
      remaining: 0,
      resetSeconds: 45,
    });
    expect((await limiter.take('p2', 'SANDBOX')).allowed).toBe(true); // per key
    now = 60_000;
    expect(await limiter.take('p1', 'SANDBOX')).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('reserves a share of the window at a time and spends it without asking again', async () => {
    now = 0;
    const windows = new CountingWindows(new MemoryRateWindows(() => now));
    const limiter = limiterOn(windows);
    expect(reservationSize(RATE_LIMITS.ENTERPRISE)).toBe(300);
    for (let i = 0; i < 600; i++) {
      const d = limiter.take('p', 'ENTERPRISE');
      // Within a reservation the decision is immediate (no promise, no round trip).
      if (i % 300 !== 0) expect((d as RateDecision).allowed).toBe(true);
      else expect((await d).allowed).toBe(true);
    }
    expect(windows.calls).toBe(2);
  });

  it('requests arriving while a reservation is under way wait for that one', async () => {
    now = 0;
    const windows = new CountingWindows(new MemoryRateWindows(() => now));
    const limiter = limiterOn(windows);
    const decisions = await Promise.all(Array.from({ length: 6 }, () => limiter.take('p', 'SANDBOX')));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(windows.calls).toBe(1);
  });

  it('never announces a reset beyond the window, whatever the clock reads', async () => {
    for (const start of [78412.74481788311, 2982.291561, 0.1, 1e9 + 0.3]) {
      now = start;
      const limiter = limiterOn(new MemoryRateWindows(() => now));
      const reset = (await limiter.take('p', 'SANDBOX')).resetSeconds;
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
  });

  it('uses the STANDARD limit for an unknown tier', async () => {
    expect((await limiterOn(new MemoryRateWindows(() => 0)).take('p', 'NOPE')).limit).toBe(
      RATE_LIMITS.STANDARD,
    );
  });
});

describe('rate windows shared through PostgreSQL', () => {
  let url: string;
  let pool: Pool;
  let windows: PostgresRateWindows;

  beforeAll(async () => {
    url = await createTestDatabase('rate_windows');
    pool = new Pool({ connectionString: url, max: 12 });
    await PostgresRateWindows.migrate(pool);
    await PostgresRateWindows.migrate(pool); // idempotent itself
    windows = new PostgresRateWindows(pool);
  });
  afterAll(async () => {
    await pool.end();
    await dropTestDatabase(url);
  });

  it('grants at most the limit in a window, whoever asks, and says how much is left of the window', async () => {
    const key = `p-${Math.random()}`;
    const grants = await Promise.all(Array.from({ length: 40 }, () => windows.reserve(key, 120, 6)));
    const windowsSeen = new Set(grants.map((g) => g.window));
    // A window boundary may fall between two reservations: count each window on its own.
    for (const window of windowsSeen) {
      const granted = grants.filter((g) => g.window === window).reduce((sum, g) => sum + g.granted, 0);
      expect(granted).toBeLessThanOrEqual(120);
    }
    if (windowsSeen.size === 1) {
      expect(grants.reduce((sum, g) => sum + g.granted, 0)).toBe(120);
      expect(Math.max(...grants.map((g) => g.reserved))).toBe(120);
    }
    for (const grant of grants) {
      expect(grant.endsInMs).toBeGreaterThan(0);
      expect(grant.endsInMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('three processes on one database: never more than the limit together, and refusals start at most (processes - 1) shares early', async () => {
    const key = `partner-${Math.random()}`;
    const processes = [0, 1, 2].map(() => new RateLimiter(new PostgresRateWindows(pool)));
    const limit = RATE_LIMITS.SANDBOX;
    const share = reservationSize(limit);
    // Requests arrive round-robin at the three processes, a few at a time, until all three refuse.
    let allowed = 0;
    let firstRefusalAt: number | null = null;
    const windowsSeen = new Set<number>();
    for (let round = 0; round < 80; round++) {
      const decisions = await Promise.all(processes.map((p) => p.take(key, 'SANDBOX')));
      for (const decision of decisions) {
        if (decision.allowed) allowed += 1;
        else firstRefusalAt ??= allowed;
      }
      const { rows } = await pool.query<{ w: string }>(
        'select window_index::text as w from platform.rate_limit_windows where key = $1',
        [key],
      );
      rows.forEach((row) => windowsSeen.add(Number(row.w)));
    }
    if (windowsSeen.size > 1) return; // the run straddled a window boundary: nothing to conclude
    // Every reservation is spent in the end: the limit exactly, never more.
    expect(allowed).toBe(limit);
    expect(firstRefusalAt).not.toBeNull();
    expect(firstRefusalAt!).toBeGreaterThanOrEqual(limit - (processes.length - 1) * share);
  });
});
