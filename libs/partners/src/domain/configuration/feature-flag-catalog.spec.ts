import {
  FEATURE_FLAG_CATALOG,
  FLAG_NAME_MAX_LENGTH,
  dependentsOf,
  findDependencyCycle,
  findFeatureFlag,
  isWellFormedFlagName,
  type FeatureFlagDefinition,
} from './feature-flag-catalog';

const flag = (flag_name: string, depends_on: string[] = []): FeatureFlagDefinition => ({
  flag_name,
  display_name: flag_name,
  description: flag_name,
  globally_available: true,
  default_enabled: false,
  depends_on,
  gates: [],
  certification_feature: null,
});

describe('flag names', () => {
  it.each([
    'ach_payments',
    'a',
    'level2_level3_data',
    'three_d_secure',
    'x1',
    'a'.repeat(FLAG_NAME_MAX_LENGTH),
  ])('%s is well formed', (name) => expect(isWellFormedFlagName(name)).toBe(true));

  it.each([
    '',
    'a'.repeat(FLAG_NAME_MAX_LENGTH + 1),
    'AchPayments',
    'ach-payments',
    'ach__payments',
    '_ach',
    'ach_',
    '1ach',
    'ach payments',
    'ach.payments',
  ])('%j is not', (name) => expect(isWellFormedFlagName(name)).toBe(false));
});

describe('the catalog', () => {
  const names = FEATURE_FLAG_CATALOG.map((f) => f.flag_name);

  it('names every flag the spec and the contract rely on', () =>
    expect(names).toEqual(
      expect.arrayContaining([
        'ach_payments',
        'stored_credentials',
        'recurring_billing',
        'installments',
        'hosted_payment_pages',
        'custom_fields',
        'convenience_fees',
        'surcharging',
        'level2_level3_data',
        'terminals',
        'three_d_secure',
      ]),
    ));

  it('has unique, well-formed names', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(isWellFormedFlagName(name)).toBe(true);
  });

  it('gives every flag a display name, a description and at least one gate', () => {
    for (const f of FEATURE_FLAG_CATALOG) {
      expect(f.display_name.trim()).not.toBe('');
      expect(f.description.trim()).not.toBe('');
      expect(f.gates.length).toBeGreaterThan(0);
    }
  });

  it('depends only on flags it defines', () => {
    for (const f of FEATURE_FLAG_CATALOG) {
      for (const dependency of f.depends_on) expect(names).toContain(dependency);
    }
  });

  it('has no dependency cycle', () => expect(findDependencyCycle(FEATURE_FLAG_CATALOG)).toBeNull());

  it('gives a new partner a consistent set: every default-on flag has its dependencies default-on', () => {
    for (const f of FEATURE_FLAG_CATALOG.filter((x) => x.default_enabled)) {
      for (const dependency of f.depends_on) expect(findFeatureFlag(dependency)?.default_enabled).toBe(true);
    }
  });

  it.each([
    ['ach_payments', true, false, [], 'ACH'],
    ['stored_credentials', true, true, [], null],
    // On by default: the README's first integration saves a card for RECURRING reuse.
    ['recurring_billing', true, true, ['stored_credentials'], null],
    ['installments', true, false, ['recurring_billing'], null],
    ['hosted_payment_pages', true, true, [], 'HPP'],
    ['custom_fields', true, true, [], null],
    ['convenience_fees', true, false, [], null],
    ['surcharging', false, false, [], null],
    ['level2_level3_data', true, false, [], null],
    ['terminals', false, false, [], 'TERMINAL'],
    ['three_d_secure', true, false, [], null],
  ])('%s: self-service %s, default %s, depends on %j, certifies %s', (name, available, on, deps, cert) =>
    expect(findFeatureFlag(name)).toMatchObject({
      globally_available: available,
      default_enabled: on,
      depends_on: deps,
      certification_feature: cert,
    }),
  );

  it('gates what the brief says', () => {
    expect(findFeatureFlag('ach_payments')?.gates).toContain(
      'POST /transactions with type ACH_DEBIT, ACH_VOID, ACH_REFUND, ACH_REVERSAL',
    );
    expect(findFeatureFlag('ach_payments')?.gates).toContain('HPP sessions with payment_method ach');
    expect(findFeatureFlag('custom_fields')?.gates).toContain('/config/custom-fields/**');
    expect(findFeatureFlag('terminals')?.gates).toContain('/terminals/**');
  });

  it('finds no flag under an unknown name', () => expect(findFeatureFlag('no_such_flag')).toBeUndefined());

  it('knows which flags depend on a flag', () => {
    expect(dependentsOf('stored_credentials')).toEqual(['recurring_billing']);
    expect(dependentsOf('recurring_billing')).toEqual(['installments']);
    expect(dependentsOf('installments')).toEqual([]);
  });
});

describe('cycle detection', () => {
  it('finds a self-dependency', () => expect(findDependencyCycle([flag('a', ['a'])])).toEqual(['a', 'a']));

  it('finds a longer cycle', () =>
    expect(findDependencyCycle([flag('a', ['b']), flag('b', ['c']), flag('c', ['a'])])).toEqual([
      'a',
      'b',
      'c',
      'a',
    ]));

  it('accepts a diamond', () =>
    expect(
      findDependencyCycle([flag('a', ['b', 'c']), flag('b', ['d']), flag('c', ['d']), flag('d')]),
    ).toBeNull());

  it('ignores a dependency on an unknown flag (reported by its own test)', () =>
    expect(findDependencyCycle([flag('a', ['ghost'])])).toBeNull());
});
