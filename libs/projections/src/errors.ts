import { isDatabaseUnavailable } from '../../platform/src/database/database-unavailable';
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

/** Serialization failure and deadlock: the same transaction succeeds when run again. */
const RETRYABLE_SQLSTATE = new Set(['40001', '40P01']);

/**
 * Whether a handler's error comes from the database (connection lost, server restarting, out of
 * connections or disk, a lost race) rather than the event. Such errors are retried after a poll
 * interval; marking the projector failed for them would leave it stopped after every outage.
 */
export function isTransient(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATE.has(code);
}
