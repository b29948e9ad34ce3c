import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `contract_list`: one row per recurring contract (for `GET /contracts` and the scheduler), and
 * `contract_charges`: one row per installment charge that recorded a transaction (its outcome,
 * for ACH returns and for reconciling a contract with its transactions).
 */
export class ContractList1764670000000 implements MigrationInterface {
  name = 'ContractList1764670000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table contract_list (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid not null,
        state text not null,
        rail text not null,
        card_last4 text,
        amount_minor bigint not null,
        currency text not null,
        frequency text not null,
        next_charge_date date,
        in_flight boolean not null,
        held_for text,
        activation_deadline timestamptz,
        created_at timestamptz not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    // The list and its filters, newest first.
    await db.query(
      'create index contract_list_partner_position on contract_list (partner_id, created_position desc)',
    );
    await db.query(
      `create index contract_list_partner_merchant_position
         on contract_list (partner_id, merchant_id, created_position desc)`,
    );
    await db.query(
      'create index contract_list_partner_state_position on contract_list (partner_id, state, created_position desc)',
    );
    // The scheduler: what falls due, what is in flight, what the platform holds, what waits to be paid.
    await db.query(
      `create index contract_list_due on contract_list (next_charge_date) where state = 'ACTIVE'`,
    );
    await db.query('create index contract_list_in_flight on contract_list (id) where in_flight');
    await db.query(
      `create index contract_list_held on contract_list (id) where state = 'PAUSED' and held_for is not null`,
    );
    await db.query(
      `create index contract_list_activation on contract_list (activation_deadline)
         where state = 'PENDING_ACTIVATION'`,
    );
    await db.query(`
      create table contract_charges (
        transaction_id uuid primary key,
        contract_id uuid not null,
        partner_id uuid not null,
        installment integer not null,
        attempt integer not null,
        rail text not null,
        outcome text not null check (outcome in ('CHARGED', 'FAILED', 'RETURNED')),
        charged_at timestamptz not null
      )`);
    await db.query('create index contract_charges_contract on contract_charges (contract_id, installment)');
    // ACH installments a return may still name.
    await db.query(
      `create index contract_charges_returnable on contract_charges (charged_at)
         where rail = 'ACH' and outcome = 'CHARGED'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop table contract_charges');
    await db.query('drop table contract_list');
  }
}
