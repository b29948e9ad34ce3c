import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per `Noted` event; the primary key makes a second application of an event fail loudly. */
@Entity({ name: 'noted' })
export class NotedRow {
  @PrimaryColumn('uuid')
  event_id!: string;

  @Column('text')
  stream!: string;

  @Column('integer')
  n!: number;

  /** A serial column, so rebuild-and-swap is tested with a sequence owned by the table. */
  @Column({ type: 'bigint', insert: false, update: false })
  entry!: string;
}
