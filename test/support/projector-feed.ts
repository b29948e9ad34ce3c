import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import type { Projector } from '../../libs/projections/src';
import { testMetadata } from './metadata';

/**
 * Feeds a projector events as the runner does, each in its own transaction, as a recorded event
 * at the next global position of an imaginary store. `position` is the latest event's position.
 */
export function projectorFeed(
  db: () => DataSource,
  projector: Projector,
  streamOf: (id: string) => string,
  recordedAt: Date,
) {
  let position = 0n;
  return {
    apply(id: string, event: { type: string; data: unknown }, revision: bigint): Promise<void> {
      return db().transaction((tx) =>
        projector.handle(tx, {
          id: `${id}-${revision}`,
          stream: streamOf(id),
          revision,
          globalPosition: ++position,
          type: event.type,
          data: event.data,
          metadata: testMetadata(),
          recordedAt,
        } as RecordedEvent),
      );
    },
    get position(): bigint {
      return position;
    },
  };
}
