import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore } from '../../../event-store/src';
import type { ReconciliationException } from '../domain/reconciliation-exception';
import { reconciliationExceptionAggregate } from './reconciliation-exception-commands';

/** One exception, straight from its stream. */
@Injectable()
export class ReconciliationExceptionReader extends AggregateReader<ReconciliationException> {
  constructor(store: EventStore) {
    super(store, reconciliationExceptionAggregate);
  }
}
