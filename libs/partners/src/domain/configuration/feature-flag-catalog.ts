/**
 * The feature-flag catalog: every flag a partner can have, as data. A partner's state only
 * records changes; everything else (names, dependencies, defaults) is read from here, so a flag
 * added to the catalog reaches existing partners with its default on their next read.
 */
/** Named as in the certification catalog, which maps these flags the same way. */
export type FlagCertificationFeature = 'ACH' | 'HPP' | 'TERMINAL';

export interface FeatureFlagDefinition {
  flag_name: string;
  display_name: string;
  description: string;
  /** Catalog default: whether the partner may switch the flag itself. An operator can override it. */
  globally_available: boolean;
  /** For a new partner. */
  default_enabled: boolean;
  /** Flags that must be enabled before this one; the graph is acyclic (see the spec). */
  depends_on: readonly string[];
  /**
   * What the flag gates, one entry per route or request variant, as docs/feature-flags.md lists
   * them. Without the flag a gate answers 403 `feature_not_enabled` naming the flag, except the
   * fee programs, which count the flag among their eligibility reasons (docs/fees.md).
   * test/e2e/feature-gates.e2e.ts probes every entry both ways.
   */
  gates: readonly string[];
  /** The certification feature the flag adds to the partner's certification baseline. */
  certification_feature: FlagCertificationFeature | null;
}

export const FLAG_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const FLAG_NAME_MAX_LENGTH = 100;

/** The spec's path rule for `{flagName}`: snake_case, 1 to 100 characters. */
export function isWellFormedFlagName(name: string): boolean {
  return name.length >= 1 && name.length <= FLAG_NAME_MAX_LENGTH && FLAG_NAME_PATTERN.test(name);
}

