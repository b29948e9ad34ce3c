import { Injectable } from '@nestjs/common';
import { EventStore, type RecordedEvent } from '../../../event-store/src';
import { evolve, initialState, type Customer } from '../domain/customer';
import { CustomerNotFound } from '../domain/customer-errors';
import type { CustomerEvent } from '../domain/customer-events';
import { customerStream } from '../domain/customer-stream';

/**
 * One customer, straight from its stream. A deleted customer, and one of another merchant or
 * another partner, reads exactly like one that does not exist: 404 `customer_not_found`.
 */
@Injectable()
export class CustomerReader {
  constructor(private readonly store: EventStore) {}

  async history(customerId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(customerStream(customerId));
  }

  /** The customer as its events make it, deleted or not; null when the stream is empty. */
  async find(customerId: string): Promise<Customer | null> {
    const events = await this.history(customerId);
    return events.reduce<Customer | null>(
      (state, e) => evolve(state, { type: e.type, data: e.data } as CustomerEvent),
      initialState(),
    );
  }

  /** The customer if it is live and this merchant's (of this partner); otherwise customer_not_found. */
  async getForMerchant(customerId: string, merchantId: string, partnerId: string): Promise<Customer> {
    const customer = await this.find(customerId);
    if (
      !customer ||
      customer.deleted ||
      customer.merchantId !== merchantId ||
      customer.partnerId !== partnerId
    ) {
      throw new CustomerNotFound(customerId);
    }
    return customer;
  }
}
