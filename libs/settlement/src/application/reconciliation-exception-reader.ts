import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents } from '../../../event-store/src';
import {
  reconciliationExceptionEvolver,
  type ReconciliationException,
} from '../domain/reconciliation-exception';
import { ReconciliationExceptionNotFound } from '../domain/reconciliation-exception-errors';
import { reconciliationExceptionStream } from '../domain/reconciliation-exception-events';

/** One exception, straight from its stream. */
@Injectable()
export class ReconciliationExceptionReader {
  constructor(private readonly store: EventStore) {}

  async find(exceptionId: string): Promise<ReconciliationException | null> {
    return foldEvents(
      reconciliationExceptionEvolver,
      await this.store.readStream(reconciliationExceptionStream(exceptionId)),
    );
  }

  /** The exception, or 404 `reconciliation_exception_not_found`. */
  async get(exceptionId: string): Promise<ReconciliationException> {
    const exception = await this.find(exceptionId);
    if (!exception) throw new ReconciliationExceptionNotFound(exceptionId);
    return exception;
  }
}
