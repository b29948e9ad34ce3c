/**
 * Pure translations between the event store port and the KurrentDB (EventStoreDB) client, kept
 * apart from the adapter so every rule can be unit-tested without a server. Decisions are
 * recorded in docs/adr/0002-kurrentdb-adapter.md.
 */
import { randomUUID } from 'node:crypto';
import {
  ANY,
  ErrorType,
  NO_STREAM as KURRENT_NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendResult as KurrentAppendResult,
  type AppendStreamState,
  type Position,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { InvalidAppend, WrongExpectedRevision } from '../errors';
import {
  NO_STREAM,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '../event-store';
import { UUID } from '../../../platform/src/validation/uuid';

// ---------------------------------------------------------------------------------------------
// Connection strings
// ---------------------------------------------------------------------------------------------

/** Schemes the client understands; `esdb` is EventStoreDB's (deprecated by the client, still accepted). */
const SCHEME = /^(kurrentdb|kurrent|kdb|esdb)(\+discover)?:\/\//i;

/** True when `EVENT_STORE_URL` selects this adapter (CONTRACT §1). */
export function isKurrentDbUrl(url: string): boolean {
  return SCHEME.test(url.trim());
}

// ---------------------------------------------------------------------------------------------
// Expected revision -> stream state
// ---------------------------------------------------------------------------------------------

/**
 * The port's expectation as the client's `streamState`. A bigint is the revision of the stream's
 * last event; `NO_STREAM` (-1n) given as a bigint means the same as `'no_stream'`.
 */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return KURRENT_NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (typeof expected !== 'bigint') throw new TypeError(`invalid expected revision: ${String(expected)}`);
      if (expected === NO_STREAM) return KURRENT_NO_STREAM;
      if (expected < NO_STREAM) throw new RangeError(`expected revision must be >= -1, got ${expected}`);
      return expected;
  }
}

// ---------------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------------

/**
 * Our global position is the event's commit position in the transaction log. Every append since
 * EventStoreDB 20 is an implicitly committed write, so each event has its own log record and its
 * prepare position equals its commit position: reading from a global position therefore uses it
 * for both halves of the client's `Position`.
 */
export function toKurrentPosition(globalPosition: bigint): Position {
  if (typeof globalPosition !== 'bigint' || globalPosition < 0n) {
    throw new RangeError(`a global position is a non-negative bigint, got ${String(globalPosition)}`);
  }
  return { commit: globalPosition, prepare: globalPosition };
}

/** The client's position as our global position: the commit position. */
export function fromKurrentPosition(position: Position): bigint {
  return position.commit;
}

/**
 * The global position of a read event. Refuses events of legacy explicit transactions (TCP-era
 * `StartTransaction`), whose events share one commit position: a position would then name several
 * events and a reader resuming from it could skip some.
 */
export function globalPositionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): bigint {
  const position = resolved.event?.position;
  if (position && position.commit >= 0n) {
    if (position.prepare !== position.commit) {
      throw new Error(
        `event ${resolved.event?.id} of ${resolved.event?.streamId} has commit position ${position.commit} but ` +
          `prepare position ${position.prepare} (written in an explicit transaction); this adapter needs one ` +
          'log position per event',
      );
    }
    return position.commit;
  }
  if (resolved.commitPosition !== undefined && resolved.commitPosition >= 0n) return resolved.commitPosition;
  throw new Error(
    `event ${resolved.event?.id ?? '(unknown)'} has no log position; KurrentDB / EventStoreDB 22.6 or later is required`,
  );
}

// ---------------------------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------------------------

/**
 * What we store as KurrentDB event metadata: our fields under their snake_case names, the time
 * from OUR clock (the server's `created` is the machine's time, which the sandbox clock may not
 * be), and KurrentDB's conventional `$correlationId` / `$causationId` so the server's own tools
 * (the `$by_correlation_id` projection, the UI) understand the flow. The `$` fields are written only
 * when known: they are always strings in KurrentDB's conventions.
 */
