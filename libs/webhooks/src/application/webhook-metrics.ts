import type { ScrapedGauge } from '../../../platform/src/metrics/scraped-gauge';

/**
 * The delivery queue as an operator watches it: how many deliveries wait for an attempt, and how
 * long the oldest has waited since its event (a receiver down for hours shows here first). Read
 * from the queue, `webhook_due` (one row per PENDING delivery; narrow, so both reads stay cheap).
 */
export const WEBHOOK_QUEUE_GAUGES: readonly ScrapedGauge[] = [
  {
    name: 'webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for their next attempt (state PENDING).',
    async read(pool) {
      const { rows } = await pool.query<{ count: string }>('select count(*) as count from webhook_due');
      return [{ value: Number(rows[0].count) }];
    },
  },
  {
    name: 'webhook_oldest_pending_delivery_seconds',
    help: 'Seconds since the oldest pending webhook delivery was created (0 when none is pending).',
    async read(pool) {
      const { rows } = await pool.query<{ age: string | null }>(
        `select extract(epoch from now() - min(d.created_at)) as age
           from webhook_due w join webhook_deliveries d on d.id = w.delivery_id`,
      );
      return [{ value: rows[0].age === null ? 0 : Math.max(0, Number(rows[0].age)) }];
    },
  },
];
