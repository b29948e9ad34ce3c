import { Injectable } from '@nestjs/common';
import { EventStore, handleCommand, type EventMetadata } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { decide, type SettlementBatchCommand } from '../domain/decide';
import { settlementBatchEvolver, type SettlementBatch } from '../domain/settlement-batch';
import { settlementBatchStream, type SettlementBatchEvent } from '../domain/settlement-batch-events';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A batch command as callers give it: the store stamps the time from the clock. */
export type SettlementBatchCommandInput = DistributiveOmit<SettlementBatchCommand, 'at'>;

export interface SettlementBatchResult {
  batch: SettlementBatch;
  /** Global position of the command's last event, for read-your-writes; null if none. */
  position: bigint | null;
  alreadyApplied: boolean;
}

/** The batch streams (`batch-{id}`): read (fold) and write (decide + append, retried on a race). */
@Injectable()
export class SettlementBatchStore {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async find(batchId: string): Promise<SettlementBatch | null> {
    const events = await this.store.readStream(settlementBatchStream(batchId));
    return events.reduce(
      (state, e) =>
        settlementBatchEvolver.evolve(state, { type: e.type, data: e.data } as SettlementBatchEvent),
      settlementBatchEvolver.initialState(),
    );
  }

  async execute(
    command: SettlementBatchCommandInput,
    metadata: EventMetadata,
  ): Promise<SettlementBatchResult> {
    const at = this.clock.now();
    const result = await handleCommand<SettlementBatch | null, SettlementBatchEvent>(
      this.store,
      settlementBatchStream(command.batchId),
      settlementBatchEvolver,
      (state) => decide({ ...command, at } as SettlementBatchCommand, state),
      metadata,
    );
    // Every batch command creates or follows an open: the state exists after it.
    return { batch: result.state!, position: result.position, alreadyApplied: result.alreadyApplied };
  }
}
