import type { EventStore } from '../../../event-store/src/event-store';
import { NO_STREAM } from '../../../event-store/src/event-store';
import { Clock } from './clock';

/**
 * The sandbox clock: real time plus an offset that operators advance through
 * `POST /platform/sandbox/clock`. The offset is the fold of the `sandbox_clock` stream, so it
 * survives restarts and every advance is an audited event like any other state change.
 */
export const SANDBOX_CLOCK_STREAM = 'sandbox_clock-main';

export interface SandboxClockAdvanced {
  type: 'SandboxClockAdvanced';
  data: { advanceSeconds: number; offsetMs: number; now: string };
}

export class SandboxClock extends Clock {
  private offsetMs = 0;
  private revision = NO_STREAM;

  constructor(private readonly realNow: () => number = () => Date.now()) {
    super();
  }

  now(): Date {
    return new Date(this.realNow() + this.offsetMs);
  }

  /** Reads the persisted offset; call once at start, before serving. */
  async load(store: EventStore): Promise<void> {
    const events = await store.readStream(SANDBOX_CLOCK_STREAM);
    for (const event of events) {
      this.offsetMs = (event.data as SandboxClockAdvanced['data']).offsetMs;
      this.revision = event.revision;
    }
  }

  /** Moves sandbox time forward (never back: TTLs and windows only ever elapse). */
  async advance(
    store: EventStore,
    advanceSeconds: number,
    metadata: Parameters<EventStore['appendToStream']>[2]['metadata'],
  ): Promise<Date> {
    if (!Number.isInteger(advanceSeconds) || advanceSeconds < 1) {
      throw new RangeError('advance_seconds must be a positive whole number');
    }
    await this.load(store); // another process may have advanced it
    const offsetMs = this.offsetMs + advanceSeconds * 1000;
    const now = new Date(this.realNow() + offsetMs);
    const appended = await store.appendToStream(
      SANDBOX_CLOCK_STREAM,
      [{ type: 'SandboxClockAdvanced', data: { advanceSeconds, offsetMs, now: now.toISOString() } }],
      { expectedRevision: this.revision === NO_STREAM ? 'no_stream' : this.revision, metadata },
    );
    this.offsetMs = offsetMs;
    this.revision = appended.nextRevision;
    return now;
  }
}
