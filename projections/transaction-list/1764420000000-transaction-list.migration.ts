import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `transaction_list`: the read model behind `GET /transactions`, `/transactions/summary` and
 * `/transactions/export`. One row per transaction with a column for every filter, the search and
 * every list-item field, plus the folded snapshot.
 *
 * Every query is "one partner, newest first" (`created_position desc`), so every index leads with
 * `partner_id`; the list's filters each get an index that either keeps the order (equality filters:
 * merchant, state, type, rail) or narrows the rows fast (created_at and amount ranges, the search).
 *
 * The substring search on `gateway_transaction_id` uses a trigram GIN index when the `pg_trgm`
 * extension can be created (it ships with PostgreSQL and is a trusted extension, so a database
 * owner may create it; the embedded PostgreSQL has it). Where it cannot, the migration falls back
 * to a btree on `lower(gateway_transaction_id) text_pattern_ops`, which serves prefix matches only:
 * a substring search then filters the partner's rows (see docs/transactions.md).
 */
export class TransactionList1764420000000 implements MigrationInterface {
  name = 'TransactionList1764420000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table transaction_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        type text not null,
        rail text not null,
        state text not null,
        amount_minor bigint not null,
        currency text not null,
        gateway_transaction_id text,
        approval_code text,
        decline_code text,
        decline_reason text,
        card_last4 text,
        routing_last4 text,
        account_last4 text,
        account_type text,
        customer_id uuid,
        parent_transaction_id uuid,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    const index = (name: string, definition: string) =>
      db.query(`create index ${name} on transaction_list ${definition}`);
    // The unfiltered list and every filter without an index of its own.
    await index('transaction_list_partner_position', '(partner_id, created_position desc)');
    // Equality filters keep the list's order: the first page is read straight off the index.
    await index(
      'transaction_list_partner_merchant_position',
      '(partner_id, merchant_id, created_position desc)',
    );
    await index('transaction_list_partner_state_position', '(partner_id, state, created_position desc)');
    await index('transaction_list_partner_type_position', '(partner_id, type, created_position desc)');
    await index('transaction_list_partner_rail_position', '(partner_id, rail, created_position desc)');
    // Range filters.
    await index('transaction_list_partner_created_at', '(partner_id, created_at)');
    await index('transaction_list_partner_amount', '(partner_id, amount_minor)');
    // The search: exact ACH last fours (transaction id: the primary key; merchant id: above).
    await index(
      'transaction_list_partner_routing_last4',
      '(partner_id, routing_last4) where routing_last4 is not null',
    );
    await index(
      'transaction_list_partner_account_last4',
      '(partner_id, account_last4) where account_last4 is not null',
    );
    // The search: case-insensitive substring of the gateway transaction id.
    await db.query(`
      do $$
      begin
        create extension if not exists pg_trgm;
      exception when others then
        raise notice 'pg_trgm is not available (%); transaction search falls back to a prefix index', sqlerrm;
      end
      $$`);
    const trigram = (await db.query(`select 1 from pg_extension where extname = 'pg_trgm'`)) as unknown[];
    if (trigram.length > 0) {
      await index('transaction_list_gateway_id_trgm', 'using gin (gateway_transaction_id gin_trgm_ops)');
    } else {
      await index('transaction_list_gateway_id_prefix', '(lower(gateway_transaction_id) text_pattern_ops)');
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table transaction_list');
  }
}
