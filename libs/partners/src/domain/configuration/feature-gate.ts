import { DomainError } from '../../../../platform/src/problem';

/**
 * What a request variant needs from the partner's feature flags (docs/feature-flags.md): the
 * flag, the body field that asked for it, and a phrase for the message. Whole routes are gated
 * on the route (`@RequiresFeature`); variants of one route (an ACH `type`, a RECURRING
 * `use_type`, `level2_data`) are listed by their use case and checked here, before any lookup
 * or write.
 */
export interface FeatureNeed {
  flag: string;
  field: string;
  what: string;
}

/** 403 `feature_not_enabled`, naming the flag and the field that needs it. */
export class FeatureNotEnabled extends DomainError {
  readonly code = 'feature_not_enabled';
  override readonly retryable = false;
  readonly flag: string;
  readonly errors: readonly { field: string; message: string }[];

  constructor(need: FeatureNeed) {
    super(`${need.what} needs the feature flag ${need.flag}, which is not enabled for this partner`);
    this.flag = need.flag;
    this.errors = [{ field: need.field, message: `needs the feature flag ${need.flag}` }];
  }
}

/** Throws for the first need whose flag is off; the needs are listed in the order to report. */
export function assertFeaturesEnabled(enabled: readonly string[], needs: readonly FeatureNeed[]): void {
  const missing = needs.find((need) => !enabled.includes(need.flag));
  if (missing) throw new FeatureNotEnabled(missing);
}
