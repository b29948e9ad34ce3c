import {
  reconciliationExceptionStream,
  type ReconciliationExceptionEvent,
} from '../../../settlement/src/domain';
import { findWebhookEventType, webhookTypesOf } from './webhook-event-types';
import { renderObject, sourceStreamOf } from './webhook-objects';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const EXCEPTION = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';

/** A reconciliation exception's webhook: its stream is a source, folded and rendered as the API reads it. */
describe('reconciliation exception webhooks', () => {
  it('folds the exception’s stream and renders data.object as GET /settlement/exceptions shows it', () => {
    const opened: ReconciliationExceptionEvent = {
      type: 'ReconciliationExceptionOpened',
      data: {
        exceptionId: EXCEPTION,
        batchId: null,
        merchantId: MERCHANT,
        partnerId: PARTNER,
        transactionId: null,
        type: 'MISSING_BATCH',
        key: 'MISSING_BATCH',
        occurrence: 1,
        severity: 'HIGH',
        description: 'no processor report arrived',
        expectedBy: '2026-11-24T23:59:59.999Z',
        observedAt: '2026-11-25T00:00:30.000Z',
        currency: 'USD',
        expectedAmountMinor: '6470',
        observedAmountMinor: null,
        openedAt: '2026-11-25T00:00:30.000Z',
      },
    };
    const source = sourceStreamOf(reconciliationExceptionStream(EXCEPTION))!;
    expect(source.eventTypes).toContain('ReconciliationExceptionOpened');
    const state = source.evolve(null, opened);
    expect(source.owner(state)).toEqual({ partnerId: PARTNER, merchantId: MERCHANT });
    const [type] = webhookTypesOf(opened.type);
    expect(type).toBe('reconciliation_exception.opened');
    const kind = findWebhookEventType(type)!.object;
    expect(renderObject(kind, state, { hppUrls: () => ({}) as never }, new Date())).toMatchObject({
      id: EXCEPTION,
      type: 'MISSING_BATCH',
      state: 'OPEN',
      severity: 'HIGH',
      expected_amount: '64.70',
      observed_amount: null,
    });
  });
});
