import { DomainError, NotFound } from '../../../../platform/src/problem';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The HTTP status each code here is meant to answer with. problem-status.ts is the one table;
 * these rows belong in it (unknown codes fall back to 422 there, right only for the last two).
 */
export const CONFIGURATION_PROBLEM_STATUS: Readonly<Record<string, number>> = {
  feature_flag_not_found: 404,
  feature_flag_operator_managed: 403,
  feature_flag_dependencies_unmet: 422,
  feature_flag_required_by: 422,
  ip_allowlist_excludes_caller: 422,
};

export class FeatureFlagNotFound extends NotFound {
  constructor(readonly flagName: string) {
    super('feature_flag_not_found', `feature flag ${flagName} does not exist`);
  }
}

/** The flag is not globally available, so only an operator may change it. */
export class FeatureFlagOperatorManaged extends DomainError {
  readonly code = 'feature_flag_operator_managed';

  constructor(
    readonly flagName: string,
    readonly reason: 'not_globally_available' | 'availability_is_operator_managed',
  ) {
    super(
      reason === 'not_globally_available'
        ? `feature flag ${flagName} is managed by the platform operator`
        : `only the platform operator decides whether ${flagName} is globally available`,
    );
  }
}

export class FeatureFlagDependenciesUnmet extends DomainError {
  readonly code = 'feature_flag_dependencies_unmet';

  constructor(
    readonly flagName: string,
    readonly unmetDependencies: readonly string[],
  ) {
    super(`${flagName} needs ${unmetDependencies.join(', ')} enabled first`);
  }
}

export class FeatureFlagRequiredBy extends DomainError {
  readonly code = 'feature_flag_required_by';

  constructor(
    readonly flagName: string,
    readonly requiredBy: readonly string[],
  ) {
    super(`${flagName} cannot be disabled while ${requiredBy.join(', ')} depend on it`);
  }
}

/**
 * Settings that break a validation rule (400 `validation_error`). The HTTP layer renders `errors`
 * as the problem's `errors`; it may also call validatePartnerSettings itself before the command.
 */
export class PartnerSettingsInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/**
 * A partner's own `ip_allowlist` change that would not admit the address the change is made from
 * (422): applied, every later call of the partner would be 403 `ip_not_allowed`, including the
 * one that would undo it. `errors` names `ip_allowlist`. The operator can still set any list.
 */
export class IpAllowlistExcludesCaller extends DomainError {
  readonly code = 'ip_allowlist_excludes_caller';
  readonly errors: readonly FieldError[];

  constructor(readonly callerAddress: string) {
    const message = `would not admit ${callerAddress}, the address this change is made from; include it (a /32 or /128 entry will do) or send [] to lift the restriction`;
    super(`ip_allowlist ${message}`);
    this.errors = [{ field: 'ip_allowlist', message }];
  }
}
