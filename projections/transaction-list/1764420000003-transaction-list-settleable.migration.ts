import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rows the end-of-day run and the reconciliation sweep look for, per merchant in list order:
 * card captures not yet settled and ACH entries not yet cleared. The predicate is the settlement
 * rules' (`SETTLEABLE_SQL` in libs/settlement), so the planner reads only these rows instead of a
 * partner's whole book; they leave the index as they settle.
 */
export class TransactionListSettleable1764420000003 implements MigrationInterface {
  name = 'TransactionListSettleable1764420000003';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `create index transaction_list_settleable on transaction_list (merchant_id, created_position)
         where (rail = 'CARD' and state = 'CAPTURED') or (rail = 'ACH' and state = 'SUBMITTED')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop index transaction_list_settleable');
  }
}
