/**
 * code → HTTP status, the single table every error passes through. Codes not listed answer
 * 422 when they are domain errors (a well-formed request breaking a business rule, CONTRACT §7).
 */
export const PROBLEM_STATUS: Readonly<Record<string, number>> = {
  validation_error: 400,
  idempotency_key_reserved: 400,
  unauthorized: 401,
  feature_not_enabled: 403,
  forbidden: 403,
  ip_not_allowed: 403,
  feature_flag_operator_managed: 403,
  not_found: 404,
  merchant_not_found: 404,
  partner_not_found: 404,
  api_key_not_found: 404,
  feature_flag_not_found: 404,
  certification_flow_not_found: 404,
  recertification_request_not_found: 404,
  stream_not_found: 404,
  projection_not_found: 404,
  hpp_page_config_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_progress: 409,
  invalid_state_transition: 409,
  concurrency_conflict: 409,
  partner_already_exists: 409,
  merchant_already_exists: 409,
  rebuild_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  feature_flag_dependencies_unmet: 422,
  feature_flag_required_by: 422,
  resubmission_limit_reached: 422,
  go_live_gate_failed: 422,
  clarification_message_required: 422,
  embedding_domains_limit: 422,
  bank_account_missing: 422,
  surcharge_not_eligible: 422,
  convenience_fee_not_eligible: 422,
  surcharge_not_allowed_on_debit: 422,
  surcharge_exceeds_cap: 422,
  convenience_fee_must_be_flat: 422,
  rate_limited: 429,
  not_implemented: 501,
  gateway_outcome_unknown: 502,
  service_unavailable: 503,
  internal_error: 500,
};

export function statusForCode(code: string): number {
  return PROBLEM_STATUS[code] ?? 422;
}
