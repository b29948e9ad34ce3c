import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore } from '../../../event-store/src';
import type { SettlementBatch } from '../domain/settlement-batch';
import { settlementBatchAggregate } from './settlement-batch-commands';

/** One batch, straight from its stream (strongly consistent, also right after a write). */
@Injectable()
export class SettlementBatchReader extends AggregateReader<SettlementBatch> {
  constructor(store: EventStore) {
    super(store, settlementBatchAggregate);
  }
}
