import { Clock } from './clock';

/**
 * The sandbox clock: real time plus an offset that operators advance through
 * `POST /platform/sandbox/clock`. The offset itself is kept as events on the `sandbox_clock`
 * stream by the app (`apps/api/src/sandbox/sandbox-clock-store.ts`), so it survives restarts
 * and every advance is audited; this class only knows the offset it was given.
 */
export class SandboxClock extends Clock {
  private offset = 0;

  constructor(private readonly realNow: () => number = () => Date.now()) {
    super();
  }

  now(): Date {
    return new Date(this.realNow() + this.offset);
  }

  /** The sandbox time for a given offset, without moving to it. */
  at(offsetMs: number): Date {
    return new Date(this.realNow() + offsetMs);
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Moves to an offset read from (or just written to) the stream. */
  setOffset(offsetMs: number): void {
    this.offset = offsetMs;
  }
}
