import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerList1764200000000 implements MigrationInterface {
  name = 'CustomerList1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table customer_list (
        id uuid primary key,
        merchant_id uuid not null,
        partner_id uuid not null,
        email text not null,
        display_name text,
        deleted boolean not null,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    await db.query(
      'create index customer_list_merchant_position on customer_list (merchant_id, created_position desc)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table customer_list');
  }
}
