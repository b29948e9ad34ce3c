import {
  isReversalReasonCode,
  REVERSAL_REASON_CODES,
  toReversalReason,
  validateReversalReason,
} from './reversal-reason';

describe('reversal_reason', () => {
  it.each(REVERSAL_REASON_CODES)(
    'accepts %s with a description, and only with one (CONTRACT §5a)',
    (code) => {
      expect(validateReversalReason({ code, description: 'sent twice by the batch job' })).toEqual([]);
      expect(validateReversalReason({ code })).toEqual([
        { field: 'reversal_reason.description', message: 'is required' },
      ]);
      expect(isReversalReasonCode(code)).toBe(true);
    },
  );

  it('is required', () => {
    expect(validateReversalReason(undefined)).toEqual([{ field: 'reversal_reason', message: 'is required' }]);
    expect(validateReversalReason(null)).toEqual([{ field: 'reversal_reason', message: 'is required' }]);
  });

  it.each([['duplicate_entry'], [['duplicate_entry']], [3]])('must be an object, not %p', (value) => {
    expect(validateReversalReason(value)).toEqual([
      { field: 'reversal_reason', message: 'must be an object with code and description' },
    ]);
  });

  it('requires a known code', () => {
    expect(validateReversalReason({ description: 'x' })).toEqual([
      { field: 'reversal_reason.code', message: 'is required' },
    ]);
    for (const code of ['DUPLICATE_ENTRY', 'customer_requested', 1, '']) {
      expect(validateReversalReason({ code, description: 'x' })).toEqual([
        {
          field: 'reversal_reason.code',
          message: 'must be one of duplicate_entry, wrong_receiver, wrong_amount, wrong_date',
        },
      ]);
    }
  });

  it('checks the description after trimming', () => {
    const at = (description: unknown) => validateReversalReason({ code: 'wrong_amount', description });
    expect(at(null)).toEqual([{ field: 'reversal_reason.description', message: 'is required' }]);
    expect(at(`  ${'x'.repeat(200)}  `)).toEqual([]);
    expect(at('   ')).toEqual([{ field: 'reversal_reason.description', message: 'must not be blank' }]);
    expect(at('x'.repeat(201))).toEqual([
      { field: 'reversal_reason.description', message: 'must be at most 200 characters' },
    ]);
    expect(at(42)).toEqual([{ field: 'reversal_reason.description', message: 'must be a string' }]);
    expect(at('a\u0000b')).toEqual([
      { field: 'reversal_reason.description', message: expect.stringMatching(/control.*U\+0000/) },
    ]);
    expect(at('sent\u202etwice')).toEqual([
      { field: 'reversal_reason.description', message: expect.stringMatching(/bidirectional.*U\+202E/) },
    ]);
  });

  it('refuses unknown keys and honours the path', () => {
    expect(
      validateReversalReason({ code: 'wrong_date', description: 'x', reason: 'x' }, 'body.reversal_reason'),
    ).toEqual([{ field: 'body.reversal_reason.reason', message: 'is not a known field' }]);
  });

  it('normalises to the stored form', () => {
    expect(toReversalReason({ code: 'wrong_receiver', description: '  wrong account  ' })).toEqual({
      code: 'wrong_receiver',
      description: 'wrong account',
    });
    expect(toReversalReason({ code: 'wrong_receiver', description: null })).toEqual({
      code: 'wrong_receiver',
    });
    expect(() => toReversalReason({ code: 'nope' })).toThrow(RangeError);
  });
});
