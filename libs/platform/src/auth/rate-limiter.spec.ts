import { RATE_LIMITS, RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the tier limit per window, refuses the next, and resets after the window', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let i = 1; i <= RATE_LIMITS.SANDBOX; i++) {
      const d = limiter.take('p1', 'SANDBOX');
      expect(d).toMatchObject({ allowed: true, limit: 120, remaining: 120 - i });
    }
    now = 15_000;
    expect(limiter.take('p1', 'SANDBOX')).toEqual({
      allowed: false,
      limit: 120,
      remaining: 0,
      resetSeconds: 45,
    });
    expect(limiter.take('p2', 'SANDBOX').allowed).toBe(true); // per partner
    now = 60_000;
    expect(limiter.take('p1', 'SANDBOX')).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('never announces a reset beyond the window, whatever the clock reads', () => {
    // 78412.74481788311 + 60000 - 78412.74481788311 is 60000.00000000001 in floating point.
    for (const start of [78412.74481788311, 2982.291561, 0.1, 1e9 + 0.3]) {
      const limiter = new RateLimiter(() => start);
      expect(limiter.take('p', 'SANDBOX').resetSeconds).toBe(60);
    }
  });

  it('uses the STANDARD limit for an unknown tier', () => {
    expect(new RateLimiter(() => 0).take('p', 'NOPE').limit).toBe(RATE_LIMITS.STANDARD);
  });
});
