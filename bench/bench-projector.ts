import {
  Column,
  Entity,
  PrimaryColumn,
  type EntityManager,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import type { RecordedEvent } from '../libs/event-store/src';
import {
  PROJECTION_ENGINE_ENTITIES,
  PROJECTION_ENGINE_MIGRATIONS,
  type Projector,
} from '../libs/projections/src';

/** A read model as heavy as a typical list row: a counter per stream. */
@Entity({ name: 'bench_projection' })
export class BenchProjectionRow {
  @PrimaryColumn('text')
  stream!: string;

  @Column('bigint')
  events!: string;

  @Column('bigint')
  last_position!: string;
}

export class BenchProjection1763900000001 implements MigrationInterface {
  name = 'BenchProjection1763900000001';
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      'create table bench_projection (stream text primary key, events bigint not null, last_position bigint not null)',
    );
  }
  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table bench_projection');
  }
}

export const BENCH_ENTITIES = [...PROJECTION_ENGINE_ENTITIES, BenchProjectionRow];
export const BENCH_MIGRATIONS = [...PROJECTION_ENGINE_MIGRATIONS, BenchProjection1763900000001];

export function benchProjector(): Projector {
  return {
    name: 'bench',
    eventTypes: ['BenchEvent'],
    tables: ['bench_projection'],
    async handle(tx: EntityManager, event: RecordedEvent): Promise<void> {
      await tx.query(
        `insert into bench_projection (stream, events, last_position) values ($1, 1, $2)
         on conflict (stream) do update set events = bench_projection.events + 1, last_position = excluded.last_position`,
        [event.stream, event.globalPosition.toString()],
      );
    },
    // Set-based: one statement per batch, as a catch-up-heavy read model would be written.
    async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
      const perStream = new Map<string, { events: number; last: bigint }>();
      for (const e of events) {
        const row = perStream.get(e.stream) ?? { events: 0, last: 0n };
        row.events++;
        row.last = e.globalPosition;
        perStream.set(e.stream, row);
      }
      await tx.query(
        `insert into bench_projection (stream, events, last_position)
         select * from unnest($1::text[], $2::bigint[], $3::bigint[])
         on conflict (stream) do update set events = bench_projection.events + excluded.events,
                                            last_position = excluded.last_position`,
        [
          [...perStream.keys()],
          [...perStream.values()].map((r) => r.events),
          [...perStream.values()].map((r) => r.last.toString()),
        ],
      );
    },
  };
}
