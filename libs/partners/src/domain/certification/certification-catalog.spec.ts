import {
  CERTIFICATION_CHECKS,
  CERTIFICATION_STEPS,
  FACT_CODES,
  FEATURE_FLAG_CERTIFICATION_FEATURES,
  certificationFeaturesFor,
  certificationPlan,
} from './certification-catalog';

describe('certification features of feature flags', () => {
  it('certifies cards for every partner, even without flags', () =>
    expect(certificationFeaturesFor([])).toEqual(['CARD']));

  it('maps each certifying flag, in catalog order, each once', () =>
    expect(
      certificationFeaturesFor(['terminals', 'hosted_payment_pages', 'ach_payments', 'ach_payments']),
    ).toEqual(['CARD', 'ACH', 'HPP', 'TERMINAL']));

  it('ignores flags that certify nothing, including names of object properties', () =>
    expect(certificationFeaturesFor(['recurring', 'constructor', 'toString', 'ach_payments'])).toEqual([
      'CARD',
      'ACH',
    ]));
});

describe('the catalog', () => {
  const stepIndex = (step: string) => CERTIFICATION_STEPS.findIndex((s) => s.step === step);

  it('lists as FACT_CODES exactly the facts some check uses as evidence', () => {
    const used = new Set(CERTIFICATION_CHECKS.flatMap((check) => check.evidence));
    expect([...used].sort()).toEqual([...FACT_CODES].sort());
  });

  it('has unique check codes', () => {
    const codes = CERTIFICATION_CHECKS.map((check) => check.checkCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('proves AUTOMATED checks by evidence and ADMIN_REVIEW checks by an administrator only', () => {
    for (const check of CERTIFICATION_CHECKS) {
      if (check.tier === 'AUTOMATED') expect(check.evidence.length).toBeGreaterThan(0);
      else
        expect({ code: check.checkCode, evidence: check.evidence }).toEqual({
          code: check.checkCode,
          evidence: [],
        });
    }
  });

  it('keeps ADMIN_REVIEW checks after every AUTOMATED one, so that they hold no automated step back', () => {
    const lastAutomated = Math.max(
      ...CERTIFICATION_CHECKS.filter((c) => c.tier === 'AUTOMATED').map((c) => stepIndex(c.step)),
    );
    for (const check of CERTIFICATION_CHECKS.filter((c) => c.tier === 'ADMIN_REVIEW')) {
      expect(stepIndex(check.step)).toBeGreaterThan(lastAutomated);
    }
  });

  it('lists checks in step order, on known steps', () => {
    const order = CERTIFICATION_CHECKS.map((check) => stepIndex(check.step));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('names the flag group of each flag-gated feature, and none for CARD and core checks', () => {
    for (const check of CERTIFICATION_CHECKS) {
      if (check.feature === null || check.feature === 'CARD') {
        expect([check.checkCode, check.flagGroup, check.flagGroupLabel]).toEqual([
          check.checkCode,
          null,
          null,
        ]);
      } else {
        expect(check.flagGroup).not.toBeNull();
        expect(FEATURE_FLAG_CERTIFICATION_FEATURES[check.flagGroup as string]).toBe(check.feature);
        expect(check.flagGroupLabel).toEqual(expect.any(String));
      }
    }
  });
});

describe('the plan of a flow', () => {
  it('holds core and card checks for a card-only flow, and only the steps that have checks', () => {
    const plan = certificationPlan(['CARD']);
    expect(plan.steps).toEqual([
      { step: 'CONNECTIVITY', label: 'Connect and authenticate', total: 1 },
      { step: 'MERCHANT_ONBOARDING', label: 'Onboard a merchant', total: 2 },
      { step: 'CARD_PAYMENTS', label: 'Process card payments', total: 5 },
      { step: 'WEBHOOKS', label: 'Receive webhooks', total: 2 },
      { step: 'COMPLIANCE_REVIEW', label: 'Compliance review', total: 1 },
    ]);
    expect(plan.checks.map((c) => c.checkCode)).toEqual([
      'API_AUTHENTICATION',
      'MERCHANT_CREATE',
      'MERCHANT_SUBMIT',
      'CARD_SALE',
      'CARD_DECLINE',
      'CARD_REFUND',
      'CARD_VOID',
      'IDEMPOTENT_RETRY',
      'WEBHOOK_ENDPOINT',
      'WEBHOOK_DELIVERY',
      'PCI_SCOPE_ATTESTATION',
    ]);
  });

  it('adds the TERMINAL step only when the flow has the TERMINAL feature', () => {
    expect(certificationPlan(['CARD', 'ACH']).steps.map((s) => s.step)).not.toContain('TERMINAL');
    expect(certificationPlan(['CARD', 'TERMINAL']).steps).toContainEqual({
      step: 'TERMINAL',
      label: 'Provision in-person terminals',
      total: 2,
    });
  });

  it('brings the review checks of each feature into the compliance step', () =>
    expect(
      certificationPlan(['CARD', 'ACH', 'HPP'])
        .checks.filter((c) => c.step === 'COMPLIANCE_REVIEW')
        .map((c) => c.checkCode),
    ).toEqual(['PCI_SCOPE_ATTESTATION', 'ACH_AUTHORIZATION_ATTESTATION', 'HPP_UX_REVIEW']));
});
