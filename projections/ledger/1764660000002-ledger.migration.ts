import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The double-entry ledger (docs/ledger.md): journal entries (`ledger_entries`, one per event that
 * moves money, keyed by the event's id) and their lines (`ledger_lines`, debit positive, credit
 * negative, integer minor units of `currency`; each entry's lines sum to zero), the balance of each
 * account per merchant and currency (`ledger_balances`, kept with the lines in one transaction),
 * and what the projector remembers to post (`ledger_transactions`: each transaction as its events
 * make it; `ledger_batches`: each batch's total, surcharge and convenience-fee shares and the fees
 * posted). Every table is rebuilt from the events and swapped together.
 */
export class Ledger1764660000002 implements MigrationInterface {
  name = 'Ledger1764660000002';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table ledger_transactions (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        snapshot jsonb not null
      )`);
    await db.query(`
      create table ledger_batches (
        batch_id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        currency text not null,
        total_minor bigint not null default 0,
        surcharge_minor bigint not null default 0,
        convenience_fee_minor bigint not null default 0,
        fees_posted_minor bigint not null default 0,
        paid_out boolean not null default false
      )`);
    await db.query(`
      create table ledger_entries (
        id uuid primary key,
        position bigint not null unique,
        partner_id uuid not null,
        merchant_id uuid not null,
        currency text not null,
        kind text not null,
        event_type text not null,
        transaction_id uuid,
        batch_id uuid,
        description text not null,
        occurred_at timestamptz not null
      )`);
    await db.query(`
      create table ledger_lines (
        entry_id uuid not null,
        line smallint not null,
        position bigint not null,
        partner_id uuid not null,
        merchant_id uuid not null,
        currency text not null,
        account text not null,
        amount_minor bigint not null,
        kind text not null,
        transaction_id uuid,
        batch_id uuid,
        occurred_at timestamptz not null,
        primary key (entry_id, line)
      )`);
    await db.query(
      'create index ledger_lines_merchant_account on ledger_lines (merchant_id, account, currency)',
    );
    await db.query('create index ledger_lines_batch on ledger_lines (batch_id) where batch_id is not null');
    await db.query(
      'create index ledger_lines_transaction on ledger_lines (transaction_id) where transaction_id is not null',
    );
    await db.query(`
      create table ledger_balances (
        merchant_id uuid not null,
        account text not null,
        currency text not null,
        partner_id uuid not null,
        balance_minor bigint not null,
        primary key (merchant_id, account, currency)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'ledger_balances',
      'ledger_lines',
      'ledger_entries',
      'ledger_batches',
      'ledger_transactions',
    ]) {
      await db.query(`drop table ${table}`);
    }
  }
}
