import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../../event-store/src';
import type { Projector } from '../projector';
import { NotedRow } from './noted-row.entity';

/** The data of a `Noted` event. `poison` makes the noter refuse it. */
export interface Noted {
  n: number;
  poison?: boolean;
}

export interface TestProjectorHooks {
  /** Awaited before each event, e.g. to hold a rebuild half-way. */
  before?: (tx: EntityManager, event: RecordedEvent) => Promise<void>;
}

/**
 * Inserts one row per `Noted` event through TypeORM's entity API (unqualified SQL, as real
 * projectors write it); on `{ poison: true }` it inserts, then throws, so a rollback shows.
 */
export function noter(hooks: TestProjectorHooks = {}): Projector {
  return {
    name: 'noter',
    eventTypes: ['Noted'],
    tables: ['noted'],
    async handle(tx: EntityManager, event: RecordedEvent): Promise<void> {
      await hooks.before?.(tx, event);
      const data = event.data as Noted;
      await tx.insert(NotedRow, { event_id: event.id, stream: event.stream, n: data.n });
      if (data.poison) throw new Error('cannot apply this one');
    },
  };
}

/** Counts `Noted` events per stream with a raw upsert; it has no poison. */
export function counter(hooks: TestProjectorHooks = {}): Projector {
  return {
    name: 'counter',
    eventTypes: ['Noted'],
    tables: ['counted'],
    async handle(tx: EntityManager, event: RecordedEvent): Promise<void> {
      await hooks.before?.(tx, event);
      await tx.query(
        `insert into counted (stream, total) values ($1, 1)
         on conflict (stream) do update set total = counted.total + 1`,
        [event.stream],
      );
    },
  };
}

/** True inside a rebuild's transactions, whose search_path starts with the shadow schema. */
export async function inShadow(tx: EntityManager): Promise<boolean> {
  const [row] = await tx.query('show search_path');
  return String(row.search_path).includes('rebuild_');
}
