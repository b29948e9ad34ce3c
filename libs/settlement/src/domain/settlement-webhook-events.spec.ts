import { RECONCILIATION_EXCEPTION_EVENT_TYPES } from './reconciliation-exception-events';
import { evolve, initialState } from './settlement-batch';
import { SETTLEMENT_BATCH_EVENT_TYPES } from './settlement-batch-events';
import { SETTLEMENT_WEBHOOK_EVENTS, SETTLEMENT_WEBHOOK_OBJECTS } from './settlement-webhook-events';
import { BATCH, opened } from './testing/fixtures';

/** Batch and exception events are partner-visible (docs/reconciliation.md, "Partner reads and events"). */
describe('the settlement webhook catalog', () => {
  const listed = SETTLEMENT_WEBHOOK_EVENTS.map((e) => e.eventType);

  it('lists every batch and exception event but the batch’s internal copy of an exception’s outcome', () => {
    const expected = [...SETTLEMENT_BATCH_EVENT_TYPES, ...RECONCILIATION_EXCEPTION_EVENT_TYPES].filter(
      (type) => type !== 'SettlementBatchExceptionOutcomeRecorded',
    );
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  it('names each with a distinct <resource>.<happened> type whose resource is its data.object', () => {
    const types = SETTLEMENT_WEBHOOK_EVENTS.map((e) => e.webhookType);
    expect(new Set(types).size).toBe(types.length);
    for (const e of SETTLEMENT_WEBHOOK_EVENTS) {
      expect(e.webhookType).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(e.webhookType.split('.')[0]).toBe(e.object);
      expect(e.description.length).toBeGreaterThan(0);
      expect(SETTLEMENT_WEBHOOK_OBJECTS[e.object]).toBeDefined();
    }
    expect(types).toEqual(
      expect.arrayContaining([
        'settlement_batch.opened',
        'settlement_batch.reconciled',
        'reconciliation_exception.opened',
        'reconciliation_exception.auto_resolved',
      ]),
    );
  });

  it('builds data.object as the partner reads it: the batch resource from the batch’s state', () => {
    const batch = evolve(initialState(), opened())!;
    expect(SETTLEMENT_WEBHOOK_OBJECTS.settlement_batch(batch)).toMatchObject({
      id: BATCH,
      state: 'PENDING',
      reporting_basis: 'gateway_reported',
      total_amount: '64.70',
    });
  });
});
