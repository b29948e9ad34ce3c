import type { RecordedEvent } from '../../event-store/src';

export class UnknownProjection extends Error {
  override readonly name = 'UnknownProjection';
  constructor(readonly projection: string) {
    super(`unknown projection ${projection}`);
  }
}

/** Another rebuild of the same projection runs, here or in another process. */
export class RebuildInProgress extends Error {
  override readonly name = 'RebuildInProgress';
  constructor(readonly projection: string) {
    super(`projection ${projection} is already being rebuilt`);
  }
}

/** `stop()` was called while a rebuild ran; the live tables were left untouched. */
export class RebuildAborted extends Error {
  override readonly name = 'RebuildAborted';
  constructor(readonly projection: string) {
    super(`rebuild of ${projection} aborted: the runner is stopping`);
  }
}

/** An event the projector's handler refused; it stops that projector until a restart or rebuild. */
export class PoisonEvent extends Error {
  override readonly name = 'PoisonEvent';
  constructor(
    readonly event: RecordedEvent,
    override readonly cause: unknown,
  ) {
    super(`${event.type} at position ${event.globalPosition}: ${messageOf(cause)}`);
  }
}

/** A set-based `handleBatch` failed; the runner retries event by event to find the poison one. */
export class BatchFailed extends Error {
  override readonly name = 'BatchFailed';
  constructor(override readonly cause: unknown) {
    super(messageOf(cause));
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// SQLSTATE classes and codes that say "try again", not "this event is bad": connection loss,
// serialization failure and deadlock, server shutting down, too many connections.
const TRANSIENT_SQLSTATE = /^(08...|40001|40P01|57P0[1-3]|53300)$/;
const TRANSIENT_NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether a handler's error comes from the database connection rather than the event. Such
 * errors are retried after a poll interval; marking the projector failed for them would leave
 * it stopped after every network blip.
 */
export function isTransient(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_NODE_CODES.has(code))) {
    return true;
  }
  return /Connection terminated/i.test(messageOf(error));
}
