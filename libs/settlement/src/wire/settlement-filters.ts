import { queryParam } from '../../../platform/src/http/strict-query';
import { EXCEPTION_STATES, EXCEPTION_TYPES, SEVERITIES } from '../domain/reconciliation-exception-rules';
import { SETTLEMENT_BATCH_STATES } from '../domain/settlement-batch-states';

/**
 * The query strings of the settlement reads, with CONTRACT §3's names: a malformed or blank
 * `merchant_id` and any value outside an enum (exactly as the spec spells it) is 400
 * `validation_error` naming the parameter, never the unfiltered list (strict-query.ts).
 */
export const BATCH_FILTERS = {
  merchant_id: queryParam.uuid(),
  state: queryParam.oneOf(SETTLEMENT_BATCH_STATES),
};

export const EXCEPTION_FILTERS = {
  merchant_id: queryParam.uuid(),
  state: queryParam.oneOf(EXCEPTION_STATES),
  type: queryParam.oneOf(EXCEPTION_TYPES),
  severity: queryParam.oneOf(SEVERITIES),
};

/** The scope a list's cursor is bound to: the partner and its filters (a cursor of other filters is 400). */
export function listScope(partnerId: string, filters: Record<string, string | undefined>): string {
  const named = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`);
  return [`partner:${partnerId}`, ...named].join('&');
}
