import { Column, Entity, PrimaryColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** One row per projector: how far it has got, and why it stopped if it did. */
@Entity({ name: 'projection_checkpoints' })
export class ProjectionCheckpoint {
  @PrimaryColumn('text')
  name!: string;

  /** Global position of the last event applied (0: none). */
  @Column('bigint')
  position!: string;

  /** `running` or `failed`. */
  @Column('text')
  status!: string;

  @Column('text', { nullable: true })
  last_error!: string | null;

  @Column('bigint', { nullable: true })
  error_position!: string | null;

  @Column('timestamptz')
  updated_at!: Date;
}

export class ProjectionCheckpoints1763800000000 implements MigrationInterface {
  name = 'ProjectionCheckpoints1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table projection_checkpoints (
        name text primary key,
        position bigint not null default 0 check (position >= 0),
        status text not null default 'running' check (status in ('running', 'failed')),
        last_error text,
        error_position bigint,
        updated_at timestamptz not null default now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table projection_checkpoints');
  }
}
