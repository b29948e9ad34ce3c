import { EventStore, NO_STREAM, type EventMetadata } from '../../../../libs/event-store/src';
import { SandboxClock } from '../../../../libs/platform/src/clock/sandbox-clock';

/** The DI token of the app's SandboxClockStore (null in production). */
export const SANDBOX_CLOCK = Symbol('SandboxClockStore');

/** Where sandbox time is kept: one stream, one event per advance (CONTRACT §2). */
export const SANDBOX_CLOCK_STREAM = 'sandbox_clock-main';

export interface SandboxClockAdvanced {
  type: 'SandboxClockAdvanced';
  data: { advanceSeconds: number; offsetMs: number; now: string };
}

/**
 * The persistence of the sandbox clock: its offset is the fold of `sandbox_clock-main`, loaded
 * at start, re-read before every advance, and followed while the service runs (`refresh`, every
 * second and before every read of the clock route), so two processes on one database agree on
 * sandbox time: an advance through one reaches the other's schedules within a second.
 */
export class SandboxClockStore {
  private revision = NO_STREAM;

  constructor(
    readonly clock: SandboxClock,
    private readonly store: EventStore,
  ) {}

  /** Reads the persisted offset; call once at start, before serving. */
  async load(): Promise<void> {
    const events = await this.store.readStream(SANDBOX_CLOCK_STREAM);
    for (const event of events) {
      this.clock.setOffset((event.data as SandboxClockAdvanced['data']).offsetMs);
      this.revision = event.revision;
    }
  }

  /** Applies advances recorded since the last read (by this process or another). */
  async refresh(): Promise<void> {
    const from = this.revision === NO_STREAM ? 0n : this.revision + 1n;
    const events = await this.store.readStream(SANDBOX_CLOCK_STREAM, { fromRevision: from });
    for (const event of events) {
      if (event.revision <= this.revision) continue;
      this.clock.setOffset((event.data as SandboxClockAdvanced['data']).offsetMs);
      this.revision = event.revision;
    }
  }

  /** Moves sandbox time forward (never back: TTLs and windows only ever elapse). */
  async advance(advanceSeconds: number, metadata: EventMetadata): Promise<Date> {
    if (!Number.isInteger(advanceSeconds) || advanceSeconds < 1) {
      throw new RangeError('advance_seconds must be a positive whole number');
    }
    await this.load();
    const offsetMs = this.clock.offsetMs + advanceSeconds * 1000;
    const now = this.clock.at(offsetMs);
    const appended = await this.store.appendToStream(
      SANDBOX_CLOCK_STREAM,
      [{ type: 'SandboxClockAdvanced', data: { advanceSeconds, offsetMs, now: now.toISOString() } }],
      { expectedRevision: this.revision === NO_STREAM ? 'no_stream' : this.revision, metadata },
    );
    this.clock.setOffset(offsetMs);
    this.revision = appended.nextRevision;
    return now;
  }
}
