import { randomUUID } from 'node:crypto';
import type { FixedClock } from '../../../platform/src/clock/clock';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import { isPassed, NO_STREAM } from '../event-store';
import type { EventMetadata, EventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../event-store';

/** What an adapter's spec hands the contract: a working store, the clock it reads, and cleanup. */
export interface EventStoreUnderTest {
  store: EventStore;
  clock: FixedClock;
  teardown: () => Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const metadata: EventMetadata = {
  actor: 'partner:p-1:key:k-1',
  partner_id: 'p-1',
  request_id: 'req-1',
  idempotency_key: 'idem-1',
  causation_id: 'cause-1',
  correlation_id: 'corr-1',
};

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one behaviour every EventStore adapter must have, written against the port only. The suite
 * shares one store across its tests (adapters may be slow to start), so each test uses streams of
 * its own and reads the global order relative to the positions it wrote; it never assumes that
 * positions are consecutive or that the store starts empty.
 */
export function describeEventStore(name: string, factory: () => Promise<EventStoreUnderTest>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let clock: FixedClock;
    let teardown: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      ({ store, clock, teardown } = await factory());
    });
    afterAll(async () => {
      await teardown?.();
    });

    const newStream = (aggregate = 'contract') => `${aggregate}-${randomUUID()}`;
    const events = (n: number, type = 'Happened'): NewEvent[] =>
      Array.from({ length: n }, (_, i) => ({ type, data: { n: i } }));
    const append = (stream: string, n: number, expectedRevision: ExpectedRevision) =>
      store.appendToStream(stream, events(n), { expectedRevision, metadata });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('expected the append to be refused');
        },
        (error: unknown) => error,
      );

    describe('appendToStream', () => {
      it('starts a new stream at revision 0 with no_stream', async () => {
        const stream = newStream();
        const result = await append(stream, 1, 'no_stream');
        expect(result.nextRevision).toBe(0n);
        const [event] = await store.readStream(stream);
        expect(event).toMatchObject({ stream, revision: 0n, type: 'Happened', data: { n: 0 } });
        expect(event.globalPosition).toBe(result.position);
      });

      it('treats NO_STREAM (-1n) as an exact expectation that the stream does not exist', async () => {
        const stream = newStream();
        expect((await append(stream, 1, NO_STREAM)).nextRevision).toBe(0n);
        const error = await refusal(append(stream, 1, NO_STREAM));
        expect(error).toBeInstanceOf(WrongExpectedRevision);
        expect(error).toMatchObject({ stream, expected: NO_STREAM, actual: 0n });
      });

      it('starts a new stream with any', async () => {
        const stream = newStream();
        expect((await append(stream, 2, 'any')).nextRevision).toBe(1n);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n]);
      });

      it('appends with the exact current revision, and with stream_exists and any on an existing stream', async () => {
        const stream = newStream();
        await append(stream, 1, 'no_stream');
        expect((await append(stream, 1, 0n)).nextRevision).toBe(1n);
        expect((await append(stream, 1, 'stream_exists')).nextRevision).toBe(2n);
        expect((await append(stream, 1, 'any')).nextRevision).toBe(3n);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n]);
      });

      it('refuses a stale revision with WrongExpectedRevision (stream, expected, actual) and writes nothing', async () => {
        const stream = newStream();
        await append(stream, 2, 'no_stream');
        const error = await refusal(append(stream, 3, 0n));
        expect(error).toBeInstanceOf(WrongExpectedRevision);
        expect(error).toMatchObject({ stream, expected: 0n, actual: 1n, code: 'concurrency_conflict' });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('refuses a revision ahead of the stream', async () => {
        const stream = newStream();
        await append(stream, 1, 'no_stream');
        const error = await refusal(append(stream, 1, 5n));
        expect(error).toBeInstanceOf(WrongExpectedRevision);
        expect(error).toMatchObject({ stream, expected: 5n, actual: 0n });
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it('refuses no_stream on an existing stream', async () => {
        const stream = newStream();
        await append(stream, 1, 'no_stream');
        const error = await refusal(append(stream, 1, 'no_stream'));
        expect(error).toBeInstanceOf(WrongExpectedRevision);
        expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 0n });
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it('refuses stream_exists and an exact revision on a missing stream, writing nothing', async () => {
        const stream = newStream();
        const missing = await refusal(append(stream, 1, 'stream_exists'));
        expect(missing).toBeInstanceOf(WrongExpectedRevision);
        expect(missing).toMatchObject({ stream, expected: 'stream_exists', actual: -1n });
        const exact = await refusal(append(stream, 1, 0n));
        expect(exact).toBeInstanceOf(WrongExpectedRevision);
        expect(exact).toMatchObject({ stream, expected: 0n, actual: -1n });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('writes several events atomically, with consecutive revisions and increasing positions', async () => {
        const stream = newStream();
        await append(stream, 1, 'no_stream');
        const result = await store.appendToStream(
          stream,
          [
            { type: 'First', data: { i: 1 } },
            { type: 'Second', data: { i: 2 } },
            { type: 'Third', data: { i: 3 } },
          ],
          { expectedRevision: 0n, metadata },
        );
        expect(result.nextRevision).toBe(3n);
        const stored = await store.readStream(stream);
        expect(stored.map((e) => [e.revision, e.type])).toEqual([
          [0n, 'Happened'],
          [1n, 'First'],
          [2n, 'Second'],
          [3n, 'Third'],
        ]);
        for (let i = 1; i < stored.length; i++) {
          expect(stored[i].globalPosition).toBeGreaterThan(stored[i - 1].globalPosition);
        }
        expect(result.position).toBe(stored[3].globalPosition);
      });

      it('refuses an append of zero events with InvalidAppend', async () => {
        const stream = newStream();
        const error = await refusal(store.appendToStream(stream, [], { expectedRevision: 'any', metadata }));
        expect(error).toBeInstanceOf(InvalidAppend);
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('refuses one event id twice in one append with InvalidAppend, writing nothing', async () => {
        const stream = newStream();
        const id = randomUUID();
        const error = await refusal(
          store.appendToStream(
            stream,
            [
              { id, type: 'A', data: {} },
              { id, type: 'B', data: {} },
            ],
            { expectedRevision: 'no_stream', metadata },
          ),
        );
        expect(error).toBeInstanceOf(InvalidAppend);
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('lets exactly one of two appends racing on the same expected revision win', async () => {
        const stream = newStream();
        await append(stream, 1, 'no_stream');
        const outcomes = await Promise.allSettled([append(stream, 1, 0n), append(stream, 2, 0n)]);
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0].reason).toBeInstanceOf(WrongExpectedRevision);
        expect(lost[0].reason).toMatchObject({ stream, expected: 0n });
        const stored = await store.readStream(stream);
        expect(stored.map((e) => e.revision)).toEqual(stored.map((_, i) => BigInt(i)));
        expect(stored.length === 2 || stored.length === 3).toBe(true);
      });

      it('gives events without an id a UUID and keeps the ids callers supply', async () => {
        const stream = newStream();
        const mine = randomUUID();
        await store.appendToStream(
          stream,
          [
            { type: 'Assigned', data: {} },
            { id: mine, type: 'Supplied', data: {} },
            { type: 'Assigned', data: {} },
          ],
          { expectedRevision: 'no_stream', metadata },
        );
        const [first, second, third] = await store.readStream(stream);
        expect(first.id).toMatch(UUID);
        expect(third.id).toMatch(UUID);
        expect(first.id).not.toBe(third.id);
        expect(second.id).toBe(mine);
      });

      it("records every event with the clock's now", async () => {
        const stream = newStream();
        const at = new Date('2031-05-06T07:08:09.123Z');
        clock.set(at);
        await append(stream, 2, 'no_stream');
        clock.advance(60_000);
        await append(stream, 1, 1n);
        const stored = await store.readStream(stream);
        expect(stored.map((e) => e.recordedAt.toISOString())).toEqual([
          '2031-05-06T07:08:09.123Z',
          '2031-05-06T07:08:09.123Z',
          '2031-05-06T07:09:09.123Z',
        ]);
      });

      it('round-trips metadata exactly, with values and with nulls', async () => {
        const stream = newStream();
        const empty: EventMetadata = {
          actor: 'system:worker',
          partner_id: null,
          request_id: null,
          idempotency_key: null,
          causation_id: null,
          correlation_id: null,
        };
        await store.appendToStream(stream, events(1), { expectedRevision: 'no_stream', metadata });
        await store.appendToStream(stream, events(1), { expectedRevision: 0n, metadata: empty });
        const [first, second] = await store.readStream(stream);
        expect(first.metadata).toStrictEqual(metadata);
        expect(second.metadata).toStrictEqual(empty);
        const [fromAll] = await store.readAll({ fromPosition: second.globalPosition, limit: 1 });
        expect(fromAll.metadata).toStrictEqual(empty);
      });

      it('round-trips nested data: strings, integers, booleans, nulls, arrays, unicode; amounts stay strings', async () => {
        const stream = newStream();
        const data = {
          amount: { value: '123456789012345678901234567890.99', currency: 'EUR' },
          minorUnits: 1099,
          negative: -42,
          zero: 0,
          maxSafe: Number.MAX_SAFE_INTEGER,
          flags: [true, false, null],
          nested: { deeper: { deepest: ['a', { b: 'c' }, []], empty: {} } },
          text: 'Zürich "quoted" \\ back\\slash\nnew line \t tab ✓ 🚀 日本',
          blank: '',
          nothing: null,
        };
        await store.appendToStream(stream, [{ type: 'PaymentCaptured', data }], {
          expectedRevision: 'no_stream',
          metadata,
        });
        const [event] = await store.readStream(stream);
        expect(event.data).toStrictEqual(data);
        expect(typeof (event.data as typeof data).amount.value).toBe('string');
        const [fromAll] = await store.readAll({ fromPosition: event.globalPosition, limit: 1 });
        expect(fromAll.data).toStrictEqual(data);
      });
    });

    describe('readStream', () => {
      it('reads an unknown stream as empty', async () => {
        expect(await store.readStream(newStream())).toEqual([]);
      });

      it('reads from a revision (inclusive), with a limit, and only the stream asked for', async () => {
        const stream = newStream();
        const other = newStream();
        await append(stream, 3, 'no_stream');
        await append(other, 2, 'no_stream');
        await append(stream, 3, 2n);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
        expect((await store.readStream(stream, { fromRevision: 2n })).map((e) => e.revision)).toEqual([
          2n,
          3n,
          4n,
          5n,
        ]);
        expect(
          (await store.readStream(stream, { fromRevision: 1n, limit: 2 })).map((e) => e.revision),
        ).toEqual([1n, 2n]);
        expect(await store.readStream(stream, { fromRevision: 6n })).toEqual([]);
        expect((await store.readStream(stream)).every((e) => e.stream === stream)).toBe(true);
      });
    });

    describe('readAll', () => {
      it('returns every stream in global order, from a position (inclusive), with a limit', async () => {
        const a = newStream('alpha');
        const b = newStream('beta');
        await append(a, 1, 'no_stream');
        await append(b, 1, 'no_stream');
        await append(a, 2, 0n);
        await append(b, 1, 0n);
        const mine = [...(await store.readStream(a)), ...(await store.readStream(b))].sort((x, y) =>
          x.globalPosition < y.globalPosition ? -1 : 1,
        );
        const key = (e: RecordedEvent) => `${e.stream}@${e.revision}`;
        expect(mine.map(key)).toEqual([`${a}@0`, `${b}@0`, `${a}@1`, `${a}@2`, `${b}@1`]);

        const first = mine[0].globalPosition;
        const all = await store.readAll({ fromPosition: first });
        expect(all.slice(0, 5)).toEqual(mine);
        for (let i = 1; i < all.length; i++)
          expect(all[i].globalPosition).toBeGreaterThan(all[i - 1].globalPosition);

        expect((await store.readAll({ fromPosition: first, limit: 2 })).map(key)).toEqual([
          `${a}@0`,
          `${b}@0`,
        ]);
        expect((await store.readAll({ fromPosition: mine[2].globalPosition, limit: 2 })).map(key)).toEqual([
          `${a}@1`,
          `${a}@2`,
        ]);
        expect((await store.readAll({ fromPosition: mine[4].globalPosition + 1n })).map(key)).not.toContain(
          `${b}@1`,
        );
      });

      it('reads from the start by default', async () => {
        const page = await store.readAll({ limit: 3 });
        expect(page.length).toBeGreaterThan(0);
        expect(page.length).toBeLessThanOrEqual(3);
        expect(page[0].globalPosition).toBeGreaterThanOrEqual(1n);
      });
    });

    describe('readAllOf', () => {
      it('reads what readAll reads, in the same order, with only the given types whole', async () => {
        const stream = newStream('mixed');
        await store.appendToStream(
          stream,
          [
            { type: 'Wanted', data: { n: 1, note: 'kept' } },
            { type: 'Ignored', data: { n: 2 } },
            { type: 'Wanted', data: { n: 3 } },
            { type: 'AlsoIgnored', data: { n: 4 } },
          ],
          { expectedRevision: 'no_stream', metadata },
        );
        const [first] = await store.readStream(stream, { limit: 1 });
        const all = await store.readAll({ fromPosition: first.globalPosition, limit: 4 });
        const read = await store.readAllOf(['Wanted'], { fromPosition: first.globalPosition, limit: 4 });

        expect(read.map((e) => e.globalPosition)).toEqual(all.map((e) => e.globalPosition));
        expect(read.map((e) => e.type)).toEqual(['Wanted', 'Ignored', 'Wanted', 'AlsoIgnored']);
        expect(read[0]).toEqual(all[0]);
        expect(read[2]).toEqual(all[2]);
        for (const i of [1, 3]) {
          expect(isPassed(read[i])).toBe(true);
          expect(read[i]).toEqual({ globalPosition: all[i].globalPosition, type: all[i].type, passed: true });
        }
        // No type asked for: every event passed over (a reader counting positions only).
        const none = await store.readAllOf([], { fromPosition: first.globalPosition, limit: 4 });
        expect(none.every(isPassed)).toBe(true);
        expect(none.map((e) => e.globalPosition)).toEqual(all.map((e) => e.globalPosition));
      });
    });

    describe('headPosition', () => {
      it('is the position of the newest event', async () => {
        const result = await append(newStream(), 2, 'no_stream');
        expect(await store.headPosition()).toBe(result.position);
        const [newest] = await store.readAll({ fromPosition: result.position });
        expect(newest.globalPosition).toBe(result.position);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up from a position (inclusive), then delivers live events in order', async () => {
        const stream = newStream('sub');
        await append(stream, 3, 'no_stream');
        const [, second] = await store.readStream(stream);
        const seen: RecordedEvent[] = [];
        const subscription = store.subscribeToAll({ fromPosition: second.globalPosition }, async (event) => {
          if (event.stream === stream) seen.push(event);
        });
        try {
          await waitUntil(() => seen.length === 2, 'catch-up');
          await append(stream, 1, 2n);
          await append(stream, 2, 3n);
          await waitUntil(() => seen.length === 5, 'live events');
          expect(seen.map((e) => e.revision)).toEqual([1n, 2n, 3n, 4n, 5n]);
          expect(seen[0]).toEqual(second);
          for (let i = 1; i < seen.length; i++) {
            expect(seen[i].globalPosition).toBeGreaterThan(seen[i - 1].globalPosition);
          }
        } finally {
          await subscription.stop();
        }
        await expect(subscription.done).resolves.toBeUndefined();
      });

      it('awaits the handler: one event at a time, in global order', async () => {
        const stream = newStream('sub');
        const { position } = await append(stream, 1, 'no_stream');
        let running = 0;
        let overlapped = false;
        const positions: bigint[] = [];
        const subscription = store.subscribeToAll({ fromPosition: position }, async (event) => {
          running++;
          if (running > 1) overlapped = true;
          await sleep(5);
          positions.push(event.globalPosition);
          running--;
        });
        try {
          await append(stream, 3, 0n);
          await append(stream, 2, 3n);
          await waitUntil(() => positions.length >= 6, 'six events');
          expect(overlapped).toBe(false);
          expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
        } finally {
          await subscription.stop();
        }
      });

      it('stop() resolves once the running handler has finished, and nothing is delivered after it', async () => {
        const stream = newStream('sub');
        await append(stream, 2, 'no_stream');
        const [first] = await store.readStream(stream);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let calls = 0;
        let finished = false;
        const subscription = store.subscribeToAll({ fromPosition: first.globalPosition }, async (event) => {
          if (event.stream !== stream) return;
          calls++;
          await gate;
          finished = true;
        });
        await waitUntil(() => calls === 1, 'the first event');
        let stopped = false;
        const stopping = subscription.stop().then(() => (stopped = true));
        await sleep(100);
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(finished).toBe(true);
        await append(stream, 1, 1n);
        await sleep(300);
        expect(calls).toBe(1);
        await expect(subscription.done).resolves.toBeUndefined();
      });

      it('a failing handler ends the subscription: done rejects and later events are not delivered', async () => {
        const stream = newStream('sub');
        await append(stream, 3, 'no_stream');
        const [first] = await store.readStream(stream);
        const delivered: bigint[] = [];
        const failure = new Error('projector broke');
        const subscription = store.subscribeToAll({ fromPosition: first.globalPosition }, async (event) => {
          if (event.stream !== stream) return;
          delivered.push(event.revision);
          if (event.revision === 1n) throw failure;
        });
        await expect(subscription.done).rejects.toBe(failure);
        expect(delivered).toEqual([0n, 1n]);
        await subscription.stop();
      });
    });
  });
}
