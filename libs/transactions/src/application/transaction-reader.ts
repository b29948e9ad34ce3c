import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents, type RecordedEvent } from '../../../event-store/src';
import { transactionEvolver, type Transaction } from '../domain/transaction';
import { TransactionNotFound } from '../domain/transaction-errors';
import { transactionStream } from '../domain/transaction-events';

/** One transaction, straight from its stream (strongly consistent, unlike the list). */
@Injectable()
export class TransactionReader {
  constructor(private readonly store: EventStore) {}

  history(transactionId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(transactionStream(transactionId));
  }

  async find(transactionId: string): Promise<Transaction | null> {
    return foldEvents(transactionEvolver, await this.history(transactionId));
  }

  /** The transaction if it is this partner's; otherwise 404 `transaction_not_found` (same answer). */
  async getForPartner(transactionId: string, partnerId: string): Promise<Transaction> {
    const transaction = await this.find(transactionId);
    if (!transaction || transaction.partnerId !== partnerId) throw new TransactionNotFound(transactionId);
    return transaction;
  }
}
