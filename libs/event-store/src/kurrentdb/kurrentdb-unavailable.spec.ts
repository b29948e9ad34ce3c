import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { FixedClock } from '../../../platform/src/clock/clock';
import { freePort } from '../../../platform/src/database/embedded-postgres';
import { isDatabaseUnavailable } from '../../../platform/src/database/database-unavailable';
import { toProblem } from '../../../platform/src/problem/problem.filter';
import { testMetadata } from '../../../../test/support/metadata';
import { KurrentDbEventStore } from './kurrentdb-event-store';

/**
 * "An unreachable database answers 503 problem+json with Retry-After, never 500" holds for the
 * KurrentDB event store too: the errors the real client raises for a node nobody answers on (a
 * port with nothing listening) are recognised as the database being unavailable.
 */
describe('a KurrentDB node that cannot be reached, as the API answers it', () => {
  let store: KurrentDbEventStore;
  let client: KurrentDBClient;

  beforeAll(async () => {
    const url = `kurrentdb://127.0.0.1:${await freePort()}?tls=false&defaultDeadline=3000`;
    client = KurrentDBClient.connectionString(url);
    store = new KurrentDbEventStore(client, new FixedClock(new Date('2026-11-25T00:00:00Z')));
  });
  afterAll(() => client.dispose());

  async function errorOf(action: () => Promise<unknown>): Promise<unknown> {
    try {
      await action();
    } catch (error) {
      return error;
    }
    throw new Error('no error');
  }

  it('answers 503 service_unavailable with Retry-After for a read and for an append', async () => {
    const errors = [
      await errorOf(() => store.readStream('merchant-1')),
      await errorOf(() =>
        store.appendToStream('merchant-1', [{ type: 'MerchantCreated', data: {} }], {
          expectedRevision: 'no_stream',
          metadata: testMetadata(),
        }),
      ),
    ];
    for (const error of errors) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      const { body, headers } = toProblem(error);
      expect(body).toMatchObject({ status: 503, code: 'service_unavailable', retryable: true });
      expect(Number(headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('still tells a wrong query apart: an error of another kind is not "unavailable"', () => {
    expect(isDatabaseUnavailable({ type: 'wrong-expected-version', message: 'expected 3' })).toBe(false);
    expect(isDatabaseUnavailable({ code: 14, message: 'no details: not a gRPC status' })).toBe(false);
  });
});
