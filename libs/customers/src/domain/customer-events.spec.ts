import {
  CUSTOMER_EVENT_TYPES,
  CUSTOMER_WEBHOOK_EVENT_TYPES,
  CUSTOMER_WEBHOOK_TYPES,
} from './customer-events';
import { customerStream } from './customer-stream';

describe('customer events', () => {
  it('lists every event type once', () =>
    expect(CUSTOMER_EVENT_TYPES).toEqual([
      'CustomerCreated',
      'CustomerUpdated',
      'CustomerDeleted',
      'CustomerGatewayLinked',
      'CustomerGatewayUnlinked',
    ]));

  it('maps each event to a listed customer.* webhook type, and every webhook type is used', () => {
    const used = new Set(Object.values(CUSTOMER_WEBHOOK_EVENT_TYPES));
    expect([...used].sort()).toEqual([...CUSTOMER_WEBHOOK_TYPES].sort());
  });

  it('names the stream customer-{id}', () => expect(customerStream('abc')).toBe('customer-abc'));
});
