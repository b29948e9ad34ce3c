import type { Clock } from '../../../platform/src/clock/clock';
import type { ScrapedGauge } from '../../../platform/src/metrics/scraped-gauge';
import { dateOf } from '../domain';

/**
 * Recurring charges as an operator watches them (docs/operations.md, "Metrics"): the ACTIVE
 * contracts whose `next_charge_date` has come on the service's clock (the sandbox clock in a
 * sandbox) and that no pass has charged yet. It drops to zero after each scheduler pass; a number
 * that stays up means passes are not running or not keeping up. Read from `contract_list` with
 * the same predicate, and the same partial index, as the scheduler's own pick.
 */
export function recurringGauges(clock: Clock): readonly ScrapedGauge[] {
  return [
    {
      name: 'recurring_charges_due',
      help: 'ACTIVE recurring contracts whose next charge date has come and that are not charged yet.',
      async read(pool) {
        const { rows } = await pool.query<{ count: string }>(
          `select count(*) as count from contract_list where state = 'ACTIVE' and next_charge_date <= $1`,
          [dateOf(clock.now())],
        );
        return [{ value: Number(rows[0].count) }];
      },
    },
  ];
}