export type KurrentEventMetadata = EventMetadata & {
  /** ISO 8601 with milliseconds, UTC. */
  recorded_at: string;
  $correlationId?: string;
  $causationId?: string;
};

export function toKurrentMetadata(metadata: EventMetadata, recordedAt: Date): KurrentEventMetadata {
  if (Number.isNaN(recordedAt.getTime())) throw new InvalidAppend('the clock returned an invalid date');
  const stored: KurrentEventMetadata = {
    actor: metadata.actor,
    partner_id: metadata.partner_id,
    request_id: metadata.request_id,
    idempotency_key: metadata.idempotency_key,
    causation_id: metadata.causation_id,
    correlation_id: metadata.correlation_id,
    recorded_at: recordedAt.toISOString(),
  };
  if (metadata.correlation_id !== null) stored.$correlationId = metadata.correlation_id;
  if (metadata.causation_id !== null) stored.$causationId = metadata.causation_id;
  return stored;
}

/** Written by tools other than this platform, an event may lack our metadata. */
export const UNKNOWN_ACTOR = 'unknown';

/**
 * Our metadata and recording time back from what the client parsed (an object when the metadata
 * was JSON, bytes when not, undefined when empty). Missing fields read as null (the actor as
 * {@link UNKNOWN_ACTOR}) and a missing or invalid `recorded_at` falls back to the server's
 * `created`, so events written by other tools still read; KurrentDB's `$` fields are dropped.
 */
export function fromKurrentMetadata(
  raw: unknown,
  created: Date,
): { metadata: EventMetadata; recordedAt: Date } {
  const fields: Record<string, unknown> =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !(raw instanceof Uint8Array)
      ? (raw as Record<string, unknown>)
      : {};
  const text = (key: string): string | null =>
    typeof fields[key] === 'string' ? (fields[key] as string) : null;
  const recordedAt = typeof fields.recorded_at === 'string' ? new Date(fields.recorded_at) : undefined;
  return {
    metadata: {
      actor: text('actor') ?? UNKNOWN_ACTOR,
      partner_id: text('partner_id'),
      request_id: text('request_id'),
      idempotency_key: text('idempotency_key'),
      causation_id: text('causation_id'),
      correlation_id: text('correlation_id'),
    },
    recordedAt: recordedAt && !Number.isNaN(recordedAt.getTime()) ? recordedAt : created,
  };
}

// ---------------------------------------------------------------------------------------------
// Recorded events
// ---------------------------------------------------------------------------------------------

/** System events: `$`-typed (links `$>`, `$metadata`, `$stats...`) or in `$`-named streams. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** A client's resolved event (from a stream, `$all` or a subscription) as the port's event. */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error('a resolved event without its event (an unresolved link) cannot be mapped');
  const { metadata, recordedAt } = fromKurrentMetadata(event.metadata, event.created);
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    globalPosition: globalPositionOf(resolved),
    type: event.type,
    data: event.data,
    metadata,
    recordedAt,
  };
}

// ---------------------------------------------------------------------------------------------
// Appends
// ---------------------------------------------------------------------------------------------

export interface ValidatedEvent {
  id: string;
  type: string;
  data: unknown;
}

/**
 * The port's rules for an append, checked before anything reaches the server, plus KurrentDB's:
 * `$`-prefixed streams and event types belong to the server and would vanish from `readAll`.
 * Assigns a UUID to events without an id.
 */
