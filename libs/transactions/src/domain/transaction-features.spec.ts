import { featuresNeeded } from './transaction-features';
import { parseTransactionRequest } from './transaction-request';

const MERCHANT = '7b0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const PARENT = '9c1d7d62-6c8c-4d4f-8e66-2a2a4f5c3b21';
const charge = (extra: Record<string, unknown> = {}) =>
  parseTransactionRequest({
    type: 'SALE',
    merchant_id: MERCHANT,
    amount: '10.00',
    currency: 'USD',
    vault_token: `cvt_${'A'.repeat(32)}`,
    use_type: 'ONE_TIME_FUTURE',
    ...extra,
  });
const followUp = (type: string, extra: Record<string, unknown> = {}) =>
  parseTransactionRequest({ type, merchant_id: MERCHANT, parent_transaction_id: PARENT, ...extra });
const flags = (needs: ReturnType<typeof featuresNeeded>) => needs.map((n) => `${n.flag}:${n.field}`);

describe('the feature flags a POST /transactions body needs (docs/feature-flags.md)', () => {
  it('a plain card SALE needs none', () => expect(featuresNeeded(charge())).toEqual([]));

  it('an empty custom_fields list asks for nothing', () =>
    expect(featuresNeeded(charge({ custom_fields: [] }))).toEqual([]));

  it.each([
    ['ACH_DEBIT', charge({ type: 'ACH_DEBIT' })],
    ['ACH_VOID', followUp('ACH_VOID')],
    ['ACH_REFUND', followUp('ACH_REFUND')],
    [
      'ACH_REVERSAL',
      followUp('ACH_REVERSAL', { reversal_reason: { code: 'wrong_amount', description: 'x' } }),
    ],
  ])('%s needs ach_payments, named by type', (_type, request) =>
    expect(flags(featuresNeeded(request))).toEqual(['ach_payments:type']),
  );

  it.each(['VOID', 'REFUND', 'AUTH_REVERSAL'])('a card %s needs none', (type) =>
    expect(featuresNeeded(followUp(type))).toEqual([]),
  );

  it.each([
    ['RECURRING', 'recurring_billing:use_type'],
    ['INSTALLMENT', 'installments:use_type'],
    ['UNSCHEDULED_COF', null],
  ])('use_type %s needs %s', (useType, need) =>
    expect(flags(featuresNeeded(charge({ use_type: useType })))).toEqual(need ? [need] : []),
  );

  it('level2_data, level3_data and custom_fields each name their field', () =>
    expect(
      flags(
        featuresNeeded(
          charge({
            level2_data: { po_number: 'PO-1' },
            level3_data: { line_items: [] },
            custom_fields: [{ name: 'ref', value: '1' }],
          }),
        ),
      ),
    ).toEqual([
      'level2_level3_data:level2_data',
      'level2_level3_data:level3_data',
      'custom_fields:custom_fields',
    ]));

  it('lists the rail first, so an ACH_DEBIT without ACH is refused for ACH whatever else it asks', () =>
    expect(flags(featuresNeeded(charge({ type: 'ACH_DEBIT', use_type: 'RECURRING' })))).toEqual([
      'ach_payments:type',
      'recurring_billing:use_type',
    ]));
});
