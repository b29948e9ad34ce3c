import { FixedClock } from '../../platform/src/clock/clock';
import { ConcurrencyConflict } from '../../platform/src/problem';
import { WrongExpectedRevision } from './errors';
import { handleCommand, type DomainEvent } from './handle-command';
import { useTestEventStore } from '../../../test/support/event-store';
import type { PostgresEventStore } from './postgres/postgres-event-store';
import { testMetadata } from '../../../test/support/metadata';

type Counted = DomainEvent<'Counted', { by: number }>;
const counter = { initialState: () => 0, evolve: (total: number, e: Counted) => total + e.data.by };
/** A decide that adds 1 and notes the total it decided on. */
const addOne =
  (seen: number[]) =>
  (total: number): Counted[] => {
    seen.push(total);
    return [{ type: 'Counted', data: { by: 1 } }];
  };
const metadata = testMetadata({ actor: 'operator', request_id: 'req-1', idempotency_key: 'key-1' });

describe('handleCommand on the PostgreSQL event store', () => {
  const db = useTestEventStore('handle_command', new FixedClock(new Date('2026-11-01T00:00:00Z')));
  let store: PostgresEventStore;
  beforeAll(() => {
    store = db.store;
  });

  it('folds the stream, decides on the state and appends with the metadata', async () => {
    await handleCommand(store, 'counter-a', counter, () => [{ type: 'Counted', data: { by: 2 } }], metadata);
    const result = await handleCommand(
      store,
      'counter-a',
      counter,
      (total) => [{ type: 'Counted', data: { by: total } }],
      metadata,
    );
    expect(result.state).toBe(4);
    expect(result.revision).toBe(1n);
    expect(result.position).not.toBeNull();
    const events = await store.readStream('counter-a');
    expect(events.map((e) => e.data)).toEqual([{ by: 2 }, { by: 2 }]);
    expect(events[1].metadata).toEqual(metadata);
  });

  it('a re-run of a command whose events are already on the stream (same causation_id) appends nothing', async () => {
    const once = { ...metadata, causation_id: 'command-7' };
    const decide = () => [{ type: 'Counted' as const, data: { by: 5 } }];
    const first = await handleCommand(store, 'counter-rerun', counter, decide, once);
    await handleCommand(store, 'counter-rerun', counter, decide, { ...metadata, causation_id: 'command-8' });
    const again = await handleCommand(store, 'counter-rerun', counter, decide, once);
    expect(first.alreadyApplied).toBe(false);
    expect(again).toMatchObject({ alreadyApplied: true, position: first.position, state: 10 });
    expect(again.events.map((e) => e.data)).toEqual([{ by: 5 }]);
    expect(await store.readStream('counter-rerun')).toHaveLength(2);
  });

  it('appends nothing when decide returns no events', async () => {
    const result = await handleCommand(store, 'counter-b', counter, () => [], metadata);
    expect(result).toEqual({ state: 0, events: [], revision: -1n, position: null, alreadyApplied: false });
    expect(await store.readStream('counter-b')).toEqual([]);
  });

  it('on a conflict re-reads and decides again on the fresh state', async () => {
    const stream = 'counter-c';
    const original = store.readStream.bind(store);
    let raced = false;
    store.readStream = async (name, options) => {
      const events = await original(name, options);
      if (!raced) {
        raced = true; // a competitor lands between our read and our append, once
        await store.appendToStream(stream, [{ type: 'Counted', data: { by: 100 } }], {
          expectedRevision: 'any',
          metadata,
        });
      }
      return events;
    };
    const seen: number[] = [];
    try {
      const result = await handleCommand(store, stream, counter, addOne(seen), metadata);
      expect(seen).toEqual([0, 100]);
      expect(result.state).toBe(101);
      expect(result.revision).toBe(1n);
    } finally {
      store.readStream = original;
    }
  });

  describe('with the stream as the caller knows it (`known`)', () => {
    const countReads = () => {
      const original = store.readStream.bind(store);
      const reads = { n: 0, restore: () => (store.readStream = original) };
      store.readStream = async (name, options) => {
        reads.n++;
        return original(name, options);
      };
      return reads;
    };

    it('appends on the known state and revision without reading the stream', async () => {
      const first = await handleCommand(
        store,
        'counter-known',
        counter,
        () => [{ type: 'Counted', data: { by: 3 } }],
        metadata,
      );
      const reads = countReads();
      try {
        const result = await handleCommand(
          store,
          'counter-known',
          counter,
          (total) => [{ type: 'Counted', data: { by: total } }],
          metadata,
          { known: { state: first.state, revision: first.revision } },
        );
        expect(reads.n).toBe(0);
        expect(result).toMatchObject({ state: 6, revision: 1n, alreadyApplied: false });
      } finally {
        reads.restore();
      }
      expect((await store.readStream('counter-known')).map((e) => e.data)).toEqual([{ by: 3 }, { by: 3 }]);
    });

    it('a stale guess is refused by the append and the command decides again on the read stream', async () => {
      await handleCommand(
        store,
        'counter-stale',
        counter,
        () => [{ type: 'Counted', data: { by: 7 } }],
        metadata,
      );
      const reads = countReads();
      const seen: number[] = [];
      try {
        // The caller believes the stream is new; it holds one event.
        const result = await handleCommand(
          store,
          'counter-stale',
          counter,
          (total) => {
            seen.push(total);
            return [{ type: 'Counted', data: { by: 1 } }];
          },
          metadata,
          { known: { state: 0, revision: -1n } },
        );
        expect(seen).toEqual([0, 7]);
        expect(reads.n).toBe(1);
        expect(result).toMatchObject({ state: 8, revision: 1n });
      } finally {
        reads.restore();
      }
    });

    it('a stale guess still recognises a re-run: the read after the refusal finds the earlier events', async () => {
      const once = { ...metadata, causation_id: 'command-known-rerun' };
      const decide = () => [{ type: 'Counted' as const, data: { by: 4 } }];
      const first = await handleCommand(store, 'counter-known-rerun', counter, decide, once);
      const again = await handleCommand(store, 'counter-known-rerun', counter, decide, once, {
        known: { state: 0, revision: -1n },
      });
      expect(again).toMatchObject({ alreadyApplied: true, position: first.position, state: 4 });
      expect(await store.readStream('counter-known-rerun')).toHaveLength(1);
    });
  });

  it('retries a lost race and gives up with concurrency_conflict after the attempts run out', async () => {
    const stream = 'counter-d';
    let attempts = 0;
    const racingDecide = (total: number): Counted[] => {
      attempts++;
      // Simulate a competitor that appends between our read and our append, every time.
      void total;
      return [{ type: 'Counted', data: { by: 1 } }];
    };
    const competitor = async () =>
      store.appendToStream(stream, [{ type: 'Counted', data: { by: 100 } }], {
        expectedRevision: 'any',
        metadata,
      });

    const original = store.readStream.bind(store);
    store.readStream = async (name, options) => {
      const events = await original(name, options);
      await competitor();
      return events;
    };
    try {
      const outcome = await handleCommand(store, stream, counter, racingDecide, metadata, {
        maxAttempts: 3,
      }).catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(ConcurrencyConflict);
      expect(outcome).toMatchObject({ code: 'concurrency_conflict', retryable: true });
      expect(attempts).toBe(3);
      // Only the competitor's events were written: the loser wrote nothing.
      expect((await original(stream)).every((e) => (e.data as { by: number }).by === 100)).toBe(true);
    } finally {
      store.readStream = original;
    }
  });

  it("two racing commands on one stream never both win: the loser decides again on the winner's state", async () => {
    const stream = 'counter-e';
    await handleCommand(store, stream, counter, () => [{ type: 'Counted', data: { by: 1 } }], metadata);
    // Each command may only add 1 if the total is still odd: a check-then-act rule.
    const oddOnly = (total: number): Counted[] => {
      if (total % 2 === 0) throw new Error('even');
      return [{ type: 'Counted', data: { by: 1 } }];
    };
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        handleCommand(store, stream, counter, oddOnly, metadata, { maxAttempts: 10 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const events = await store.readStream(stream);
    expect(events.reduce((t, e) => t + (e.data as { by: number }).by, 0)).toBe(2);
  });

  it('commands on one stream in one process take turns: eight at once, none loses a race', async () => {
    const stream = 'counter-turns';
    const original = store.appendToStream.bind(store);
    let refused = 0;
    store.appendToStream = async (name, events, options) => {
      try {
        return await original(name, events, options);
      } catch (error) {
        if (error instanceof WrongExpectedRevision) refused++;
        throw error;
      }
    };
    const seen: number[] = [];
    try {
      await Promise.all(
        Array.from({ length: 8 }, () => handleCommand(store, stream, counter, addOne(seen), metadata)),
      );
    } finally {
      store.appendToStream = original;
    }
    // Each decided on the one before it: no stale read, no refused append, no second decision.
    expect(refused).toBe(0);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await store.readStream(stream)).toHaveLength(8);
  });
});
