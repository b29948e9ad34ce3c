import type { MigrationInterface, QueryRunner } from 'typeorm';

export class StoredCredentialList1764310000000 implements MigrationInterface {
  name = 'StoredCredentialList1764310000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table stored_credential_list (
        id uuid primary key,
        vault_token text not null,
        partner_id uuid not null,
        merchant_id uuid not null,
        customer_id uuid,
        state text not null,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null,
        constraint stored_credential_list_vault_token_key unique (vault_token)
      )`);
    // The list: one merchant's credentials of one state, newest first.
    await db.query(
      `create index stored_credential_list_merchant_state_position
         on stored_credential_list (merchant_id, state, created_position desc)`,
    );
    // The customer_id filter of the list.
    await db.query(
      `create index stored_credential_list_merchant_customer_position
         on stored_credential_list (merchant_id, customer_id, created_position desc)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table stored_credential_list');
  }
}
