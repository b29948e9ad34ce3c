import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `reconciliation_exception_list`: one row per reconciliation exception (for
 * `GET /settlement/exceptions` and the reconciliation sweep). The amounts are integer minor units
 * of `currency`, signed as money moving to the merchant.
 */
export class ReconciliationExceptionList1764660000001 implements MigrationInterface {
  name = 'ReconciliationExceptionList1764660000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table reconciliation_exception_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        batch_id uuid,
        transaction_id uuid,
        type text not null,
        state text not null,
        severity text,
        currency text not null,
        expected_amount_minor bigint,
        observed_amount_minor bigint,
        created_at timestamptz not null,
        resolved_at timestamptz,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    const index = (name: string, definition: string) =>
      db.query(`create index ${name} on reconciliation_exception_list ${definition}`);
    await index('reconciliation_exception_list_partner_position', '(partner_id, created_position desc)');
    await index(
      'reconciliation_exception_list_partner_merchant_position',
      '(partner_id, merchant_id, created_position desc)',
    );
    await index(
      'reconciliation_exception_list_partner_state_position',
      '(partner_id, state, created_position desc)',
    );
    await index('reconciliation_exception_list_batch', '(batch_id) where batch_id is not null');
    await index(
      'reconciliation_exception_list_transaction',
      '(transaction_id, type) where transaction_id is not null',
    );
    await index(
      'reconciliation_exception_list_outstanding',
      `(created_position) where state in ('OPEN', 'ESCALATED')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table reconciliation_exception_list');
  }
}
