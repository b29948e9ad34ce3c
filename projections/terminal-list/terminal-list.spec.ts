import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import { PROJECTION_ENGINE_ENTITIES, PROJECTION_ENGINE_MIGRATIONS } from '../../libs/projections/src';
import { SqlTerminalCredentialDirectory } from '../../libs/terminals/src/application/terminal-credential-directory';
import { TERMINAL_EVENT_TYPES, type TerminalEvent } from '../../libs/terminals/src/domain/terminal-events';
import { terminalStream } from '../../libs/terminals/src/domain/terminal-stream';
import { createTestDatabase, dropTestDatabase } from '../../test/support/database';
import { projectorFeed } from '../../test/support/projector-feed';
import { PartnerAccess1764000000000 } from '../partner-access/1764000000000-partner-access.migration';
import { TerminalList1764640000000 } from './1764640000000-terminal-list.migration';
import { TerminalListProjector } from './terminal-list.projector';

const PARTNER = '11111111-1111-4111-8111-111111111111';
const MERCHANT = '22222222-2222-4222-8222-222222222222';
const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-01T00:10:00.000Z';

const ids = (terminalId: string) => ({ terminalId, merchantId: MERCHANT, partnerId: PARTNER });
const created = (id: string): TerminalEvent => ({
  type: 'TerminalCreated',
  data: { ...ids(id), serialNumber: `SN-${id.slice(-4)}`, model: 'PAX A920', createdAt: T0 },
});
const provisioned = (id: string, keyPrefix: string): TerminalEvent => ({
  type: 'TerminalProvisioned',
  data: { ...ids(id), keyPrefix, keyHash: `${keyPrefix}-hash`, provisionedAt: T0 },
});
const rotated = (id: string, keyPrefix: string): TerminalEvent => ({
  type: 'TerminalApiKeyRotated',
  data: { ...ids(id), keyPrefix, keyHash: `${keyPrefix}-hash`, rotatedAt: T1 },
});

describe('terminal-list projector', () => {
  let url: string;
  let db: DataSource;
  let pool: Pool;
  const projector = new TerminalListProjector();
  const feed = projectorFeed(() => db, projector, terminalStream, new Date(T0));
  const revisions = new Map<string, bigint>();

  /** The terminal's next event (revisions counted per terminal). */
  const apply = (id: string, event: TerminalEvent) => {
    const revision = revisions.get(id) ?? 0n;
    revisions.set(id, revision + 1n);
    return feed.apply(id, event, revision);
  };

  const row = async (id: string) =>
    (
      await db.query(
        `select id, partner_id, merchant_id, serial_number, model, state, api_key_prefix, api_key_hash,
                last_heartbeat_at, created_position::text as created_position, version, snapshot
           from terminal_list where id = $1`,
        [id],
      )
    )[0];

  beforeAll(async () => {
    url = await createTestDatabase('terminal_list');
    db = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, PartnerAccess1764000000000, TerminalList1764640000000],
    });
    await db.initialize();
    await runMigrations(db);
    pool = new Pool({ connectionString: url, max: 2 });
    await pool.query(
      `insert into partner_access (partner_id, rate_limit_tier, enabled_features, ip_allowlist, snapshot, revision)
       values ($1, 'STANDARD', '{terminals}', '{}', '{}', 0)`,
      [PARTNER],
    );
  });

  afterAll(async () => {
    await pool?.end();
    await db?.destroy();
    await dropTestDatabase(url);
  });

  it('handles exactly the terminal events and owns terminal_list', () => {
    expect(projector.name).toBe('terminal-list');
    expect([...projector.eventTypes].sort()).toEqual([...TERMINAL_EVENT_TYPES].sort());
    expect(projector.tables).toEqual(['terminal_list']);
  });

  it('a created terminal is an UNASSIGNED row without key, with the folded snapshot', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000001';
    await apply(id, created(id));
    expect(await row(id)).toMatchObject({
      id,
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      serial_number: 'SN-0001',
      model: 'PAX A920',
      state: 'UNASSIGNED',
      api_key_prefix: null,
      api_key_hash: null,
      last_heartbeat_at: null,
      created_position: String(feed.position),
      version: 1,
      snapshot: { id, state: 'UNASSIGNED', apiKey: null, version: 1 },
    });
  });

  it('follows the lifecycle: key, heartbeat, state, and keeps its place in the list', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000002';
    await apply(id, created(id));
    const createdAt = String(feed.position);
    await apply(id, provisioned(id, 'PrefixAA'));
    expect(await row(id)).toMatchObject({
      state: 'PROVISIONED',
      api_key_prefix: 'PrefixAA',
      api_key_hash: 'PrefixAA-hash',
    });
    await apply(id, {
      type: 'TerminalHeartbeatRecorded',
      data: { ...ids(id), firmwareVersion: '3.2.1', receivedAt: T1 },
    });
    await apply(id, { type: 'TerminalActivated', data: { ...ids(id), activatedAt: T1 } });
    const r = await row(id);
    expect(r).toMatchObject({ state: 'ACTIVE', created_position: createdAt, version: 4 });
    expect(new Date(r.last_heartbeat_at).toISOString()).toBe(T1);
    expect(r.snapshot).toMatchObject({ firmwareVersion: '3.2.1', lastHeartbeatAt: T1 });
  });

  it('an event of a terminal it never saw created changes nothing', async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000003';
    revisions.set(id, 1n);
    await apply(id, provisioned(id, 'PrefixZZ'));
    expect(await row(id)).toBeUndefined();
  });

  describe("the auth guard's key lookup over this read model", () => {
    const directory = () => new SqlTerminalCredentialDirectory(pool);

    it('finds a provisioned key by its prefix, with the partner flags and tier', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000004';
      await apply(id, created(id));
      expect(await directory().findByPrefix('PrefixBB')).toBeNull();
      await apply(id, provisioned(id, 'PrefixBB'));
      expect(await directory().findByPrefix('PrefixBB')).toEqual({
        terminalId: id,
        prefix: 'PrefixBB',
        partnerId: PARTNER,
        keyHash: 'PrefixBB-hash',
        enabledFeatures: ['terminals'],
        rateLimitTier: 'STANDARD',
      });
    });

    it('a rotated-away key is found no more; the new one is', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000005';
      await apply(id, created(id));
      await apply(id, provisioned(id, 'PrefixCC'));
      await apply(id, rotated(id, 'PrefixDD'));
      expect(await directory().findByPrefix('PrefixCC')).toBeNull();
      expect(await directory().findByPrefix('PrefixDD')).toMatchObject({
        terminalId: id,
        keyHash: 'PrefixDD-hash',
      });
    });

    it('a decommissioned terminal has no key to find', async () => {
      const id = 'aaaaaaaa-0000-4000-8000-000000000006';
      await apply(id, created(id));
      await apply(id, provisioned(id, 'PrefixEE'));
      await apply(id, { type: 'TerminalDecommissioned', data: { ...ids(id), decommissionedAt: T1 } });
      expect(await row(id)).toMatchObject({
        state: 'DECOMMISSIONED',
        api_key_prefix: null,
        api_key_hash: null,
      });
      expect(await directory().findByPrefix('PrefixEE')).toBeNull();
    });
  });
});
