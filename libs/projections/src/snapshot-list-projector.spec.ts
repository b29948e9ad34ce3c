import { randomUUID } from 'node:crypto';
import * as fc from 'fast-check';
import type { DataSource, EntityManager } from 'typeorm';
import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import { testMetadata } from '../../../test/support/metadata';
import type { RecordedEvent } from '../../event-store/src';
import { createDataSource } from '../../platform/src/database/data-source';
import { SnapshotListProjector } from './snapshot-list-projector';

/**
 * A page of events folded in memory gives the rows that applying them one at a time gives (each
 * event then reads the row the one before it wrote). The test aggregate has what makes that
 * delicate: events that leave no state, a part of the state the row does not keep, values that
 * change type through JSON (a Date), and a second table written from the same events.
 */
interface Tab {
  partnerId: string;
  name: string;
  count: number;
  openedAt: string;
  /** Not kept in the row (`snapshot` drops it): the next event must not need it. */
  scratch?: Date;
}

type TabEvent =
  | { type: 'Opened'; data: { name: string } }
  | { type: 'Renamed'; data: { name: string } }
  | { type: 'Counted'; data: { by: number } }
  | { type: 'Ignored'; data: Record<string, never> };

const PARTNER = randomUUID();

function evolve(state: Tab | null, event: { type: string; data: unknown }): Tab | null {
  const e = event as TabEvent;
  switch (e.type) {
    case 'Opened':
      return (
        state ?? {
          partnerId: PARTNER,
          name: e.data.name,
          count: 0,
          openedAt: '2026-11-25T00:00:00.000Z',
          scratch: new Date(0),
        }
      );
    case 'Renamed':
      return state && { ...state, name: e.data.name, scratch: new Date(1) };
    case 'Counted':
      return state && { ...state, count: state.count + e.data.by };
    default:
      return null;
  }
}

class TabList extends SnapshotListProjector<Tab> {
  override readonly tables = ['tab_list', 'tab_log'];
  constructor() {
    super({
      name: 'tab-list',
      table: 'tab_list',
      eventTypes: ['Opened', 'Renamed', 'Counted', 'Ignored'],
      streamPrefix: 'tab-',
      evolve,
      columns: (tab) => ({ partner_id: tab.partnerId, name: tab.name, count: tab.count }),
      snapshot: ({ scratch: _scratch, ...kept }) => kept,
    });
  }

  protected override async applied(tx: EntityManager, recorded: RecordedEvent, state: Tab | null) {
    await tx.query('insert into tab_log (position, state) values ($1, $2)', [
      recorded.globalPosition.toString(),
      state && JSON.stringify({ name: state.name, count: state.count }),
    ]);
  }
}

const TABS = [randomUUID(), randomUUID(), randomUUID()];

const eventArb: fc.Arbitrary<[number, TabEvent]> = fc.tuple(
  fc.integer({ min: 0, max: TABS.length - 1 }),
  fc.oneof(
    fc.record({
      type: fc.constant('Opened' as const),
      data: fc.record({ name: fc.string({ maxLength: 5 }) }),
    }),
    fc.record({
      type: fc.constant('Renamed' as const),
      data: fc.record({ name: fc.string({ maxLength: 5 }) }),
    }),
    fc.record({
      type: fc.constant('Counted' as const),
      data: fc.record({ by: fc.integer({ min: -3, max: 3 }) }),
    }),
    fc.constant({ type: 'Ignored' as const, data: {} }),
  ),
);

function recorded(events: [number, TabEvent][]): RecordedEvent[] {
  return events.map(([tab, event], i) => ({
    stream: `tab-${TABS[tab]}`,
    revision: BigInt(i),
    globalPosition: BigInt(i + 1),
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: testMetadata(),
    recordedAt: new Date('2026-11-25T00:00:00Z'),
  }));
}

describe('SnapshotListProjector', () => {
  let url: string;
  let db: DataSource;
  const projector = new TabList();

  beforeAll(async () => {
    url = await createTestDatabase('snapshot_list');
    db = createDataSource(url, { entities: [], migrations: [] });
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await dropTestDatabase(url);
  });

  async function rowsAfter(
    apply: (tx: EntityManager, events: RecordedEvent[]) => Promise<void>,
    events: RecordedEvent[],
  ) {
    await db.query('drop table if exists tab_list; drop table if exists tab_log');
    await db.query(`create table tab_list (id uuid primary key, partner_id uuid not null, name text not null,
      count integer not null, created_position bigint not null, snapshot jsonb not null)`);
    await db.query('create table tab_log (position bigint primary key, state jsonb)');
    await db.transaction((tx) => apply(tx, events));
    return {
      rows: await db.query(
        'select id, partner_id, name, count, created_position::text, snapshot from tab_list order by id',
      ),
      log: await db.query('select position::text, state from tab_log order by position'),
    };
  }

  it('a page gives the rows, and the same calls of applied, that its events one at a time give', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 25 }), async (events) => {
        const page = recorded(events);
        const oneByOne = await rowsAfter(async (tx, all) => {
          for (const event of all) await projector.handle(tx, event);
        }, page);
        const together = await rowsAfter((tx, all) => projector.handleBatch(tx, all), page);
        expect(together).toEqual(oneByOne);
      }),
      { numRuns: 40, seed: 2511 },
    );
  });

  it('keeps the first position a row was written at, and leaves the snapshot without what it drops', async () => {
    const page = recorded([
      [0, { type: 'Ignored', data: {} }],
      [0, { type: 'Opened', data: { name: 'a' } }],
      [0, { type: 'Renamed', data: { name: 'b' } }],
      [1, { type: 'Counted', data: { by: 2 } }],
    ]);
    const { rows } = await rowsAfter((tx, all) => projector.handleBatch(tx, all), page);
    expect(rows).toEqual([
      {
        id: TABS[0],
        partner_id: PARTNER,
        name: 'b',
        count: 0,
        created_position: '2',
        snapshot: { partnerId: PARTNER, name: 'b', count: 0, openedAt: '2026-11-25T00:00:00.000Z' },
      },
    ]);
  });
});
