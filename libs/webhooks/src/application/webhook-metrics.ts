import type { ScrapedGauge } from '../../../platform/src/metrics/scraped-gauge';

/**
 * The delivery queue as an operator watches it: how many deliveries wait for an attempt, and how
 * long the oldest has waited since its event (a receiver down for hours shows here first). Read
 * from `webhook_deliveries` (its partial index on PENDING keeps both counts cheap).
 */
export const WEBHOOK_QUEUE_GAUGES: readonly ScrapedGauge[] = [
  {
    name: 'webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for their next attempt (state PENDING).',
    async read(pool) {
      const { rows } = await pool.query<{ count: string }>(
        `select count(*) as count from webhook_deliveries where state = 'PENDING'`,
      );
      return [{ value: Number(rows[0].count) }];
    },
  },
  {
    name: 'webhook_oldest_pending_delivery_seconds',
    help: 'Seconds since the oldest pending webhook delivery was created (0 when none is pending).',
    async read(pool) {
      const { rows } = await pool.query<{ age: string | null }>(
        `select extract(epoch from now() - min(created_at)) as age
           from webhook_deliveries where state = 'PENDING'`,
      );
      return [{ value: rows[0].age === null ? 0 : Math.max(0, Number(rows[0].age)) }];
    },
  },
];
