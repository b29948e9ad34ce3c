import type { MigrationInterface, QueryRunner } from 'typeorm';

export class HppSessionList1764530000000 implements MigrationInterface {
  name = 'HppSessionList1764530000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table hpp_session_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        state text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    // The expiry sweeper: PENDING sessions whose expires_at has passed, oldest first.
    await db.query('create index hpp_session_list_state_expires on hpp_session_list (state, expires_at)');
    // One merchant's sessions, newest first (operator tools, a future list).
    await db.query(
      'create index hpp_session_list_merchant_position on hpp_session_list (merchant_id, created_position desc)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table hpp_session_list');
  }
}
