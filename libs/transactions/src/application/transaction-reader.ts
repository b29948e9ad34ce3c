import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore } from '../../../event-store/src';
import type { Transaction } from '../domain/transaction';
import { transactionAggregate } from './transaction-commands';

/** One transaction, straight from its stream; another partner's is 404 `transaction_not_found`. */
@Injectable()
export class TransactionReader extends AggregateReader<Transaction> {
  constructor(store: EventStore) {
    super(store, transactionAggregate);
  }
}
