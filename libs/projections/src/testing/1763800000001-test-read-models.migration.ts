import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TestReadModels1763800000001 implements MigrationInterface {
  name = 'TestReadModels1763800000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table noted (
        event_id uuid primary key,
        stream text not null,
        n integer not null check (n >= 0),
        entry bigserial not null
      )`);
    // A named index: a rebuild must keep the name, or a later migration dropping it fails.
    await db.query('create index noted_by_stream on noted (stream, n)');
    await db.query('create table counted (stream text primary key, total integer not null)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table counted');
    await db.query('drop table noted');
  }
}
