import { assertFeaturesEnabled, FeatureNotEnabled } from './feature-gate';

describe('feature gates of request variants', () => {
  const ach = { flag: 'ach_payments', field: 'type', what: 'an ACH_DEBIT transaction' };
  const recurring = { flag: 'recurring_billing', field: 'use_type', what: 'use_type RECURRING' };

  it('lets a request through when every flag it needs is on', () =>
    expect(() =>
      assertFeaturesEnabled(['ach_payments', 'recurring_billing'], [ach, recurring]),
    ).not.toThrow());

  it('refuses with 403 feature_not_enabled naming the first missing flag and its field', () => {
    let thrown: unknown;
    try {
      assertFeaturesEnabled(['recurring_billing'], [ach, recurring]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FeatureNotEnabled);
    expect(thrown).toMatchObject({
      code: 'feature_not_enabled',
      flag: 'ach_payments',
      retryable: false,
      errors: [{ field: 'type', message: 'needs the feature flag ach_payments' }],
    });
  });
});
