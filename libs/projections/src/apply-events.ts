import type { EntityManager } from 'typeorm';
import { isPassed, type ReadEvent, type RecordedEvent } from '../../event-store/src';
import { BatchFailed, PoisonEvent, isTransient } from './errors';
import type { Projector } from './projector';

/**
 * Applies `events` (non-empty, in global order, all past the checkpoint) inside `tx` and returns
 * the position the checkpoint may move to: the last event's, also when the projector ignores its
 * type (read passed over, without its payload: `EventStore.readAllOf`), so lag reaches zero. A handler's error names its event ({@link PoisonEvent}) unless it
 * is a connection problem, which is rethrown as is and retried.
 */
export async function applyEvents(
  tx: EntityManager,
  projector: Projector,
  types: ReadonlySet<string>,
  events: readonly ReadEvent[],
): Promise<bigint> {
  const relevant = events.filter(
    (event): event is RecordedEvent => !isPassed(event) && types.has(event.type),
  );
  if (projector.handleBatch && relevant.length > 0) {
    await applySetBased(tx, projector, relevant);
  } else {
    for (const event of relevant) await applyOne(tx, projector, event);
  }
  return events[events.length - 1].globalPosition;
}

async function applyOne(tx: EntityManager, projector: Projector, event: RecordedEvent): Promise<void> {
  try {
    await projector.handle(tx, event);
  } catch (error) {
    if (isTransient(error)) throw error;
    throw new PoisonEvent(event, error);
  }
}

async function applySetBased(
  tx: EntityManager,
  projector: Projector,
  events: RecordedEvent[],
): Promise<void> {
  try {
    await projector.handleBatch!(tx, events);
  } catch (error) {
    if (isTransient(error)) throw error;
    // With one event the culprit is known; otherwise the caller narrows the batch down.
    throw events.length === 1 ? new PoisonEvent(events[0], error) : new BatchFailed(error);
  }
}
