import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents } from '../../../event-store/src';
import { settlementBatchEvolver, type SettlementBatch } from '../domain/settlement-batch';
import { SettlementBatchNotFound } from '../domain/settlement-batch-errors';
import { settlementBatchStream } from '../domain/settlement-batch-events';

/** One batch, straight from its stream (strongly consistent, also right after a write). */
@Injectable()
export class SettlementBatchReader {
  constructor(private readonly store: EventStore) {}

  async find(batchId: string): Promise<SettlementBatch | null> {
    return foldEvents(settlementBatchEvolver, await this.store.readStream(settlementBatchStream(batchId)));
  }

  /** The batch, or 404 `settlement_batch_not_found`. */
  async get(batchId: string): Promise<SettlementBatch> {
    const batch = await this.find(batchId);
    if (!batch) throw new SettlementBatchNotFound(batchId);
    return batch;
  }

  /** The partner's batch; another partner's reads like one that does not exist. */
  async getForPartner(batchId: string, partnerId: string): Promise<SettlementBatch> {
    const batch = await this.find(batchId);
    if (!batch || batch.partnerId !== partnerId) throw new SettlementBatchNotFound(batchId);
    return batch;
  }
}
