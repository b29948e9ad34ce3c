import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PartnerList1763900000000 implements MigrationInterface {
  name = 'PartnerList1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table partner_list (
        id uuid primary key,
        name text not null,
        contact_email text not null,
        state text not null,
        certification_status text not null,
        rate_limit_tier text not null,
        created_at timestamptz not null,
        revision bigint not null
      )`);
    await db.query('create index partner_list_created_at on partner_list (created_at, id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table partner_list');
  }
}
