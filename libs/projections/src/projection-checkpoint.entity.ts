import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per projector: how far it has got, and why it stopped if it did. The runner writes it
 * in the same transaction as the projector's rows, so the two never disagree.
 */
@Entity({ name: 'projection_checkpoints' })
export class ProjectionCheckpoint {
  @PrimaryColumn('text')
  name!: string;

  /** Global position of the last event applied (0: none); int8 arrives as a string. */
  @Column('bigint')
  position!: string;

  /** `running` or `failed`; the finer states (catching up, rebuilding) live in the runner. */
  @Column('text')
  status!: string;

  @Column('text', { nullable: true })
  last_error!: string | null;

  /** The poison event's global position while `status` is `failed`. */
  @Column('bigint', { nullable: true })
  error_position!: string | null;

  @Column('timestamptz')
  updated_at!: Date;
}
