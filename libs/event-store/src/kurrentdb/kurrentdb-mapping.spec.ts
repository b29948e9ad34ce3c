import {
  AccessDeniedError,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import { NO_STREAM, type EventMetadata } from '../event-store';
import {
  UNKNOWN_ACTOR,
  checkAppendResult,
  collectStream,
  fromCurrentStreamState,
  fromKurrentMetadata,
  fromKurrentPosition,
  globalPositionOf,
  isKurrentDbUrl,
  isStreamNotFound,
  isSystemEvent,
  mayBeInvalidPosition,
  toKurrentMetadata,
  toKurrentPosition,
  toRecordedEvent,
  toStreamState,
  toWrongExpectedRevision,
  validateAppend,
} from './kurrentdb-mapping';

const METADATA: EventMetadata = {
  actor: 'partner:p_1:key:k_1',
  partner_id: 'p_1',
  request_id: 'req_1',
  idempotency_key: 'idem_1',
  causation_id: 'cause_1',
  correlation_id: 'corr_1',
};
const RECORDED_AT = new Date('2025-03-04T05:06:07.089Z');
const SERVER_CREATED = new Date('2031-01-01T00:00:00.000Z');
const ID = '5b0c8a3e-6f2d-4c1b-9a7e-1d2c3b4a5f60';

function resolved(overrides: {
  streamId?: string;
  type?: string;
  revision?: bigint;
  position?: { commit: bigint; prepare: bigint } | undefined;
  commitPosition?: bigint;
  metadata?: unknown;
  data?: unknown;
}): AllStreamResolvedEvent {
  return {
    event: {
      streamId: overrides.streamId ?? 'payment-1',
      id: ID,
      isJson: true,
      revision: overrides.revision ?? 3n,
      type: overrides.type ?? 'PaymentAuthorized',
      created: SERVER_CREATED,
      data: overrides.data ?? { amount: 1250, currency: 'EUR' },
      metadata: 'metadata' in overrides ? overrides.metadata : toKurrentMetadata(METADATA, RECORDED_AT),
      position: 'position' in overrides ? overrides.position : { commit: 4242n, prepare: 4242n },
    },
    commitPosition: overrides.commitPosition,
  } as AllStreamResolvedEvent;
}

describe('kurrentdb mapping', () => {
  describe('connection strings', () => {
    it.each([
      'kurrentdb://localhost:2113?tls=false',
      'kurrent://localhost:2113',
      'kdb://localhost:2113',
      'esdb://admin:changeit@localhost:2113?tls=false',
      'kurrentdb+discover://cluster.example:2113',
      'esdb+discover://a:2113,b:2113',
      '  KurrentDB://localhost:2113',
    ])('accepts %s', (url) => {
      expect(isKurrentDbUrl(url)).toBe(true);
    });

    it.each(['http://localhost:2113', 'postgres://localhost/db', 'kurrentdb:localhost', '', 'esdb+tls://x'])(
      'rejects %p',
      (url) => {
        expect(isKurrentDbUrl(url)).toBe(false);
      },
    );
  });

  describe('expected revision -> stream state', () => {
    it('maps the named expectations to the client constants', () => {
      expect(toStreamState('any')).toBe('any');
      expect(toStreamState('no_stream')).toBe('no_stream');
      expect(toStreamState('stream_exists')).toBe('stream_exists');
    });

    it('passes a revision through as a bigint', () => {
      expect(toStreamState(0n)).toBe(0n);
      expect(toStreamState(41n)).toBe(41n);
      expect(toStreamState(9007199254740993n)).toBe(9007199254740993n);
    });

    it('reads NO_STREAM (-1n) as no_stream and refuses lower revisions', () => {
      expect(toStreamState(NO_STREAM)).toBe('no_stream');
      expect(() => toStreamState(-2n)).toThrow(RangeError);
    });
  });

  describe('positions', () => {
    it('reads from a global position with it as both commit and prepare position', () => {
      expect(toKurrentPosition(4242n)).toEqual({ commit: 4242n, prepare: 4242n });
      expect(toKurrentPosition(0n)).toEqual({ commit: 0n, prepare: 0n });
    });

    it('refuses negative positions', () => {
      expect(() => toKurrentPosition(-1n)).toThrow(RangeError);
    });

    it('takes the commit position as the global position, beyond 2^53 without rounding', () => {
      expect(fromKurrentPosition({ commit: 9007199254740993n, prepare: 9007199254740993n })).toBe(
        9007199254740993n,
      );
      expect(fromKurrentPosition(toKurrentPosition(123456789012345678n))).toBe(123456789012345678n);
    });

    it("takes a read event's commit position", () => {
      expect(globalPositionOf(resolved({ position: { commit: 777n, prepare: 777n } }))).toBe(777n);
    });

    it('refuses an event whose prepare position differs (explicit transaction)', () => {
      expect(() => globalPositionOf(resolved({ position: { commit: 900n, prepare: 800n } }))).toThrow(
        /explicit transaction/,
      );
    });

    it("falls back to the resolved event's commit position, and fails without any", () => {
      expect(globalPositionOf(resolved({ position: undefined, commitPosition: 55n }))).toBe(55n);
      expect(() => globalPositionOf(resolved({ position: undefined }))).toThrow(/no log position/);
    });
  });

  describe('metadata', () => {
    it('stores our snake_case fields, recorded_at from our clock and the $ conventions', () => {
      expect(toKurrentMetadata(METADATA, RECORDED_AT)).toStrictEqual({
        actor: 'partner:p_1:key:k_1',
        partner_id: 'p_1',
        request_id: 'req_1',
        idempotency_key: 'idem_1',
        causation_id: 'cause_1',
        correlation_id: 'corr_1',
        recorded_at: '2025-03-04T05:06:07.089Z',
        $correlationId: 'corr_1',
        $causationId: 'cause_1',
      });
    });

    it('keeps nulls and leaves out the $ fields when there is nothing to say', () => {
      const stored = toKurrentMetadata(
        {
          actor: 'operator',
          partner_id: null,
          request_id: null,
          idempotency_key: null,
          causation_id: null,
          correlation_id: null,
        },
        RECORDED_AT,
      );
      expect(stored).toStrictEqual({
        actor: 'operator',
        partner_id: null,
        request_id: null,
        idempotency_key: null,
        causation_id: null,
        correlation_id: null,
        recorded_at: '2025-03-04T05:06:07.089Z',
      });
      expect(JSON.parse(JSON.stringify(stored))).toStrictEqual(stored);
    });

    it('refuses an invalid clock reading', () => {
      expect(() => toKurrentMetadata(METADATA, new Date(NaN))).toThrow(InvalidAppend);
    });

    it('reads back exactly our metadata and our recorded_at, not the server time', () => {
      const stored = JSON.parse(JSON.stringify(toKurrentMetadata(METADATA, RECORDED_AT))) as unknown;
      const back = fromKurrentMetadata(stored, SERVER_CREATED);
      expect(back.metadata).toStrictEqual(METADATA);
      expect(back.recordedAt).toEqual(RECORDED_AT);
    });

    it('reads foreign metadata with defaults and the server time', () => {
      const back = fromKurrentMetadata(
        { $correlationId: 'x', actor: 42, recorded_at: 'not a date' },
        SERVER_CREATED,
      );
      expect(back.metadata).toStrictEqual({
        actor: UNKNOWN_ACTOR,
        partner_id: null,
        request_id: null,
        idempotency_key: null,
        causation_id: null,
        correlation_id: null,
      });
      expect(back.recordedAt).toBe(SERVER_CREATED);
      expect(fromKurrentMetadata(undefined, SERVER_CREATED).metadata.actor).toBe(UNKNOWN_ACTOR);
      expect(fromKurrentMetadata(new Uint8Array([1, 2]), SERVER_CREATED).recordedAt).toBe(SERVER_CREATED);
    });
  });

  describe('recorded events', () => {
    it('maps every field of a resolved event', () => {
      expect(toRecordedEvent(resolved({}))).toStrictEqual({
        id: ID,
        stream: 'payment-1',
        revision: 3n,
        globalPosition: 4242n,
        type: 'PaymentAuthorized',
        data: { amount: 1250, currency: 'EUR' },
        metadata: METADATA,
        recordedAt: RECORDED_AT,
      });
    });

    it('keeps revisions as bigints', () => {
      const event = toRecordedEvent(resolved({ revision: 9007199254740993n }));
      expect(typeof event.revision).toBe('bigint');
      expect(event.revision).toBe(9007199254740993n);
    });

    it('refuses a link whose event was not resolved', () => {
      const link = { commitPosition: 1n } as ResolvedEvent;
      expect(() => toRecordedEvent(link)).toThrow(/unresolved link/);
    });
  });

  describe('system events', () => {
    it.each([
      ['$statsCollected', 'some-stream'],
      ['$>', 'payment-1'],
      ['$metadata', '$$payment-1'],
      ['PaymentAuthorized', '$projections-x'],
    ])('treats type %s in %s as a system event', (type, streamId) => {
      expect(isSystemEvent({ type, streamId })).toBe(true);
    });

    it('keeps ordinary events, even with a $ inside the name', () => {
      expect(isSystemEvent({ type: 'PaymentAuthorized', streamId: 'payment-1' })).toBe(false);
      expect(isSystemEvent({ type: 'Price$Set', streamId: 'price-$1' })).toBe(false);
    });
  });

  describe('append validation', () => {
    it('keeps given ids and assigns UUIDs to the others', () => {
      const validated = validateAppend('payment-1', [
        { id: ID, type: 'A', data: { a: 1 } },
        { type: 'B', data: [] },
      ]);
      expect(validated[0]).toEqual({ id: ID, type: 'A', data: { a: 1 } });
      expect(validated[1].id).toMatch(/^[0-9a-f-]{36}$/);
      expect(validated[1].id).not.toBe(ID);
    });

    it.each([
      ['no events', 'payment-1', []],
      ['an empty stream name', '', [{ type: 'A', data: {} }]],
      ['a $ stream', '$payment-1', [{ type: 'A', data: {} }]],
      ['a $ type', 'payment-1', [{ type: '$A', data: {} }]],
      ['an empty type', 'payment-1', [{ type: '', data: {} }]],
      ['undefined data', 'payment-1', [{ type: 'A', data: undefined }]],
      ['data that is not JSON', 'payment-1', [{ type: 'A', data: { n: 1n } }]],
      ['a malformed id', 'payment-1', [{ id: 'not-a-uuid', type: 'A', data: {} }]],
      [
        'a repeated id',
        'payment-1',
        [
          { id: ID, type: 'A', data: {} },
          { id: ID.toUpperCase(), type: 'B', data: {} },
        ],
      ],
    ])('refuses %s', (_what, stream, events) => {
      expect(() => validateAppend(stream, events)).toThrow(InvalidAppend);
    });
  });

  describe('errors', () => {
    it('maps WrongExpectedVersionError to WrongExpectedRevision with the actual revision', () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 'payment-1',
        expected: 2n,
        current: 5n,
      });
      const mapped = toWrongExpectedRevision(error, 'payment-1', 2n);
      expect(mapped).toBeInstanceOf(WrongExpectedRevision);
      expect(mapped).toMatchObject({
        stream: 'payment-1',
        expected: 2n,
        actual: 5n,
        code: 'concurrency_conflict',
      });
      expect(mapped?.cause).toBe(error);
    });

    it("maps a missing stream ('no_stream' actual state) to -1n", () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 'payment-1',
        expected: 'stream_exists',
        current: 'no_stream',
      });
      expect(toWrongExpectedRevision(error, 'payment-1', 'stream_exists')).toMatchObject({
        expected: 'stream_exists',
        actual: NO_STREAM,
      });
    });

    it('recognises the error by its type when it is not the same class', () => {
      const error = { type: 'wrong-expected-version', actualState: 0n };
      expect(toWrongExpectedRevision(error, 's-1', 'no_stream')).toMatchObject({
        expected: 'no_stream',
        actual: 0n,
      });
    });

    it('leaves other errors alone', () => {
      expect(toWrongExpectedRevision(new UnavailableError(), 's-1', 'any')).toBeUndefined();
      expect(toWrongExpectedRevision(new Error('boom'), 's-1', 'any')).toBeUndefined();
      expect(toWrongExpectedRevision(undefined, 's-1', 'any')).toBeUndefined();
    });

    it('reads current stream states', () => {
      expect(fromCurrentStreamState(7n)).toBe(7n);
      expect(fromCurrentStreamState('no_stream')).toBe(NO_STREAM);
      expect(fromCurrentStreamState(undefined)).toBeUndefined();
    });

    it('turns an unsuccessful append result (throwOnAppendFailure=false) into WrongExpectedRevision', () => {
      const ok = { success: true, nextExpectedRevision: 3n, position: { commit: 9n, prepare: 9n } };
      expect(checkAppendResult(ok, 's-1', 2n)).toBe(ok);
      expect(() => checkAppendResult({ success: false, nextExpectedRevision: -1n }, 's-1', 2n)).toThrow(
        expect.objectContaining({ name: 'WrongExpectedRevision', expected: 2n, actual: -1n }),
      );
    });

    it('treats only stream-not-found as a missing stream', () => {
      expect(isStreamNotFound(new StreamNotFoundError(undefined, 'payment-1'))).toBe(true);
      expect(isStreamNotFound({ type: 'stream-not-found' })).toBe(true);
      expect(isStreamNotFound(StreamDeletedError.fromStreamName('payment-1'))).toBe(false);
      expect(isStreamNotFound(new Error('payment-1 not found'))).toBe(false);
    });

    it('tells position failures from transport and access failures', () => {
      expect(mayBeInvalidPosition(new UnknownError(undefined, 'invalid position'))).toBe(true);
      expect(mayBeInvalidPosition(new Error('Log record at actual pos 87311 has too large length'))).toBe(
        true,
      );
      expect(mayBeInvalidPosition(new UnavailableError())).toBe(false);
      expect(mayBeInvalidPosition(new AccessDeniedError())).toBe(false);
      expect(mayBeInvalidPosition(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }))).toBe(false);
    });
  });

  describe('reading a stream', () => {
    async function* events<T>(items: T[], failWith?: unknown): AsyncGenerator<T> {
      for (const item of items) yield item;
      if (failWith) throw failWith;
    }

    it('collects every event', async () => {
      await expect(collectStream(events([1, 2, 3]))).resolves.toEqual([1, 2, 3]);
    });

    it('reads a missing stream as empty', async () => {
      await expect(
        collectStream(events([], new StreamNotFoundError(undefined, 'payment-9'))),
      ).resolves.toEqual([]);
    });

    it('passes on other failures', async () => {
      const failure = StreamDeletedError.fromStreamName('payment-9');
      await expect(collectStream(events([1], failure))).rejects.toBe(failure);
    });
  });
});
