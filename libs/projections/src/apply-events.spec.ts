import type { EntityManager } from 'typeorm';
import type { ReadEvent, RecordedEvent } from '../../event-store/src';
import { testMetadata } from '../../../test/support/metadata';
import { applyEvents } from './apply-events';
import type { Projector } from './projector';

const event = (position: bigint, type: string): RecordedEvent => ({
  id: `e${position}`,
  stream: 'thing-1',
  revision: position - 1n,
  globalPosition: position,
  type,
  data: { position: String(position) },
  metadata: testMetadata(),
  recordedAt: new Date('2026-11-25T00:00:00Z'),
});

/** The runner's apply step over a page read with `EventStore.readAllOf`. */
describe('applyEvents', () => {
  const tx = {} as EntityManager;

  it('hands the projector only its own events, whole, and moves past the events passed over', async () => {
    const handled: RecordedEvent[] = [];
    const projector: Projector = {
      name: 'things',
      eventTypes: ['ThingMade'],
      tables: [],
      handle: async (_tx, e) => {
        handled.push(e);
      },
    };
    const page: ReadEvent[] = [
      event(1n, 'ThingMade'),
      { globalPosition: 2n, type: 'OtherThing', passed: true },
      event(3n, 'ThingMade'),
      { globalPosition: 4n, type: 'OtherThing', passed: true },
    ];
    expect(await applyEvents(tx, projector, new Set(projector.eventTypes), page)).toBe(4n);
    expect(handled.map((e) => e.globalPosition)).toEqual([1n, 3n]);
  });

  it('never hands over a passed-over event, even of a type the projector handles', async () => {
    const batches: RecordedEvent[][] = [];
    const projector: Projector = {
      name: 'things',
      eventTypes: ['ThingMade'],
      tables: [],
      handle: async () => undefined,
      handleBatch: async (_tx, events) => {
        batches.push(events);
      },
    };
    const page: ReadEvent[] = [
      { globalPosition: 7n, type: 'ThingMade', passed: true },
      event(8n, 'ThingMade'),
    ];
    expect(await applyEvents(tx, projector, new Set(['ThingMade']), page)).toBe(8n);
    expect(batches).toEqual([[page[1]]]);
  });
});
