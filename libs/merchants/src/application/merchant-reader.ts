import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore } from '../../../event-store/src';
import type { Merchant } from '../domain/merchant';
import { merchantAggregate } from './merchant-commands';

/**
 * One merchant, straight from its stream. A merchant of another partner reads exactly like one
 * that does not exist: 404 `merchant_not_found` (spec Authentication, the two cases are
 * indistinguishable by design).
 */
@Injectable()
export class MerchantReader extends AggregateReader<Merchant> {
  constructor(store: EventStore) {
    super(store, merchantAggregate);
  }
}
