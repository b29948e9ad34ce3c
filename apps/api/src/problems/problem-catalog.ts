/**
 * What every problem `code` means and what a client does about it: the page each problem's
 * `type` URL serves (`GET /api/v1/problems/{code}`). A test scans the sources for every code an
 * error can carry and fails when one is missing here.
 */
export interface ProblemDescription {
  /** What happened, in one or two sentences. */
  meaning: string;
  /** What the caller should do. */
  action: string;
}

export const PROBLEM_CATALOG: Readonly<Record<string, ProblemDescription>> = {
  validation_error: {
    meaning:
      'The request is malformed: a body, header, path or query value breaks its rule. `errors` names each field and what is wrong with it.',
    action:
      'Fix the named fields and send the request again (a new Idempotency-Key is not needed: a refused request changed nothing).',
  },
  idempotency_key_reserved: {
    meaning:
      'The Idempotency-Key starts with a prefix the platform keeps for its own writes (`hpp:`, `recurring:`, `rb:`, `inv-charge:`, `inv-installment:`).',
    action: 'Use a key without those prefixes, for example a UUID.',
  },
  idempotency_key_reused: {
    meaning: 'This Idempotency-Key was used within 24 hours with a different request (method, path or body).',
    action:
      'Use a new key for a new request; resend the original request unchanged to get its original answer.',
  },
  idempotency_key_in_progress: {
    meaning: 'A request with the same Idempotency-Key and body is still running.',
    action: 'Retry with the SAME key after the Retry-After delay: you then get its answer.',
  },
  unauthorized: {
    meaning:
      'The credential is missing, malformed, revoked or rotated (401), or it is valid but may not call this endpoint (403).',
    action:
      'Send `Authorization: Bearer <key>` with a live key; a 403 needs a key with the scope or tier the endpoint requires.',
  },
  forbidden: {
    meaning: 'The credential is valid but not allowed here (for example a partner key on an operator route).',
    action: 'Call with a credential of the right tier.',
  },
  feature_not_enabled: {
    meaning:
      'The endpoint, or this variant of the request, needs a feature flag the partner does not have. `detail` names the flag.',
    action:
      'Enable the flag (PUT /config/feature-flags/me/{flagName}), or ask the operator for an operator-managed one.',
  },
  feature_flag_operator_managed: {
    meaning: 'Only the platform operator may switch this feature flag.',
    action: 'Ask the operator to enable it for your partner.',
  },
  feature_flag_dependencies_unmet: {
    meaning: 'The flag depends on flags that are not enabled.',
    action: 'Enable the flags listed in `unmet_dependencies` first.',
  },
  feature_flag_required_by: {
    meaning: 'Another enabled flag depends on this one, so it cannot be disabled.',
    action: 'Disable the dependent flags first.',
  },
  feature_flag_not_found: {
    meaning: 'There is no feature flag of that name.',
    action: 'Use a name from GET /config/feature-flags/me.',
  },
  ip_not_allowed: {
    meaning: 'The request came from an address outside the partner’s IP allow-list.',
    action: 'Call from an allowed address, or change the allow-list (an operator can reset it).',
  },
  ip_allowlist_excludes_caller: {
    meaning: 'The new IP allow-list would shut out the address making the change, so nothing could undo it.',
    action: 'Include your own address in the list (or send an empty list for "any address").',
  },
  not_found: { meaning: 'There is no such route or resource.', action: 'Check the path and the id.' },
  merchant_not_found: {
    meaning: 'The merchant does not exist or belongs to another partner (the two cases answer alike).',
    action: 'Use the id of one of your merchants.',
  },
  customer_not_found: {
    meaning: 'No such customer of this merchant (or it was deleted).',
    action: 'Use a live customer of the merchant.',
  },
  stored_credential_not_found: {
    meaning: 'No such stored credential (vault entry) of this merchant, or the vault token is unknown.',
    action: 'Use a vault token minted for this merchant by a hosted page.',
  },
  transaction_not_found: { meaning: 'No such transaction of yours.', action: 'Check the transaction id.' },
  hpp_session_not_found: {
    meaning: 'No such hosted-page session of yours.',
    action: 'Check the session id.',
  },
  hpp_page_config_not_found: {
    meaning: 'There is no such hosted-page configuration.',
    action: 'Create it with PUT first.',
  },
  settlement_batch_not_found: { meaning: 'No such settlement batch.', action: 'Check the batch id.' },
  contract_not_found: {
    meaning: 'No such recurring contract of yours.',
    action: 'Check the contract id (GET /contracts lists yours).',
  },
  recurring_update_not_supported: {
    meaning:
      'A contract PATCH may change `next_charge_date`, `end_date` and `reason` only; `amount`, `frequency` and `max_retries` are fixed for its life. `errors` names the fields.',
    action: 'Cancel the contract (POST /contracts/{id}/cancel) and create a new one with the new terms.',
  },
  reconciliation_exception_not_found: {
    meaning: 'No such reconciliation exception.',
    action: 'Check the exception id (GET /settlement/exceptions lists them).',
  },
  terminal_not_found: {
    meaning: 'No such terminal of yours.',
    action: 'Check the terminal id (GET /terminals lists yours).',
  },
  terminal_serial_number_taken: {
    meaning: 'The merchant already has a terminal (not decommissioned) with this serial number.',
    action: 'Use the existing terminal, or decommission it before registering the device again.',
  },
  webhook_endpoint_not_found: {
    meaning: 'No such webhook endpoint of yours.',
    action: 'Check the endpoint id (GET /webhook-endpoints lists yours).',
  },
  webhook_delivery_not_found: {
    meaning: 'No such webhook delivery of yours.',
    action: 'Check the delivery id (an endpoint’s deliveries are listed under it).',
  },
  primary_webhook_endpoint_managed: {
    meaning:
      'The primary webhook endpoint follows your configuration’s webhook_url; its URL cannot be changed here and it cannot be deleted.',
    action:
      'Change or clear webhook_url with PATCH /partner/me/config; its enabled_events can still be changed here.',
  },
  partner_not_found: { meaning: 'No such partner.', action: 'Check the partner id.' },
  api_key_not_found: { meaning: 'No such API key of this partner.', action: 'Check the key id.' },
  certification_flow_not_found: {
    meaning: 'No such certification flow.',
    action: 'Prepare one with POST /partner/me/certification/prepare.',
  },
  recertification_request_not_found: {
    meaning: 'There is no open re-certification request.',
    action: 'Nothing to do.',
  },
  stream_not_found: {
    meaning: 'The event stream has no events.',
    action: 'Check the stream name (`<aggregate>-<id>`).',
  },
  projection_not_found: {
    meaning: 'There is no read model of that name.',
    action: 'Use a name from GET /platform/projections.',
  },
  method_not_allowed: {
    meaning: 'The path exists but not with this HTTP method; `Allow` lists the methods it takes.',
    action: 'Use one of the allowed methods.',
  },
  invalid_state_transition: {
    meaning:
      'The resource’s state does not allow this action (for example a refund before settlement, or a cancel of a completed session).',
    action: 'Read the resource to see its state; the docs list which actions each state allows.',
  },
  concurrency_conflict: {
    meaning: 'Another request changed the same resource at the same time and the retries ran out.',
    action: 'Retry the request (with the same Idempotency-Key).',
  },
  partner_already_exists: {
    meaning: 'A partner with this id exists already.',
    action: 'Read it instead of creating it again.',
  },
  merchant_already_exists: {
    meaning: 'A merchant with this id exists already.',
    action: 'Read it instead of creating it again.',
  },
  rebuild_in_progress: {
    meaning: 'The read model is being rebuilt already.',
    action: 'Wait for the rebuild to finish (GET /platform/projections).',
  },
  payload_too_large: {
    meaning: 'The request body is larger than the API accepts.',
    action: 'Send a smaller body.',
  },
  unsupported_media_type: {
    meaning:
      'The body is not `application/json` in UTF-8 (or, for the hosted page’s form, not urlencoded UTF-8).',
    action: 'Send `Content-Type: application/json` (charset utf-8 or none).',
  },
  request_header_fields_too_large: {
    meaning: 'The request’s headers are larger than the server accepts; the connection is closed.',
    action: 'Send smaller headers (a key, an Idempotency-Key and ordinary headers fit easily).',
  },
  request_timeout: {
    meaning: 'The request (its headers or its body) did not arrive in time; the connection is closed.',
    action: 'Send the whole request promptly and retry.',
  },
  expectation_failed: {
    meaning: 'The `Expect` header asks for something other than 100-continue.',
    action: 'Drop the header or send `Expect: 100-continue`.',
  },
  webhook_endpoint_limit_reached: {
    meaning:
      'Ten of your enabled webhook endpoints already receive one of the event types asked for; an eleventh is refused.',
    action: 'Send those types to an existing endpoint, or delete one first.',
  },
  webhook_replay_limit_reached: {
    meaning:
      'This endpoint had 100 deliveries replayed within the last hour, the most one endpoint may have.',
    action: 'Wait for the time in Retry-After, or fix the receiver and let the retry schedule deliver it.',
  },
  rate_limited: {
    meaning: 'Too many requests for the partner’s rate-limit tier.',
    action: 'Wait for the Retry-After delay, then retry.',
  },
  not_implemented: {
    meaning:
      'The operation or request variant is reserved and not offered (for example card AUTHORIZATION or CARD_VERIFICATION), or the HTTP method is unknown.',
    action: 'Use an offered operation (a card SALE authorizes and captures in one step).',
  },
  gateway_outcome_unknown: {
    meaning:
      'The gateway’s answer never came: the transaction is recorded INITIATED with its outcome pending.',
    action:
      'Retry with the SAME Idempotency-Key (a new key risks a double charge), or read the transaction; a sweep also resolves it.',
  },
  service_unavailable: {
    meaning:
      'The database is unreachable; nothing of this request was recorded, unless `detail` says the outcome is unknown.',
    action: 'Retry after the Retry-After delay with the same Idempotency-Key.',
  },
  internal_error: {
    meaning: 'An unexpected error; it is logged with the request id.',
    action: 'Retry later with the same Idempotency-Key; report the `request_id` if it persists.',
  },
  merchant_not_transactable: {
    meaning: 'The merchant may not take payments in its state (sandbox: ACTIVE or LIVE; production: LIVE).',
    action: 'Finish the merchant’s onboarding (and go-live in production) first.',
  },
  payment_method_mismatch: {
    meaning: 'The vault token holds the other rail (a bank account on a SALE, a card on an ACH_DEBIT).',
    action: 'Use a card token for SALE and a bank-account token for ACH_DEBIT.',
  },
  payment_method_not_accepted: {
    meaning:
      'The partner’s `hpp_settings.accepted_methods` leave out this payment method, so no payer could pay on the page.',
    action: 'Add the method to accepted_methods or create the session with another payment_method.',
  },
  customer_mismatch: {
    meaning: '`customer_id` names another customer than the one the vault entry belongs to.',
    action: 'Send the vault entry’s customer, or none.',
  },
  custom_fields_invalid: {
    meaning: 'Custom-field values break the merchant’s custom-field configuration; `errors` names each.',
    action: 'Send values that meet the configuration (GET /config/custom-fields/merchants/{id}).',
  },
  stored_credential_scope_violation: {
    meaning: '`use_type` is outside the scope the credential was saved with.',
    action: 'Use one of the credential’s scopes, or have the payer save it again with the right usages.',
  },
  stored_credential_not_chargeable: {
    meaning:
      'The vault entry cannot be charged: revoked or expired (`retryable: false`), or its customer link is still being set up (`retryable: true`).',
    action:
      'If retryable, retry shortly; otherwise the payer saves the method again through a save hosted page.',
  },
  amount_exceeds_refundable: {
    meaning: 'The refund is larger than what is left to refund of the original.',
    action: 'Refund at most `refundable_amount` (GET /transactions/{id}).',
  },
  nacha_reversal_window_expired: {
    meaning: 'An ACH reversal is allowed only within 5 banking days of settlement; that window has closed.',
    action: 'Use an ACH_REFUND instead.',
  },
  transaction_type_not_allowed: {
    meaning:
      'This transaction type cannot be requested by a partner (for example ACH_RETURN, which only a bank initiates).',
    action: 'Use a type the API offers.',
  },
  transaction_command_invalid: {
    meaning: 'An internal command contradicted the transaction’s facts.',
    action: 'Report the `request_id`: this is a platform bug.',
  },
  contract_command_invalid: {
    meaning: 'An internal command contradicted the recurring contract’s facts (the scheduler’s own step).',
    action: 'Report the `request_id`: this is a platform bug.',
  },
  hpp_session_command_invalid: {
    meaning: 'An internal command contradicted the session’s facts.',
    action: 'Report the `request_id`: this is a platform bug.',
  },
  reconciliation_exception_invalid: {
    meaning:
      'The resolution was refused for its content: a blank `resolution`, or one over 1,000 characters.',
    action: 'Send a `resolution` of 1 to 1,000 characters saying what was done or decided.',
  },
  settlement_batch_invalid: {
    meaning: 'The settlement run tried to open a batch it must not (empty, duplicated or mixed members).',
    action: 'Report it to the operator: this is a guard, not a client error.',
  },
  resubmission_limit_reached: {
    meaning: 'The merchant was resubmitted as many times as its `resubmission_limit` allows.',
    action: 'Contact the operator.',
  },
  go_live_gate_failed: {
    meaning: 'The merchant does not pass the go-live gate yet; the answer lists the failing checks.',
    action: 'Complete the checks of GET /merchants/{id}/go-live-gate.',
  },
  clarification_message_required: {
    meaning: 'Requesting clarification needs a message for the partner.',
    action: 'Send `clarification_message`.',
  },
  embedding_domains_limit: {
    meaning: 'Too many iframe embedding domains.',
    action: 'Keep the list within the documented limit.',
  },
  bank_account_missing: {
    meaning: 'The merchant has no settlement bank account to verify.',
    action: 'Set one with PUT /merchants/{id}/bank-account.',
  },
  surcharge_not_eligible: {
    meaning: 'The merchant may not surcharge (feature flag, MCC or state rules).',
    action: 'Check GET /merchants/{id}/fee-eligibility.',
  },
  convenience_fee_not_eligible: {
    meaning: 'The merchant may not charge a convenience fee.',
    action: 'Check GET /merchants/{id}/fee-eligibility.',
  },
  surcharge_not_allowed_on_debit: {
    meaning: 'Surcharges never apply to debit or prepaid cards.',
    action: 'Configure the surcharge for credit cards only.',
  },
  surcharge_exceeds_cap: {
    meaning: 'The surcharge is above the cap the card networks and the merchant’s state allow.',
    action: 'Lower the rate to the cap.',
  },
  convenience_fee_must_be_flat: {
    meaning: 'A convenience fee must be a flat amount, not a percentage.',
    action: 'Send a flat amount.',
  },
};
