import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import type { Projector } from '../../libs/projections/src';
import { testMetadata } from './metadata';

/**
 * Feeds a projector events as the runner does, each in its own transaction (or a page of them at
 * once, for a set-based projector), as recorded events at the next global positions of an
 * imaginary store. `position` is the latest event's position.
 */
export function projectorFeed(
  db: () => DataSource,
  projector: Projector,
  streamOf: (id: string) => string,
  recordedAt: Date,
) {
  let position = 0n;
  /** The event as the store would have recorded it, at the next global position. */
  const recorded = (id: string, event: { type: string; data: unknown }, revision: bigint): RecordedEvent =>
    ({
      id: `${id}-${revision}`,
      stream: streamOf(id),
      revision,
      globalPosition: ++position,
      type: event.type,
      data: event.data,
      metadata: testMetadata(),
      recordedAt,
    }) as RecordedEvent;
  return {
    recorded,
    apply(id: string, event: { type: string; data: unknown }, revision: bigint): Promise<void> {
      return db().transaction((tx) => projector.handle(tx, recorded(id, event, revision)));
    },
    /** A page of recorded events applied at once, as the runner gives a set-based projector its batch. */
    applyPage(events: RecordedEvent[]): Promise<void> {
      return db().transaction((tx) => projector.handleBatch!(tx, events));
    },
    get position(): bigint {
      return position;
    },
  };
}
