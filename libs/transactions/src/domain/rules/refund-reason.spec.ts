import { isRefundReason, REFUND_REASONS, validateRefundReason } from './refund-reason';

describe('refund_reason', () => {
  it.each(REFUND_REASONS)('accepts %s', (reason) => {
    expect(validateRefundReason(reason)).toEqual([]);
    expect(isRefundReason(reason)).toBe(true);
  });

  it('is optional', () => {
    expect(validateRefundReason(undefined)).toEqual([]);
    expect(validateRefundReason(null)).toEqual([]);
  });

  it.each(['CUSTOMER_REQUESTED', 'requested_by_customer', '', ' other'])('refuses %p', (reason) => {
    expect(validateRefundReason(reason)).toEqual([
      {
        field: 'refund_reason',
        message:
          'must be one of customer_requested, duplicate, fraudulent, product_not_received, product_unacceptable, other',
      },
    ]);
  });

  it('refuses a non-string', () => {
    expect(validateRefundReason(1, 'x.refund_reason')).toEqual([
      { field: 'x.refund_reason', message: 'must be a string' },
    ]);
    expect(isRefundReason({})).toBe(false);
  });
});
