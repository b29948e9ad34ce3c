import { RequestRecord } from '../../platform/src/idempotency/request-record';
import { ConcurrencyConflict } from '../../platform/src/problem';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from './event-store';
import { NO_STREAM } from './event-store';
import { WrongExpectedRevision } from './errors';

/** A domain event as the pure code sees it: a type and its data, nothing stored yet. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface Evolver<S, E extends DomainEvent> {
  initialState(): S;
  evolve(state: S, event: E): S;
}

export interface CommandResult<S, E extends DomainEvent> {
  /** The state after the new events. */
  state: S;
  /** The events this command appended (empty when the command changed nothing). */
  events: E[];
  /** The stream's revision after the command. */
  revision: bigint;
  /** The global position of the last appended event, for read-your-writes; null when nothing was appended. */
  position: bigint | null;
  /**
   * True when the stream already held this command's events (same `causation_id`): an earlier
   * run of the same idempotent request appended them and then crashed before answering.
   * `events` are then those earlier events, and nothing new was appended.
   */
  alreadyApplied: boolean;
}

export interface HandleCommandOptions<S = unknown> {
  /** Attempts in all, including the first (a conflict re-reads and decides again). */
  maxAttempts?: number;
  /**
   * The stream as the caller already knows it, so the first attempt need not read it: a new
   * stream whose command id is fresh (nothing of it can exist yet), or the state and revision the
   * caller's own append just produced. The caller vouches that no earlier run of this command
   * wrote to the stream. A stale guess costs nothing but a retry: the append's expected-revision
   * check refuses it, and the next attempt reads the stream (re-run detection included). `decide`
   * gets no history on that first attempt.
   */
  known?: { state: S; revision: bigint };
  /**
   * Nothing of the request comes after this write: the request's answer, built by its route from
   * the state this write leaves, may commit with these events (docs/adr/0008-write-path.md).
   */
  final?: boolean;
}

/** The events an earlier run of the same command (`metadata.causation_id`) already appended. */
export function eventsOfCommand(history: readonly RecordedEvent[], causationId: string | null | undefined) {
  if (!causationId) return [];
  return history.filter((e) => e.metadata.causation_id === causationId);
}

/**
 * The command path: load the stream, fold `evolve`, call the pure `decide`, append with the
 * expected revision. On a conflict the whole read–decide–append runs again on fresh state, so
 * two racing requests never both win; after `maxAttempts` it gives up with ConcurrencyConflict
 * (409 `concurrency_conflict`). Errors thrown by `decide` (business rules) pass through untouched.
 *
 * A command carries its id as `metadata.causation_id` (the idempotency record's id, stable across
 * re-runs of one request). If the stream already holds events with that id, the command ran
 * before and crashed before its answer was stored: nothing is decided or appended again, and the
 * state after those events is returned, so the re-run answers what the first run would have.
 */
export async function handleCommand<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  evolver: Evolver<S, E>,
  decide: (state: S, events: readonly RecordedEvent[]) => E[],
  metadata: EventMetadata,
  options: HandleCommandOptions<S> = {},
): Promise<CommandResult<S, E>> {
  // Commands on one stream in one process take their turns: only another process's write can
  // make an append lose its race (docs/adr/0008-write-path.md).
  return inTurn(store, stream, () => decideAndAppend(store, stream, evolver, decide, metadata, options));
}

async function decideAndAppend<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  evolver: Evolver<S, E>,
  decide: (state: S, events: readonly RecordedEvent[]) => E[],
  metadata: EventMetadata,
  options: HandleCommandOptions<S>,
): Promise<CommandResult<S, E>> {
  const maxAttempts = options.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const known = attempt === 1 ? options.known : undefined;
    const history = known ? [] : await store.readStream(stream);
    const state = known
      ? known.state
      : history.reduce((s, e) => evolver.evolve(s, e as unknown as E), evolver.initialState());
    const revision = known
      ? known.revision
      : history.length === 0
        ? NO_STREAM
        : history[history.length - 1].revision;
    const earlier = eventsOfCommand(history, metadata.causation_id);
    if (earlier.length > 0) {
      return {
        state,
        events: earlier as unknown as E[],
        revision,
        position: earlier[earlier.length - 1].globalPosition,
        alreadyApplied: true,
      };
    }
    const newEvents = decide(state, history);
    if (newEvents.length === 0) return { state, events: [], revision, position: null, alreadyApplied: false };
    const after = newEvents.reduce(evolver.evolve, state);
    // The request's idempotency record goes with its first append, and its answer with its last.
    const record = await RequestRecord.current()?.claim(options.final ? { state: after } : undefined);
    try {
      const appended = await store.appendToStream(stream, newEvents as NewEvent[], {
        expectedRevision: revision === NO_STREAM ? 'no_stream' : revision,
        metadata,
        ...(record && { record: record.writes }),
      });
      record?.settle(true);
      return {
        state: after,
        events: newEvents,
        revision: appended.nextRevision,
        position: appended.position,
        alreadyApplied: false,
      };
    } catch (error) {
      record?.settle(false);
      if (!(error instanceof WrongExpectedRevision)) throw error;
      if (attempt >= maxAttempts) throw new ConcurrencyConflict(stream);
    }
  }
}

/** Per store, the last command's turn on each stream being written by this process. */
const turns = new WeakMap<EventStore, Map<string, Promise<void>>>();

/**
 * Runs `work` once every command on `stream` that came before it in this process has ended.
 * Concurrent commands on one stream would otherwise read the same revision, and all but one
 * would lose at the append and read, decide and append again: with group commit they arrive in
 * the same batch, so every batch would refuse all of them but one. Taking turns costs a stream's
 * commands nothing they were not paying already (one of them commits per batch either way).
 */
async function inTurn<T>(store: EventStore, stream: string, work: () => Promise<T>): Promise<T> {
  let streams = turns.get(store);
  if (!streams) turns.set(store, (streams = new Map()));
  const before = streams.get(stream);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const last = before ? before.then(() => mine) : mine;
  streams.set(stream, last);
  try {
    await before;
    return await work();
  } finally {
    release();
    if (streams.get(stream) === last) streams.delete(stream);
  }
}
