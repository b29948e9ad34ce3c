import { DomainError, NotFound } from '../../../platform/src/problem';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * 404: no such stored credential, or one of another merchant or partner (the same answer). A
 * `vault_token` on POST /transactions that is unknown or another merchant's answers the same.
 */
export class StoredCredentialNotFound extends NotFound {
  constructor(readonly storedCredentialId: string) {
    super('stored_credential_not_found', `stored credential ${storedCredentialId} does not exist`);
  }
}

/** 400 `validation_error`: a create or revoke whose values break a rule; `errors` names each. */
export class StoredCredentialInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/** 422: the transaction's `use_type` is outside the scope the credential was vaulted with. */
export class StoredCredentialScopeViolation extends DomainError {
  readonly code = 'stored_credential_scope_violation';
  override readonly retryable = false;

  constructor(
    readonly storedCredentialId: string,
    readonly useType: string,
    readonly allowedUseTypes: readonly string[],
  ) {
    super(
      `use_type ${useType} is outside the stored credential's scope (${allowedUseTypes.join(', ') || 'none'})`,
    );
  }
}

/**
 * Why a credential cannot be charged. `customer_link_pending` is the only transient one (spec:
 * `retryable: true`, the customer link is still being set up); the others need the payer to save
 * the method again through a save hosted page.
 */
export type NotChargeableReason = 'revoked' | 'card_expired' | 'consent_missing' | 'customer_link_pending';

const DETAIL: Record<NotChargeableReason, string> = {
  revoked: 'the stored credential was revoked',
  card_expired: 'the stored card has expired; the payer must save the card again',
  consent_missing: 'the stored credential predates current requirements; the payer must save it again',
  customer_link_pending: "the stored credential's customer link is still being set up; retry shortly",
};

/** 422 `stored_credential_not_chargeable`, `retryable` per {@link NotChargeableReason}. */
export class StoredCredentialNotChargeable extends DomainError {
  readonly code = 'stored_credential_not_chargeable';
  override readonly retryable: boolean;

  constructor(
    readonly storedCredentialId: string,
    readonly reason: NotChargeableReason,
  ) {
    super(DETAIL[reason]);
    this.retryable = reason === 'customer_link_pending';
  }
}
