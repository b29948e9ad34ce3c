import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per partner, for the operator's partner list and lookups by analysts. */
@Entity({ name: 'partner_list' })
export class PartnerListRow {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  contact_email!: string;

  @Column('text')
  state!: string;

  @Column('text')
  certification_status!: string;

  @Column('text')
  rate_limit_tier!: string;

  @Column('timestamptz')
  created_at!: Date;

  /** Global position of the PartnerCreated event: the list's stable, monotonic order. */
  @Column('bigint')
  created_position!: string;

  /** Stream revision of the last event applied (the API's version is revision + 1). */
  @Column('bigint')
  revision!: string;
}
