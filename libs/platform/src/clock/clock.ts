/**
 * The only source of "now" in the system. Production uses {@link SystemClock}; sandbox uses a
 * persisted, operator-advanced clock so TTLs, windows, schedules and idempotency expiry can be
 * exercised without waiting. Nothing else may read `Date.now()` or `new Date()` for a rule.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests set by hand. */
export class FixedClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(at: Date): void {
    this.current = new Date(at.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
