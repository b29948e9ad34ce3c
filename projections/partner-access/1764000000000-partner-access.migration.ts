import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PartnerAccess1764000000000 implements MigrationInterface {
  name = 'PartnerAccess1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table partner_access (
        partner_id uuid primary key,
        rate_limit_tier text not null,
        enabled_features text[] not null,
        ip_allowlist text[] not null,
        snapshot jsonb not null,
        revision bigint not null
      )`);
    await db.query(`
      create table api_keys (
        prefix text primary key,
        key_id uuid not null unique,
        partner_id uuid not null,
        key_hash text not null,
        scopes text[] not null,
        created_at timestamptz not null,
        secret_issued_at timestamptz not null
      )`);
    await db.query('create index api_keys_partner on api_keys (partner_id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table api_keys');
    await db.query('drop table partner_access');
  }
}
