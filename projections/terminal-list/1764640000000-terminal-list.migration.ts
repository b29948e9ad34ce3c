import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TerminalList1764640000000 implements MigrationInterface {
  name = 'TerminalList1764640000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table terminal_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        serial_number text not null,
        model text not null,
        state text not null,
        api_key_prefix text,
        api_key_hash text,
        last_heartbeat_at timestamptz,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    await db.query(
      'create index terminal_list_partner_position on terminal_list (partner_id, created_position desc)',
    );
    await db.query(
      'create index terminal_list_merchant_position on terminal_list (merchant_id, created_position desc)',
    );
    // The auth guard finds a terminal key by its prefix on every terminal request.
    await db.query('create index terminal_list_api_key_prefix on terminal_list (api_key_prefix)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table terminal_list');
  }
}
