import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many `Noted` events each stream has: an upserted read model, unlike the insert-only `noted`. */
@Entity({ name: 'counted' })
export class StreamCount {
  @PrimaryColumn('text')
  stream!: string;

  @Column('integer')
  total!: number;
}