export function validateAppend(stream: string, events: readonly NewEvent[]): ValidatedEvent[] {
  if (events.length === 0) throw new InvalidAppend(`append to ${stream} has no events`);
  if (typeof stream !== 'string' || stream === '') throw new InvalidAppend('stream name is empty');
  if (stream.startsWith('$'))
    throw new InvalidAppend(`stream ${stream}: names starting with $ are KurrentDB's`);
  const validated = events.map((event) => {
    const id = event.id ?? randomUUID();
    if (!UUID.test(id)) throw new InvalidAppend(`event id ${id} is not a UUID`);
    if (typeof event.type !== 'string' || event.type === '') {
      throw new InvalidAppend(`an event for ${stream} has no type`);
    }
    if (event.type.startsWith('$')) {
      throw new InvalidAppend(`event type ${event.type}: types starting with $ are KurrentDB's`);
    }
    if (event.data === undefined) throw new InvalidAppend(`event ${event.type} for ${stream} has no data`);
    let json: string | undefined;
    try {
      json = JSON.stringify(event.data);
    } catch (error) {
      throw new InvalidAppend(`data of ${event.type} for ${stream} is not JSON: ${(error as Error).message}`);
    }
    if (json === undefined) throw new InvalidAppend(`data of ${event.type} for ${stream} is not JSON`);
    return { id, type: event.type, data: event.data };
  });
  if (new Set(validated.map((e) => e.id.toLowerCase())).size !== validated.length) {
    throw new InvalidAppend(`append to ${stream} repeats an event id`);
  }
  return validated;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

function errorType(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
}

/** The client's current stream state as our revision: `'no_stream'` is -1n, unknown is undefined. */
export function fromCurrentStreamState(state: unknown): bigint | undefined {
  if (typeof state === 'bigint') return state;
  if (state === KURRENT_NO_STREAM) return NO_STREAM;
  return undefined;
}

/**
 * The client's `WrongExpectedVersionError` as our `WrongExpectedRevision`, or undefined for any
 * other error. The expectation reported is the caller's own (the client's `expectedState` says the
 * same thing in its terms); the actual revision comes from the error's `actualState`.
 */
export function toWrongExpectedRevision(
  error: unknown,
  stream: string,
  expected: ExpectedRevision,
): WrongExpectedRevision | undefined {
  if (
    !(error instanceof WrongExpectedVersionError) &&
    errorType(error) !== ErrorType.WRONG_EXPECTED_VERSION
  ) {
    return undefined;
  }
  const actual = fromCurrentStreamState((error as WrongExpectedVersionError).actualState);
  const wrong = new WrongExpectedRevision(stream, expected, actual);
  wrong.cause = error;
  return wrong;
}

/**
 * With `throwOnAppendFailure=false` in the connection string the client answers a failed
 * expectation with `success: false` instead of throwing; the port always throws.
 */
export function checkAppendResult(
  result: KurrentAppendResult,
  stream: string,
  expected: ExpectedRevision,
): KurrentAppendResult {
  if (result.success) return result;
  throw new WrongExpectedRevision(stream, expected, result.nextExpectedRevision);
}

/** A read of a stream that was never written. */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || errorType(error) === ErrorType.STREAM_NOT_FOUND;
}

/** Drains a stream read; a stream that does not exist reads as empty, as the port says. */
export async function collectStream<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    if (isStreamNotFound(error)) return [];
    throw error;
  }
  return out;
}

const TRANSPORT_ERRORS = new Set<unknown>([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.CANCELLED,
  ErrorType.NOT_LEADER,
  ErrorType.ACCESS_DENIED,
]);
// gRPC status codes of the same kind: CANCELLED, DEADLINE_EXCEEDED, PERMISSION_DENIED, UNAVAILABLE, UNAUTHENTICATED.
const TRANSPORT_CODES = new Set<unknown>([1, 4, 7, 14, 16]);

/**
 * Whether a failed `$all` read may have failed because its start position is not the start of a
 * log record (the server answers such a read with an "invalid position" error). Transport, access
 * and leadership failures are not: retrying from another position would not help.
 */
export function mayBeInvalidPosition(error: unknown): boolean {
  if (TRANSPORT_ERRORS.has(errorType(error))) return false;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return !TRANSPORT_CODES.has(code);
}
