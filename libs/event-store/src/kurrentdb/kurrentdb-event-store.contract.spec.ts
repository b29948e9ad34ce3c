import { FixedClock } from '../../../platform/src/clock/clock';
import { describeEventStore } from '../contract/event-store.contract';
import { KurrentDbEventStore } from './kurrentdb-event-store';

/**
 * The shared event store contract against a real KurrentDB, only when KURRENTDB_TEST_URL is set:
 *
 *   docker compose up -d kurrentdb
 *   KURRENTDB_TEST_URL=kurrentdb://localhost:2113?tls=false npm test
 *
 * The contract gives every test streams of its own and reads `$all` relative to the positions it
 * wrote, so a node that already holds events (from earlier runs or anything else) is fine; the
 * head position at the start is logged to tell this run's events apart. `docker compose down -v`
 * gives a fresh node.
 */
const url = process.env.KURRENTDB_TEST_URL;

if (!url) {
  describe('KurrentDbEventStore contract', () => {
    it.todo(
      'SKIPPED: set KURRENTDB_TEST_URL to run the shared contract against a real KurrentDB (docker compose up -d kurrentdb; KURRENTDB_TEST_URL=kurrentdb://localhost:2113?tls=false npm test)',
    );
  });
} else {
  describeEventStore('KurrentDbEventStore', async () => {
    const clock = new FixedClock(new Date('2025-01-01T00:00:00.000Z'));
    const store = KurrentDbEventStore.fromConnectionString(url, clock, { pageSize: 50 });
    const head = await store.headPosition();
    process.stdout.write(`KurrentDB contract run: events of this run come after position ${head}\n`);
    return { store, clock, teardown: () => store.close() };
  });
}
