import type { Clock } from '../../../platform/src/clock/clock';
import type { EventStore } from '../event-store';

/**
 * The KurrentDB adapter for `EVENT_STORE_URL`, loaded only when one is configured: its client
 * (gRPC and protobuf) costs a fifth of a second of every start-up that does not use it.
 */
export async function connectKurrentDb(url: string, clock: Clock): Promise<EventStore> {
  const { KurrentDbEventStore } = await import('./kurrentdb-event-store');
  return KurrentDbEventStore.fromConnectionString(url, clock);
}
