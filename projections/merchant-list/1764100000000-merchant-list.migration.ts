import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MerchantList1764100000000 implements MigrationInterface {
  name = 'MerchantList1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table merchant_list (
        id uuid primary key,
        partner_id uuid not null,
        business_name text not null,
        contact_email text not null,
        contact_name text not null,
        state text not null,
        merchant_category_code text not null,
        channel text,
        processor_mids jsonb not null,
        gateway_merchant_id text,
        location_count integer,
        resubmission_count integer not null,
        resubmission_limit integer not null,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    await db.query(
      'create index merchant_list_partner_position on merchant_list (partner_id, created_position desc)',
    );
    await db.query('create index merchant_list_partner_state on merchant_list (partner_id, state)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table merchant_list');
  }
}
