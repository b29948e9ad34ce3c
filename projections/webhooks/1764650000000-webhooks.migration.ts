import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhooks read model and delivery tables (docs/webhooks.md, "For operators").
 *
 * Rebuilt and swapped by `rebuild webhooks`: `webhook_endpoints` (the endpoint list and the
 * fan-out's subscriptions) and `webhook_snapshots` (each source aggregate folded so far, for
 * `data.object`). Never swapped, so a rebuild neither repeats nor forgets a delivery:
 * `webhook_events` (the envelopes, `GET /events`), `webhook_deliveries` (one row per endpoint and
 * envelope, with its attempts), `webhook_endpoint_health`, `webhook_primary_intents` and
 * `webhook_retention`.
 */
export class Webhooks1764650000000 implements MigrationInterface {
  name = 'Webhooks1764650000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      create table webhook_endpoints (
        id uuid primary key,
        partner_id uuid not null,
        url text not null,
        enabled_events text[],
        state text not null check (state in ('ENABLED', 'SUSPENDED', 'DELETED')),
        is_primary boolean not null,
        created_position bigint not null,
        version integer not null,
        snapshot jsonb not null
      )`);
    await db.query(
      'create index webhook_endpoints_partner_position on webhook_endpoints (partner_id, created_position desc)',
    );
    await db.query(`
      create table webhook_snapshots (
        stream text primary key,
        snapshot jsonb not null
      )`);
    await db.query(`
      create table webhook_events (
        id uuid primary key,
        partner_id uuid not null,
        merchant_id uuid,
        type text not null,
        created_at timestamptz not null,
        position_key bigint not null unique,
        body text not null
      )`);
    await db.query('create index webhook_events_partner on webhook_events (partner_id, position_key desc)');
    await db.query(
      'create index webhook_events_partner_type on webhook_events (partner_id, type, position_key desc)',
    );
    await db.query(
      'create index webhook_events_partner_merchant on webhook_events (partner_id, merchant_id, position_key desc)',
    );
    await db.query('create index webhook_events_created_at on webhook_events (created_at)');
    await db.query(`
      create table webhook_deliveries (
        id uuid primary key,
        endpoint_id uuid not null,
        partner_id uuid not null,
        envelope_id uuid not null,
        event_type text not null,
        position_key bigint not null,
        state text not null check (state in ('PENDING', 'SUCCEEDED', 'FAILED', 'EXHAUSTED')),
        attempts jsonb not null default '[]',
        run_attempts integer not null default 0,
        next_attempt_at timestamptz,
        lease_token uuid,
        lease_until timestamptz,
        replayed_position bigint not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (endpoint_id, envelope_id)
      )`);
    await db.query(
      `create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'PENDING'`,
    );
    await db.query(
      'create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, position_key desc)',
    );
    await db.query('create index webhook_deliveries_envelope on webhook_deliveries (envelope_id)');
    // A queue table: every delivery is updated at least twice, and the due index must not fill
    // with dead entries between vacuums; vacuum and analyze it after ~1% of its rows changed.
    await db.query(
      `alter table webhook_deliveries set (autovacuum_vacuum_scale_factor = 0.01,
         autovacuum_vacuum_threshold = 500, autovacuum_analyze_scale_factor = 0.02)`,
    );
    await db.query(`
      create table webhook_endpoint_health (
        endpoint_id uuid primary key,
        consecutive_failures integer not null default 0,
        reset_position bigint not null default 0,
        updated_at timestamptz not null default now()
      )`);
    await db.query(`
      create table webhook_primary_intents (
        position bigint primary key,
        partner_id uuid not null,
        partner_revision bigint not null,
        url text,
        lease_until timestamptz,
        done_at timestamptz
      )`);
    await db.query(
      'create index webhook_primary_intents_pending on webhook_primary_intents (position) where done_at is null',
    );
    await db.query(`
      create table webhook_retention (
        id boolean primary key default true check (id),
        pruned_through bigint not null default 0
      )`);
    await db.query('insert into webhook_retention default values');
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_retention',
      'webhook_primary_intents',
      'webhook_endpoint_health',
      'webhook_deliveries',
      'webhook_events',
      'webhook_snapshots',
      'webhook_endpoints',
    ]) {
      await db.query(`drop table ${table}`);
    }
  }
}
