import type { MigrationInterface, QueryRunner } from 'typeorm';

// The class name is the migration's identity in `read_model_migrations`: never rename it.
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
