import { SnapshotListProjector } from '../../libs/projections/src';
import {
  evolve,
  type Customer,
  CUSTOMER_EVENT_TYPES,
  type CustomerEvent,
  CUSTOMER_STREAM_PREFIX,
} from '../../libs/customers/src';

/**
 * `customer_list`: one row per customer (for `GET /merchants/{id}/customers`). A deleted customer
 * keeps its row with `deleted = true` (the list leaves it out).
 */
export class CustomerListProjector extends SnapshotListProjector<Customer> {
  constructor() {
    super({
      name: 'customer-list',
      table: 'customer_list',
      eventTypes: CUSTOMER_EVENT_TYPES,
      streamPrefix: CUSTOMER_STREAM_PREFIX,
      evolve: (state, event) => evolve(state, event as CustomerEvent),
      columns: (customer) => ({
        merchant_id: customer.merchantId,
        partner_id: customer.partnerId,
        email: customer.email,
        display_name: customer.displayName,
        deleted: customer.deleted,
        created_at: customer.createdAt,
        version: customer.version,
      }),
    });
  }
}
