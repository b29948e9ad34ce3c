import { Readable } from 'node:stream';
import {
  END,
  START,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendResult as KurrentAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type ReadAllOptions as KurrentReadAllOptions,
  type ReadStreamOptions as KurrentReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { FixedClock } from '../../../platform/src/clock/clock';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import type { EventMetadata, RecordedEvent } from '../event-store';
import {
  KurrentDbEventStore,
  type KurrentDbClientLike,
  type KurrentLiveSubscription,
} from './kurrentdb-event-store';

/**
 * A stand-in for a KurrentDB node with the behaviour the adapter relies on (see ADR 0002): one log
 * of variable-size records whose positions are byte offsets; `$all` reads start only at the first
 * byte of a record (anything else is an "invalid position" error) unless the position is past the
 * end; forward reads are inclusive, subscriptions start after their position, backward reads
 * return the records that end at or before theirs; the event-type filter runs on the server.
 */
interface FakeRecord {
  position: bigint;
  size: bigint;
  streamId: string;
  type: string;
  id: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  created: Date;
}

class FakeLive extends Readable implements KurrentLiveSubscription {
  unsubscribed = 0;

  constructor(private readonly onUnsubscribe: (live: FakeLive) => void) {
    super({ objectMode: true, read: () => undefined });
  }

  async unsubscribe(): Promise<void> {
    this.unsubscribed += 1;
    // Like the gRPC client: cancelling does not necessarily end the readable side.
    this.onUnsubscribe(this);
  }
}

class FakeKurrentDb implements KurrentDbClientLike {
  readonly records: FakeRecord[] = [];
  private readonly boundaries = new Set<bigint>([0n]);
  private end = 128n; // an epoch record (not an event) fills [0, 128)
  private readonly live = new Map<FakeLive, { after: bigint; regex?: RegExp }>();
  readonly readAllCalls: KurrentReadAllOptions[] = [];
  readonly subscribeCalls: SubscribeToAllOptions[] = [];
  appendCalls = 0;
  disposed = 0;
  omitAppendPosition = false;
  failAppendsWithoutThrowing = false;
  failNextReadAll: Error | undefined;

  write(
    streamId: string,
    type: string,
    data: unknown,
    metadata: unknown = undefined,
    id?: string,
  ): FakeRecord {
    const revision = BigInt(this.records.filter((r) => r.streamId === streamId).length);
    const json = JSON.stringify(data);
    const record: FakeRecord = {
      position: this.end,
      size: 64n + BigInt(json.length),
      streamId,
      type,
      id: id ?? `00000000-0000-4000-8000-${String(this.records.length).padStart(12, '0')}`,
      revision,
      data: JSON.parse(json) as unknown,
      metadata: metadata === undefined ? undefined : (JSON.parse(JSON.stringify(metadata)) as unknown),
      created: new Date('2040-01-01T00:00:00.000Z'),
    };
    this.records.push(record);
    this.boundaries.add(record.position);
    this.end += record.size;
    for (const [live, { regex }] of this.live) {
      if (!regex || regex.test(record.type)) live.push(this.resolved(record));
    }
    return record;
  }

  get endPosition(): bigint {
    return this.end;
  }

  private resolved(record: FakeRecord): AllStreamResolvedEvent {
    return {
      event: {
        streamId: record.streamId,
        id: record.id,
        isJson: true,
        revision: record.revision,
        type: record.type,
        created: record.created,
        data: record.data,
        metadata: record.metadata,
        position: { commit: record.position, prepare: record.position },
      },
      commitPosition: record.position,
    } as AllStreamResolvedEvent;
  }

  async appendToStream(
    streamName: string,
    events: EventData[],
    options: AppendToStreamOptions,
  ): Promise<KurrentAppendResult> {
    this.appendCalls += 1;
    const existing = this.records.filter((r) => r.streamId === streamName);
    const current = existing.length === 0 ? undefined : existing[existing.length - 1].revision;
    const state = options.streamState ?? 'any';
    const ok =
      state === 'any' ||
      (state === 'no_stream' && current === undefined) ||
      (state === 'stream_exists' && current !== undefined) ||
      (typeof state === 'bigint' && current === state);
    if (!ok) {
      if (this.failAppendsWithoutThrowing) return { success: false, nextExpectedRevision: current ?? -1n };
      throw new WrongExpectedVersionError(undefined, {
        streamName,
        expected: state,
        current: current ?? 'no_stream',
      });
    }
    let last: FakeRecord | undefined;
    for (const event of events) {
      expect(event.contentType).toBe('application/json');
      last = this.write(streamName, event.type, event.data, event.metadata, event.id);
    }
    return {
      success: true,
      nextExpectedRevision: last!.revision,
      position: this.omitAppendPosition ? undefined : { commit: last!.position, prepare: last!.position },
    };
  }

  readStream(streamName: string, options: KurrentReadStreamOptions): AsyncIterable<ResolvedEvent> {
    const records = this.records.filter((r) => r.streamId === streamName);
    const from =
      options.fromRevision === undefined || options.fromRevision === START ? 0n : options.fromRevision;
    const max = options.maxCount === undefined ? Infinity : Number(options.maxCount);
    const resolved = (r: FakeRecord): AllStreamResolvedEvent => this.resolved(r);
    return (async function* () {
      if (records.length === 0) throw new StreamNotFoundError(undefined, streamName);
      yield* records
        .filter((r) => r.revision >= (from as bigint))
        .slice(0, max)
        .map(resolved);
    })();
  }

  readAll(options: KurrentReadAllOptions): AsyncIterable<AllStreamResolvedEvent> {
    this.readAllCalls.push(options);
    const failure = this.failNextReadAll;
    this.failNextReadAll = undefined;
    const regex = options.filter && 'regex' in options.filter ? new RegExp(options.filter.regex) : undefined;
    const max = options.maxCount === undefined ? Infinity : Number(options.maxCount);
    const from = options.fromPosition ?? START;
    const backwards = options.direction === 'backwards';
    const boundaries = this.boundaries;
    const end = this.end;
    const records = this.records;
    const resolved = (r: FakeRecord): AllStreamResolvedEvent => this.resolved(r);
    return (async function* () {
      if (failure) throw failure;
      let selected: FakeRecord[];
      if (!backwards) {
        if (from === END) selected = [];
        else if (from === START) selected = records;
        else if (from.commit >= end) selected = [];
        else if (!boundaries.has(from.commit)) throw new UnknownError(undefined, 'Invalid position');
        else selected = records.filter((r) => r.position >= from.commit);
      } else {
        if (from === START) selected = [];
        else if (from === END) selected = [...records].reverse();
        else if (from.commit !== end && !boundaries.has(from.commit)) {
          throw new UnknownError(undefined, 'Invalid position');
        } else selected = records.filter((r) => r.position + r.size <= from.commit).reverse();
      }
      yield* selected
        .filter((r) => !regex || regex.test(r.type))
        .slice(0, max)
        .map(resolved);
    })();
  }

  subscribeToAll(options: SubscribeToAllOptions): KurrentLiveSubscription {
    this.subscribeCalls.push(options);
    const live = new FakeLive((l) => this.live.delete(l));
    const regex = options.filter && 'regex' in options.filter ? new RegExp(options.filter.regex) : undefined;
    const from = options.fromPosition ?? START;
    if (from === END) throw new Error('the fake does not subscribe from END');
    if (from !== START && !this.boundaries.has(from.commit)) {
      setImmediate(() => live.destroy(new UnknownError(undefined, 'Invalid position')));
      return live;
    }
    const after = from === START ? -1n : from.commit;
    for (const r of this.records) {
      if (r.position > after && (!regex || regex.test(r.type))) live.push(this.resolved(r));
    }
    this.live.set(live, { after, regex });
    return live;
  }

  liveSubscriptions(): FakeLive[] {
    return [...this.live.keys()];
  }

  async dispose(): Promise<void> {
    this.disposed += 1;
  }
}

const METADATA: EventMetadata = {
  actor: 'operator',
  partner_id: 'p_1',
  request_id: 'req_1',
  idempotency_key: null,
  causation_id: null,
  correlation_id: 'corr_1',
};
const NOW = new Date('2025-06-01T12:00:00.000Z');

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('KurrentDbEventStore (against a fake KurrentDB client)', () => {
  let db: FakeKurrentDb;
  let clock: FixedClock;
  let store: KurrentDbEventStore;

  beforeEach(() => {
    db = new FakeKurrentDb();
    clock = new FixedClock(NOW);
    store = new KurrentDbEventStore(db, clock, { pageSize: 2 });
  });

  afterEach(async () => {
    await store.close();
  });

  const append = (stream: string, types: string[], expectedRevision: bigint | 'any' | 'no_stream' = 'any') =>
    store.appendToStream(
      stream,
      types.map((type, i) => ({ type, data: { i } })),
      { expectedRevision, metadata: METADATA },
    );

  describe('appendToStream and readStream', () => {
    it('appends atomically and reports the revision and position of the last event', async () => {
      const result = await append('payment-1', ['A', 'B', 'C'], 'no_stream');
      expect(result.nextRevision).toBe(2n);
      expect(result.position).toBe(db.records[2].position);
      expect(typeof result.position).toBe('bigint');

      const events = await store.readStream('payment-1');
      expect(events.map((e) => [e.type, e.revision, e.globalPosition])).toEqual([
        ['A', 0n, db.records[0].position],
        ['B', 1n, db.records[1].position],
        ['C', 2n, db.records[2].position],
      ]);
      expect(events[2].metadata).toStrictEqual(METADATA);
      expect(events[2].recordedAt).toEqual(NOW);
      expect(events[2].data).toEqual({ i: 2 });
      expect(events[0].globalPosition).toBeLessThan(events[1].globalPosition);
    });

    it('stores recorded_at from our clock and the $ conventions in the metadata', async () => {
      clock.set(new Date('2030-02-03T04:05:06.007Z'));
      await append('payment-1', ['A']);
      expect(db.records[0].metadata).toStrictEqual({
        ...METADATA,
        recorded_at: '2030-02-03T04:05:06.007Z',
        $correlationId: 'corr_1',
      });
      const [event] = await store.readStream('payment-1');
      expect(event.recordedAt).toEqual(new Date('2030-02-03T04:05:06.007Z'));
    });

    it('keeps given event ids', async () => {
      const id = '0d4cbd3f-2a8e-4f4e-9d55-0d3e4c1b2a10';
      await store.appendToStream('payment-1', [{ id, type: 'A', data: {} }], {
        expectedRevision: 'any',
        metadata: METADATA,
      });
      expect(db.records[0].id).toBe(id);
      expect((await store.readStream('payment-1'))[0].id).toBe(id);
    });

    it('reads from a revision with a limit', async () => {
      await append('payment-1', ['A', 'B', 'C', 'D']);
      const events = await store.readStream('payment-1', { fromRevision: 1n, limit: 2 });
      expect(events.map((e) => e.type)).toEqual(['B', 'C']);
      await expect(store.readStream('payment-1', { limit: 0 })).resolves.toEqual([]);
      await expect(store.readStream('payment-1', { limit: -1 })).rejects.toThrow(RangeError);
    });

    it('reads a missing stream as empty', async () => {
      await expect(store.readStream('payment-404')).resolves.toEqual([]);
    });

    it('throws WrongExpectedRevision with the actual revision and writes nothing', async () => {
      await append('payment-1', ['A', 'B', 'C']);
      await expect(append('payment-1', ['X'], 'no_stream')).rejects.toMatchObject({
        name: 'WrongExpectedRevision',
        stream: 'payment-1',
        expected: 'no_stream',
        actual: 2n,
      });
      await expect(append('payment-1', ['X'], 1n)).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(
        store.appendToStream('payment-2', [{ type: 'X', data: {} }], {
          expectedRevision: 'stream_exists',
          metadata: METADATA,
        }),
      ).rejects.toMatchObject({ expected: 'stream_exists', actual: -1n });
      expect((await store.readStream('payment-1')).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(await store.readStream('payment-2')).toEqual([]);
    });

    it('appends at the expected revision', async () => {
      await append('payment-1', ['A']);
      await expect(append('payment-1', ['B'], 0n)).resolves.toMatchObject({ nextRevision: 1n });
    });

    it('throws WrongExpectedRevision when the client answers success: false', async () => {
      db.failAppendsWithoutThrowing = true;
      await append('payment-1', ['A']);
      await expect(append('payment-1', ['B'], 'no_stream')).rejects.toMatchObject({
        name: 'WrongExpectedRevision',
        actual: 0n,
      });
    });

    it('reads the position back when the server does not report one', async () => {
      db.omitAppendPosition = true;
      await append('payment-1', ['A']);
      const result = await append('payment-1', ['B', 'C']);
      expect(result.position).toBe(db.records[2].position);
    });

    it('refuses invalid appends before reaching the server', async () => {
      await expect(
        store.appendToStream('payment-1', [], { expectedRevision: 'any', metadata: METADATA }),
      ).rejects.toThrow(InvalidAppend);
      await expect(append('$payment-1', ['A'])).rejects.toThrow(InvalidAppend);
      await expect(append('payment-1', ['$A'])).rejects.toThrow(InvalidAppend);
      expect(db.appendCalls).toBe(0);
    });
  });

  describe('readAll', () => {
    let events: RecordedEvent[];

    beforeEach(async () => {
      await append('payment-1', ['P1', 'P2']);
      db.write('$stats-127.0.0.1:2113', '$statsCollected', { cpu: 1 });
      await append('order-1', ['O1']);
      db.write('$projections-$all', 'ProjectionUpdated', { x: 1 }); // user-typed, system stream
      db.write('payment-1', '$>', '0@order-1'); // a link
      await append('order-2', ['O2', 'O3']);
      events = await store.readAll();
    });

    it('returns every event in commit order without system events', () => {
      expect(events.map((e) => e.type)).toEqual(['P1', 'P2', 'O1', 'O2', 'O3']);
      for (let i = 1; i < events.length; i++) {
        expect(events[i].globalPosition).toBeGreaterThan(events[i - 1].globalPosition);
      }
      expect(events[2]).toMatchObject({
        stream: 'order-1',
        revision: 0n,
        metadata: METADATA,
        recordedAt: NOW,
      });
    });

    it('filters system events on the server too', () => {
      expect(db.readAllCalls[db.readAllCalls.length - 1].filter).toMatchObject({
        filterOn: 'eventType',
        regex: '^[^$].*',
      });
    });

    it('resumes after the last event seen (position + 1) with one read', async () => {
      db.readAllCalls.length = 0;
      const next = await store.readAll({ fromPosition: events[1].globalPosition + 1n });
      expect(next.map((e) => e.type)).toEqual(['O1', 'O2', 'O3']);
      expect(db.readAllCalls).toHaveLength(1);
      expect(db.readAllCalls[0].fromPosition).toEqual({
        commit: events[1].globalPosition,
        prepare: events[1].globalPosition,
      });
    });

    it("starts at an event's own position, inclusive", async () => {
      const next = await store.readAll({ fromPosition: events[2].globalPosition });
      expect(next.map((e) => e.type)).toEqual(['O1', 'O2', 'O3']);
    });

    it('reads from the start for positions before the first event', async () => {
      for (const fromPosition of [0n, 1n, 2n, 100n]) {
        expect((await store.readAll({ fromPosition })).map((e) => e.type)).toEqual([
          'P1',
          'P2',
          'O1',
          'O2',
          'O3',
        ]);
      }
    });

    it('is empty past the head', async () => {
      await expect(store.readAll({ fromPosition: events[4].globalPosition + 1n })).resolves.toEqual([]);
      await expect(store.readAll({ fromPosition: db.endPosition + 12345n })).resolves.toEqual([]);
    });

    it('refuses a position inside the log that is not an event position or one past it', async () => {
      await expect(store.readAll({ fromPosition: events[2].globalPosition + 7n })).rejects.toThrow(
        RangeError,
      );
    });

    it('pages with limits, and never returns fewer than the limit while more events exist', async () => {
      const seen: string[] = [];
      let from = 1n;
      for (;;) {
        const page = await store.readAll({ fromPosition: from, limit: 2 });
        if (page.length === 0) break;
        expect(page.length === 2 || seen.length + page.length === events.length).toBe(true);
        seen.push(...page.map((e) => e.type));
        from = page[page.length - 1].globalPosition + 1n;
      }
      expect(seen).toEqual(['P1', 'P2', 'O1', 'O2', 'O3']);
    });

    it('keeps reading when system-stream events the server let through fill a page', async () => {
      // After O1 come a user-typed event in a $ stream (dropped here) and O2, O3.
      const page = await store.readAll({ fromPosition: events[2].globalPosition + 1n, limit: 1 });
      expect(page.map((e) => e.type)).toEqual(['O2']);
    });

    it('answers limit 0 without reading and refuses bad limits', async () => {
      db.readAllCalls.length = 0;
      await expect(store.readAll({ limit: 0 })).resolves.toEqual([]);
      expect(db.readAllCalls).toHaveLength(0);
      await expect(store.readAll({ limit: 1.5 })).rejects.toThrow(RangeError);
    });

    it('does not retry from another position when the server is unavailable', async () => {
      db.readAllCalls.length = 0;
      db.failNextReadAll = new UnavailableError();
      await expect(store.readAll({ fromPosition: events[2].globalPosition })).rejects.toBeInstanceOf(
        UnavailableError,
      );
      expect(db.readAllCalls).toHaveLength(1);
    });
  });

  describe('readAllOf', () => {
    it('reads every event in order, whole for the given types and passed over for the others', async () => {
      await append('payment-1', ['Wanted', 'Other', 'Wanted']);
      const all = await store.readAll();
      const read = await store.readAllOf(['Wanted']);
      expect(read.map((e) => e.globalPosition)).toEqual(all.map((e) => e.globalPosition));
      expect(read[0]).toEqual(all[0]);
      expect(read[2]).toEqual(all[2]);
      expect(read[1]).toEqual({ globalPosition: all[1].globalPosition, type: 'Other', passed: true });
    });
  });

  describe('headPosition', () => {
    it('is 0 for a store with no events of ours', async () => {
      await expect(store.headPosition()).resolves.toBe(0n);
      db.write('$stats-1', '$statsCollected', {});
      await expect(store.headPosition()).resolves.toBe(0n);
    });

    it('is the position of the newest non-system event', async () => {
      await append('payment-1', ['A', 'B']);
      db.write('$stats-1', '$statsCollected', {});
      db.write('$projections-x', 'ProjectionUpdated', {});
      await expect(store.headPosition()).resolves.toBe(db.records[1].position);
    });
  });

  describe('subscribeToAll', () => {
    it('catches up, then follows new events, in order and one at a time', async () => {
      await append('payment-1', ['A', 'B', 'C']);
      db.write('$stats-1', '$statsCollected', {});
      const seen: string[] = [];
      let running = 0;
      let maxRunning = 0;
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        seen.push(event.type);
        running -= 1;
      });
      await waitFor(() => seen.length === 3, 'catch-up');
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      await append('order-1', ['D', 'E']);
      db.write('$stats-1', '$statsCollected', {});
      await append('order-2', ['F']);
      await waitFor(() => seen.length === 6, 'live events');
      await subscription.stop();
      expect(seen).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
      expect(maxRunning).toBe(1);
      // Live from after the last event caught up, with the system-event filter.
      expect(db.subscribeCalls[0].fromPosition).toEqual({
        commit: db.records[2].position,
        prepare: db.records[2].position,
      });
      expect(db.subscribeCalls[0].filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
    });

    it('starts at fromPosition, inclusive', async () => {
      await append('payment-1', ['A', 'B', 'C']);
      const seen: bigint[] = [];
      const subscription = store.subscribeToAll({ fromPosition: db.records[1].position }, async (event) => {
        seen.push(event.globalPosition);
      });
      await waitFor(() => seen.length === 2, 'events');
      await subscription.stop();
      expect(seen).toEqual([db.records[1].position, db.records[2].position]);
    });

    it('delivers nothing twice and nothing before fromPosition when nothing was there to catch up', async () => {
      await append('payment-1', ['A']);
      const from = db.endPosition + 5000n;
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ fromPosition: from }, async (event) => {
        seen.push(event.type);
      });
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      // Live from after the head seen before catching up.
      expect(db.subscribeCalls[0].fromPosition).toEqual({
        commit: db.records[0].position,
        prepare: db.records[0].position,
      });
      await append('payment-1', ['before']); // lands below `from`
      await store.appendToStream('payment-1', [{ type: 'big', data: { pad: 'x'.repeat(6000) } }], {
        expectedRevision: 'any',
        metadata: METADATA,
      });
      await append('payment-1', ['after']);
      await waitFor(() => seen.length === 1, 'the first event at or after fromPosition');
      await subscription.stop();
      expect(db.records.find((r) => r.type === 'big')!.position).toBeLessThan(from);
      expect(seen).toEqual(['after']);
    });

    it('stops on a handler failure and rejects done', async () => {
      await append('payment-1', ['A', 'B', 'C']);
      const failure = new Error('projection broke');
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event.type);
        if (event.type === 'B') throw failure;
      });
      await expect(subscription.done).rejects.toBe(failure);
      await append('payment-1', ['D']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual(['A', 'B']);
    });

    it('stops on a handler failure in the live phase and unsubscribes', async () => {
      const failure = new Error('projection broke');
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async () => {
        throw failure;
      });
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      const [live] = db.liveSubscriptions();
      await append('payment-1', ['A']);
      await expect(subscription.done).rejects.toBe(failure);
      expect(live.unsubscribed).toBe(1);
    });

    it('rejects done when the server subscription fails or ends', async () => {
      const failing = store.subscribeToAll({ fromPosition: 1n }, async () => undefined);
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      db.liveSubscriptions()[0].destroy(new UnavailableError());
      await expect(failing.done).rejects.toBeInstanceOf(UnavailableError);

      const ending = store.subscribeToAll({ fromPosition: 1n }, async () => undefined);
      await waitFor(() => db.liveSubscriptions().length === 1, 'the second live subscription');
      db.liveSubscriptions()[0].push(null);
      await expect(ending.done).rejects.toThrow(/ended unexpectedly/);
    });

    it('stop() unsubscribes, resolves done and delivers nothing more', async () => {
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event.type);
      });
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      const [live] = db.liveSubscriptions();
      await append('payment-1', ['A']);
      await waitFor(() => seen.length === 1, 'A');
      await subscription.stop();
      await expect(subscription.done).resolves.toBeUndefined();
      expect(live.unsubscribed).toBe(1);
      await append('payment-1', ['B']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual(['A']);
    });

    it('stops while the handler runs, after it returns', async () => {
      await append('payment-1', ['A', 'B']);
      let release!: () => void;
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async (event) => {
        seen.push(event.type);
        await new Promise<void>((resolve) => (release = resolve));
      });
      await waitFor(() => seen.length === 1, 'A');
      const stopped = subscription.stop();
      release();
      await stopped;
      expect(seen).toEqual(['A']);
    });
  });

  describe('close', () => {
    it('stops subscriptions, refuses further use and leaves an injected client open', async () => {
      const subscription = store.subscribeToAll({ fromPosition: 1n }, async () => undefined);
      await waitFor(() => db.liveSubscriptions().length === 1, 'the live subscription');
      await store.close();
      await expect(subscription.done).resolves.toBeUndefined();
      expect(db.disposed).toBe(0);
      await expect(store.readAll()).rejects.toThrow(/closed/);
      expect(() => store.subscribeToAll({ fromPosition: 1n }, async () => undefined)).toThrow(/closed/);
    });

    it('disposes a client it owns', async () => {
      const owning = new KurrentDbEventStore(db, clock, { ownsClient: true });
      await owning.close();
      await owning.close();
      expect(db.disposed).toBe(1);
    });
  });

  describe('fromConnectionString', () => {
    it.each([
      'kurrentdb://localhost:2113?tls=false',
      'kurrent://localhost:2113?tls=false',
      'kurrentdb+discover://localhost:2113?tls=false',
    ])('builds a store from %s without connecting', async (url) => {
      const built = KurrentDbEventStore.fromConnectionString(url, clock);
      expect(built).toBeInstanceOf(KurrentDbEventStore);
      await built.close();
    });

    it('accepts EventStoreDB esdb:// URLs', async () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        const built = KurrentDbEventStore.fromConnectionString('esdb://localhost:2113?tls=false', clock);
        await built.close();
      } finally {
        warn.mockRestore();
      }
    });

    it('refuses other schemes without echoing credentials', () => {
      expect(() =>
        KurrentDbEventStore.fromConnectionString('http://admin:s3cret@localhost:2113', clock),
      ).toThrow(/not a KurrentDB connection string \(scheme "http"\)/);
      try {
        KurrentDbEventStore.fromConnectionString('http://admin:s3cret@localhost:2113', clock);
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret');
      }
    });
  });
});
