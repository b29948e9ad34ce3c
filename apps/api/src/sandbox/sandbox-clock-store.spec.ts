import { useTestEventStore } from '../../../../test/support/event-store';
import type { PostgresEventStore } from '../../../../libs/event-store/src/postgres/postgres-event-store';
import { SandboxClock } from '../../../../libs/platform/src/clock/sandbox-clock';
import { testMetadata } from '../../../../test/support/metadata';
import { SANDBOX_CLOCK_STREAM, SandboxClockStore } from './sandbox-clock-store';

const metadata = testMetadata({ actor: 'operator', request_id: 'req-clock', idempotency_key: 'clock-1' });

describe('the sandbox clock', () => {
  const real = Date.parse('2026-11-01T00:00:00.000Z');
  const clock = new SandboxClock(() => real);

  const db = useTestEventStore('sandbox_clock', clock);
  let store: PostgresEventStore;
  let clocks: SandboxClockStore;
  beforeAll(() => {
    store = db.store;
    clocks = new SandboxClockStore(clock, store);
  });

  it('runs on real time until advanced', () => {
    expect(clock.now().toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('advances, records the advance as an event, and stamps later events with sandbox time', async () => {
    const now = await clocks.advance(3600, metadata);
    expect(now.toISOString()).toBe('2026-11-01T01:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-11-01T01:00:00.000Z');
    const [event] = await store.readStream(SANDBOX_CLOCK_STREAM);
    expect(event).toMatchObject({
      type: 'SandboxClockAdvanced',
      data: { advanceSeconds: 3600, offsetMs: 3_600_000 },
      metadata,
      // The advance itself happened at the old sandbox time...
      recordedAt: new Date('2026-11-01T00:00:00.000Z'),
    });
    // ...and everything after it is stamped with the new one.
    await store.appendToStream('probe-1', [{ type: 'Probe', data: {} }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    expect((await store.readStream('probe-1'))[0].recordedAt).toEqual(new Date('2026-11-01T01:00:00.000Z'));
  });

  it('survives a restart: a new clock loads the offset from the stream', async () => {
    await clocks.advance(60, metadata);
    const restarted = new SandboxClock(() => real);
    await new SandboxClockStore(restarted, store).load();
    expect(restarted.now().toISOString()).toBe('2026-11-01T01:01:00.000Z');
  });

  it('does not lose an advance made by another process', async () => {
    const other = new SandboxClockStore(new SandboxClock(() => real), store);
    await other.load();
    await other.advance(10, metadata);
    await clocks.advance(10, metadata); // reloads before appending
    expect(clock.now().toISOString()).toBe('2026-11-01T01:01:20.000Z');
  });

  it('follows advances another process makes (refresh)', async () => {
    const other = new SandboxClockStore(new SandboxClock(() => real), store);
    await other.load();
    await other.advance(30, metadata);
    expect(clock.now().toISOString()).toBe('2026-11-01T01:01:20.000Z');
    await clocks.refresh();
    expect(clock.now().toISOString()).toBe('2026-11-01T01:01:50.000Z');
    await clocks.refresh(); // nothing new: unchanged
    expect(clock.now().toISOString()).toBe('2026-11-01T01:01:50.000Z');
  });

  it('refuses to go backwards or by a fraction', async () => {
    await expect(clocks.advance(0, metadata)).rejects.toThrow(RangeError);
    await expect(clocks.advance(-5, metadata)).rejects.toThrow(RangeError);
    await expect(clocks.advance(1.5, metadata)).rejects.toThrow(RangeError);
  });
});
