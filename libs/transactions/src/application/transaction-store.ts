import { Injectable } from '@nestjs/common';
import { EventStore, handleCommand, type EventMetadata, type RecordedEvent } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { decide, type TransactionCommand } from '../domain/decide';
import { transactionEvolver, type Transaction } from '../domain/transaction';
import { TransactionNotFound } from '../domain/transaction-errors';
import { transactionStream, type TransactionEvent } from '../domain/transaction-events';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type TransactionCommandInput = DistributiveOmit<TransactionCommand, 'at'>;

/** A transaction stream as a caller already knows it (see `HandleCommandOptions.known`). */
export interface KnownTransactionStream {
  transaction: Transaction | null;
  /** The stream's revision (NO_STREAM for a stream not written yet). */
  revision: bigint;
}

export interface TransactionResult {
  transaction: Transaction;
  events: TransactionEvent[];
  /** The stream's revision after the command. */
  revision: bigint;
  position: bigint | null;
  alreadyApplied: boolean;
}

/**
 * The transaction streams: read (fold) and write (decide + append with the expected revision,
 * retried on a race). One request may write several times to one stream (initiate, then the
 * gateway's answer); each step carries its own `causation_id`, derived from the request's command
 * id and the step's name, so a re-run recognises exactly the steps its first run finished.
 */
@Injectable()
export class TransactionStore {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async history(transactionId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(transactionStream(transactionId));
  }

  async find(transactionId: string): Promise<Transaction | null> {
    const events = await this.history(transactionId);
    return events.reduce<Transaction | null>(
      (state, e) => transactionEvolver.evolve(state, { type: e.type, data: e.data } as TransactionEvent),
      transactionEvolver.initialState(),
    );
  }

  /** The transaction if it is this partner's; otherwise 404 `transaction_not_found` (same answer). */
  async getForPartner(transactionId: string, partnerId: string): Promise<Transaction> {
    const transaction = await this.find(transactionId);
    if (!transaction || transaction.partnerId !== partnerId) throw new TransactionNotFound(transactionId);
    return transaction;
  }

  async execute(
    command: TransactionCommandInput,
    metadata: EventMetadata,
    known?: KnownTransactionStream,
  ): Promise<TransactionResult> {
    const at = this.clock.now();
    const result = await handleCommand<Transaction | null, TransactionEvent>(
      this.store,
      transactionStream(command.transactionId),
      transactionEvolver,
      (state) => decide(state, { ...command, at } as TransactionCommand),
      metadata,
      { known: known && { state: known.transaction, revision: known.revision } },
    );
    if (!result.state) throw new TransactionNotFound(command.transactionId);
    return {
      transaction: result.state,
      events: result.events,
      revision: result.revision,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }
}
