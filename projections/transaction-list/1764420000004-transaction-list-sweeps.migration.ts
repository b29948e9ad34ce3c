import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the periodic sweeps look for, each in an index of only the rows it may act on, so a pass
 * costs what it finds rather than the size of the book:
 * - a SALE whose gateway outcome is unknown (`INITIATED`) and a 3-D Secure challenge left open
 *   (`THREE_DS_PENDING`), in list order (libs/transactions, `transaction-sweeps.ts`). Without them
 *   each pass read a whole index of the table (up to 180 ms in a benchmark run's table);
 * - card captures and ACH entries not yet settled, by age (libs/settlement,
 *   `reconciliation-sweep.ts`, rules 2 and 3): the overdue ones are the oldest few. The
 *   `transaction_list_settleable` index has the same rows by merchant, so the sweep read every
 *   unsettled transaction to find none overdue (up to 340 ms in a benchmark run, every 30 s).
 * projections/sweep-plans.spec.ts checks the pages each sweep touches: 2–3 against 53–140 without.
 */
export class TransactionListSweeps1764420000004 implements MigrationInterface {
  name = 'TransactionListSweeps1764420000004';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `create index transaction_list_initiated on transaction_list (created_position) where state = 'INITIATED'`,
    );
    await db.query(
      `create index transaction_list_three_ds_pending on transaction_list (created_position)
         where state = 'THREE_DS_PENDING'`,
    );
    await db.query(
      `create index transaction_list_unsettled_age on transaction_list (created_at)
         where (rail = 'CARD' and state = 'CAPTURED') or (rail = 'ACH' and state = 'SUBMITTED')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop index transaction_list_unsettled_age');
    await db.query('drop index transaction_list_three_ds_pending');
    await db.query('drop index transaction_list_initiated');
  }
}
