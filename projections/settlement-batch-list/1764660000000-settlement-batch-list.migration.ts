import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `settlement_batch_list`: one row per settlement batch (for `GET /settlement/batches` and the
 * reconciliation sweep), its members kept apart in `settlement_batch_members` (for
 * `GET /settlement/batches/{id}/transactions`, paged in the run's order). Money is integer minor
 * units of `currency`, signed as money moving to the merchant, so an analyst sums it in SQL.
 */
export class SettlementBatchList1764660000000 implements MigrationInterface {
  name = 'SettlementBatchList1764660000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table settlement_batch_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        state text not null,
        reporting_basis text not null,
        currency text not null,
        settlement_date date not null,
        expected_by timestamptz not null,
        transaction_count integer not null,
        total_minor bigint not null,
        fees_minor bigint,
        net_minor bigint,
        reconciled_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    const index = (name: string, definition: string) =>
      db.query(`create index ${name} on settlement_batch_list ${definition}`);
    await index('settlement_batch_list_partner_position', '(partner_id, created_position desc)');
    await index(
      'settlement_batch_list_partner_merchant_position',
      '(partner_id, merchant_id, created_position desc)',
    );
    await index('settlement_batch_list_partner_state_position', '(partner_id, state, created_position desc)');
    // The sweep: open batches by deadline.
    await index(
      'settlement_batch_list_open',
      `(state, expected_by) where state in ('PENDING', 'RECONCILING', 'EXCEPTION')`,
    );
    await db.query(`
      create table settlement_batch_members (
        batch_id uuid not null,
        ordinal integer not null,
        member_id uuid not null,
        transaction_id uuid not null,
        partner_id uuid not null,
        merchant_id uuid not null,
        gateway_transaction_id text,
        rail text not null,
        type text not null,
        amount_minor bigint not null,
        currency text not null,
        settled_at timestamptz not null,
        match_state text not null,
        reported_amount_minor bigint,
        primary key (batch_id, ordinal)
      )`);
    await db.query(
      'create index settlement_batch_members_transaction on settlement_batch_members (transaction_id)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table settlement_batch_members');
    await db.query('drop table settlement_batch_list');
  }
}