export const FEATURE_FLAG_CATALOG: readonly FeatureFlagDefinition[] = [
  {
    flag_name: 'ach_payments',
    display_name: 'ACH payments',
    description: 'Debit US bank accounts over ACH, and void, refund or reverse those debits.',
    globally_available: true,
    default_enabled: false,
    depends_on: [],
    gates: [
      'POST /transactions with type ACH_DEBIT, ACH_VOID, ACH_REFUND, ACH_REVERSAL',
      'HPP sessions with payment_method ach',
      'HPP save_payment_method sessions with payment_method ach (ACH vault entries)',
      'an ACH payment on a hosted page',
      'POST /contracts with payment_method_type ACH',
    ],
    certification_feature: 'ACH',
  },
  {
    flag_name: 'stored_credentials',
    display_name: 'Stored credentials',
    description: 'Save payment methods to the vault through a hosted page and charge them later.',
    globally_available: true,
    default_enabled: true,
    depends_on: [],
    gates: [
      'HPP sessions with page_purpose save_payment_method or save_payment_method true',
      'GET, DELETE /merchants/{merchantId}/stored-credentials/**',
    ],
    certification_feature: null,
  },
  {
    flag_name: 'recurring_billing',
    display_name: 'Recurring billing',
    description: 'Charge a stored payment method on a schedule through recurring contracts.',
    globally_available: true,
    // On for a new partner: saving a card for merchant-initiated reuse (credential_usages
    // RECURRING) and charging it so (use_type RECURRING) is the README's first integration.
    default_enabled: true,
    depends_on: ['stored_credentials'],
    gates: [
      'GET, POST, PATCH /contracts/** and the contract pause, resume and cancel actions',
      'HPP sessions with a recurring_plan',
      'HPP sessions with credential_usages containing RECURRING',
      'POST /transactions with use_type RECURRING',
    ],
    certification_feature: null,
  },
  {
    flag_name: 'installments',
    display_name: 'Installments',
    description: 'Split one purchase into a fixed number of scheduled payments.',
    globally_available: true,
    default_enabled: false,
    depends_on: ['recurring_billing'],
    gates: [
      'POST /transactions with use_type INSTALLMENT',
      'HPP sessions with credential_usages containing INSTALLMENT',
      'POST /contracts with number_of_payments on a payment_method_token scoped for INSTALLMENT (an installment plan)',
    ],
    certification_feature: null,
  },
  {
    flag_name: 'hosted_payment_pages',
    display_name: 'Hosted payment pages',
    description: 'Collect payments and payment methods on platform-hosted pages (redirect or iframe).',
    globally_available: true,
    default_enabled: true,
    depends_on: [],
    gates: ['POST /hpp/sessions and /hpp/sessions/**', '/config/hpp-page/**'],
    certification_feature: 'HPP',
  },
  {
    flag_name: 'custom_fields',
    display_name: 'Custom fields',
    description: 'Define per-merchant custom fields and send their values with payments.',
    globally_available: true,
    default_enabled: true,
    depends_on: [],
    gates: [
      '/config/custom-fields/**',
      'custom_fields on POST /transactions, POST /contracts and HPP sessions',
    ],
    certification_feature: null,
  },
  {
    flag_name: 'convenience_fees',
    display_name: 'Convenience fees',
    description: 'Add a disclosed convenience fee to cardholder-initiated payments.',
    globally_available: true,
    default_enabled: false,
    depends_on: [],
    gates: [
      'enabling PUT /merchants/{merchantId}/fee-settings/convenience-fee',
      'convenience_fee_amount on ONE_TIME_FUTURE sales and HPP sessions',
    ],
    certification_feature: null,
  },
  {
    // Operator-managed: surcharging needs card-brand registration and is restricted by US state law.
    flag_name: 'surcharging',
    display_name: 'Surcharging',
    description: 'Add a disclosed surcharge to credit card payments where the law and the networks allow.',
    globally_available: false,
    default_enabled: false,
    depends_on: [],
    gates: [
      'enabling PUT /merchants/{merchantId}/fee-settings/surcharge',
      'surcharge_amount on ONE_TIME_FUTURE card sales and HPP sessions',
    ],
    certification_feature: null,
  },
  {
    flag_name: 'level2_level3_data',
    display_name: 'Level 2 and Level 3 data',
    description: 'Send commercial-card line-item data for lower interchange on B2B payments.',
    globally_available: true,
    default_enabled: false,
    depends_on: [],
    gates: [
      'level2_data and level3_data on POST /transactions (SALE, ACH_DEBIT)',
      'level2_data and level3_data on POST /contracts',
    ],
    certification_feature: null,
  },
  {
    // Operator-managed: terminals are hardware the platform ships and supports.
    flag_name: 'terminals',
    display_name: 'Terminals',
    description: 'Register, provision and manage card-present payment terminals.',
    globally_available: false,
    default_enabled: false,
    depends_on: [],
    gates: ['/terminals/**'],
    certification_feature: 'TERMINAL',
  },
  {
    flag_name: 'three_d_secure',
    display_name: '3-D Secure',
    description: 'Authenticate cardholders with 3-D Secure challenges on card payments.',
    globally_available: true,
    default_enabled: false,
    depends_on: [],
    // No create path issues a step-up yet (spec: reserved), so the completion route is what it gates.
    gates: ['POST /transactions/{id}/three-ds/complete'],
    certification_feature: null,
  },
];

const BY_NAME: ReadonlyMap<string, FeatureFlagDefinition> = new Map(
  FEATURE_FLAG_CATALOG.map((flag) => [flag.flag_name, flag]),
);

export const FEATURE_FLAG_NAMES: readonly string[] = FEATURE_FLAG_CATALOG.map((flag) => flag.flag_name);

export function findFeatureFlag(name: string): FeatureFlagDefinition | undefined {
  return BY_NAME.get(name);
}

/** Flags that name `name` directly in `depends_on`. */
export function dependentsOf(
  name: string,
  catalog: readonly FeatureFlagDefinition[] = FEATURE_FLAG_CATALOG,
): string[] {
  return catalog.filter((flag) => flag.depends_on.includes(name)).map((flag) => flag.flag_name);
}

/**
 * A dependency cycle in `catalog` as the flag names along it (first name repeated at the end),
 * or null. The catalog must have none: a cycle would make its flags impossible to enable.
 */
export function findDependencyCycle(catalog: readonly FeatureFlagDefinition[]): string[] | null {
  const byName = new Map(catalog.map((flag) => [flag.flag_name, flag]));
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string[] | null => {
    const seen = path.indexOf(name);
    if (seen !== -1) return [...path.slice(seen), name];
    if (done.has(name)) return null;
    for (const dependency of byName.get(name)?.depends_on ?? []) {
      const cycle = visit(dependency, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return null;
  };
  for (const flag of catalog) {
    const cycle = visit(flag.flag_name, []);
    if (cycle) return cycle;
  }
  return null;
}
