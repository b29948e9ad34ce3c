import { SetMetadata, applyDecorators } from '@nestjs/common';
import type { Scope } from './scopes';

/**
 * Who may call a route. Every route declares one of four tiers; the guard refuses a route that
 * declares none (fail closed), and a test walks every route to prove each one declares a tier.
 */
export type RouteAccess =
  | { tier: 'public' }
  | { tier: 'operator' }
  | { tier: 'partner'; scope: Scope; feature?: string }
  | { tier: 'terminal' };

export const ACCESS = 'route-access';
export const FEATURE = 'route-feature';

/** No credentials: the health probe and the hosted payment pages. */
export const PublicRoute = () => SetMetadata(ACCESS, { tier: 'public' } satisfies RouteAccess);

/** The platform (operator) tier: `/platform/...`, operator key only. */
export const OperatorRoute = () => SetMetadata(ACCESS, { tier: 'operator' } satisfies RouteAccess);

/** A partner route and the scope its key must carry. */
export const PartnerRoute = (scope: Scope) =>
  SetMetadata(ACCESS, { tier: 'partner', scope } satisfies RouteAccess);

/**
 * Called by a payment terminal with its own key (`ctk_…`, issued by provisioning): the terminal
 * acts only on itself. Partner and operator keys are refused here, and a terminal key everywhere
 * else (docs/terminals.md).
 */
export const TerminalRoute = () => SetMetadata(ACCESS, { tier: 'terminal' } satisfies RouteAccess);

/** The route also needs a feature flag on the partner (403 `feature_not_enabled`). */
export const RequiresFeature = (flag: string) => applyDecorators(SetMetadata(FEATURE, flag));
