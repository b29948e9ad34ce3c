import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's unique key becomes (position_key, endpoint_id) instead of (envelope_id,
 * endpoint_id): the same rule, since an envelope and its position key are one to one
 * (`webhook_events.position_key` is unique, and a delivery carries its envelope's).
 *
 * Why: envelope ids are derived from event ids by hashing, so every delivery inserted went to a
 * random page of the old index. As the table grew, each batch touched as many index pages as it
 * had deliveries, each of them written whole to the WAL after every checkpoint; the `webhooks`
 * projector's statement cost grew with the table under SALE load (docs/benchmarks.md, "SALE with
 * webhooks delivered"). Position keys only grow: new deliveries land on the index's last pages.
 * The retention pass finds old deliveries by position through it too.
 */
export class WebhookDeliveriesPositionKey1764680000001 implements MigrationInterface {
  name = 'WebhookDeliveriesPositionKey1764680000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      'alter table webhook_deliveries add constraint webhook_deliveries_position_endpoint unique (position_key, endpoint_id)',
    );
    await db.query('alter table webhook_deliveries drop constraint webhook_deliveries_envelope_endpoint');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'alter table webhook_deliveries add constraint webhook_deliveries_envelope_endpoint unique (envelope_id, endpoint_id)',
    );
    await db.query('alter table webhook_deliveries drop constraint webhook_deliveries_position_endpoint');
  }
}
