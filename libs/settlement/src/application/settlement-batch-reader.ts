import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents } from '../../../event-store/src';
import { settlementBatchEvolver, type SettlementBatch } from '../domain/settlement-batch';
import { settlementBatchStream } from '../domain/settlement-batch-events';

/** One batch, straight from its stream. */
@Injectable()
export class SettlementBatchReader {
  constructor(private readonly store: EventStore) {}

  async find(batchId: string): Promise<SettlementBatch | null> {
    return foldEvents(settlementBatchEvolver, await this.store.readStream(settlementBatchStream(batchId)));
  }
}
