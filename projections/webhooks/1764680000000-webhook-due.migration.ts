import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery queue moves out of `webhook_deliveries` into a narrow table of its own,
 * `webhook_due`: one row per delivery waiting for an attempt (its due time and lease), inserted
 * with the delivery, deleted when the delivery ends, re-inserted by a replay.
 *
 * Why (docs/benchmarks.md, "SALE with webhooks delivered"): the queue lived in the history table.
 * Its partial index on `next_attempt_at where state = 'PENDING'` made every outcome a non-HOT
 * update of a wide row (a new version through all five indexes), and its leases fell off the
 * page; the table's aggressive autovacuum then scanned five ever-growing indexes every few
 * hundred deliveries. Now the history row is inserted once and updated in place (no indexed
 * column changes, and the page keeps room for it), and the queue is a small table whose dead rows
 * vacuum sweeps cheaply. The envelope index goes too: the unique key, now (envelope, endpoint),
 * serves lookups by envelope.
 */
export class WebhookDue1764680000000 implements MigrationInterface {
  name = 'WebhookDue1764680000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table webhook_due (
        delivery_id uuid primary key,
        endpoint_id uuid not null,
        due_at timestamptz not null,
        lease_token uuid,
        lease_until timestamptz
      ) with (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000,
              autovacuum_analyze_scale_factor = 0.05, autovacuum_analyze_threshold = 1000)`);
    await db.query('create index webhook_due_at on webhook_due (due_at)');
    await db.query(`
      insert into webhook_due (delivery_id, endpoint_id, due_at, lease_token, lease_until)
      select id, endpoint_id, next_attempt_at, lease_token, lease_until from webhook_deliveries
       where state = 'PENDING' and next_attempt_at is not null`);
    await db.query('drop index webhook_deliveries_due');
    await db.query('drop index webhook_deliveries_envelope');
    await db.query(
      'alter table webhook_deliveries drop constraint webhook_deliveries_endpoint_id_envelope_id_key',
    );
    await db.query(
      'alter table webhook_deliveries add constraint webhook_deliveries_envelope_endpoint unique (envelope_id, endpoint_id)',
    );
    await db.query('alter table webhook_deliveries drop column lease_token, drop column lease_until');
    // An outcome rewrites the row (its attempts grow): room on the page keeps that a HOT update.
    await db.query(`alter table webhook_deliveries set (fillfactor = 70)`);
    await db.query(
      `alter table webhook_deliveries reset (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
         autovacuum_analyze_scale_factor)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('alter table webhook_deliveries reset (fillfactor)');
    await db.query(
      `alter table webhook_deliveries set (autovacuum_vacuum_scale_factor = 0.01,
         autovacuum_vacuum_threshold = 500, autovacuum_analyze_scale_factor = 0.02)`,
    );
    await db.query(
      'alter table webhook_deliveries add column lease_token uuid, add column lease_until timestamptz',
    );
    await db.query(`
      update webhook_deliveries d set lease_token = w.lease_token, lease_until = w.lease_until,
             next_attempt_at = w.due_at
        from webhook_due w where w.delivery_id = d.id`);
    await db.query('alter table webhook_deliveries drop constraint webhook_deliveries_envelope_endpoint');
    await db.query(
      'alter table webhook_deliveries add constraint webhook_deliveries_endpoint_id_envelope_id_key unique (endpoint_id, envelope_id)',
    );
    await db.query('create index webhook_deliveries_envelope on webhook_deliveries (envelope_id)');
    await db.query(
      `create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'PENDING'`,
    );
    await db.query('drop table webhook_due');
  }
}
