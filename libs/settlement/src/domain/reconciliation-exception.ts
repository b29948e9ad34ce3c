import type { ReconciliationExceptionEvent } from './reconciliation-exception-events';
import type { ExceptionState, ExceptionType, Severity } from './reconciliation-exception-rules';

/** A reconciliation exception as its events make it: plain JSON (the read model keeps it as a snapshot). */
export interface ReconciliationException {
  id: string;
  batchId: string | null;
  merchantId: string;
  partnerId: string;
  transactionId: string | null;
  type: ExceptionType;
  key: string;
  occurrence: number;
  state: ExceptionState;
  severity: Severity | null;
  description: string;
  expectedBy: string | null;
  observedAt: string;
  currency: string;
  expectedAmountMinor: string | null;
  observedAmountMinor: string | null;
  /** The operator (`platform-operator`) or the system actor that last resolved or escalated it. */
  resolvedBy: string | null;
  resolvedAt: string | null;
  resolution: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type ReconciliationExceptionOrNone = ReconciliationException | null;

export const initialExceptionState = (): ReconciliationExceptionOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolveException(
  exception: ReconciliationExceptionOrNone,
  event: ReconciliationExceptionEvent,
): ReconciliationExceptionOrNone {
  if (event.type === 'ReconciliationExceptionOpened') {
    const { exceptionId, openedAt, ...d } = event.data;
    return {
      id: exceptionId,
      ...d,
      state: 'OPEN',
      resolvedBy: null,
      resolvedAt: null,
      resolution: null,
      createdAt: openedAt,
      updatedAt: openedAt,
      version: 1,
    };
  }
  if (!exception) return exception;
  const d = event.data;
  const next = (state: ExceptionState): ReconciliationException => ({
    ...exception,
    state,
    resolvedBy: d.resolvedBy,
    resolvedAt: d.at,
    resolution: d.resolution,
    updatedAt: d.at,
    version: exception.version + 1,
  });
  switch (event.type) {
    case 'ReconciliationExceptionEscalated':
      return next('ESCALATED');
    case 'ReconciliationExceptionResolved':
      return next(event.data.state);
    case 'ReconciliationExceptionAutoResolved':
      return next('AUTO_RESOLVED');
  }
}

export const reconciliationExceptionEvolver = {
  initialState: initialExceptionState,
  evolve: evolveException,
};
