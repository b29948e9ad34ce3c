import { cardExpired } from '../../../gateway/src';
import { InvalidStateTransition } from '../../../platform/src/problem';
import type { StoredCredential, StoredCredentialOrNone } from './stored-credential';
import {
  StoredCredentialInvalid,
  StoredCredentialNotChargeable,
  StoredCredentialNotFound,
  StoredCredentialScopeViolation,
  type FieldError,
} from './stored-credential-errors';
import type {
  BankDisplay,
  CardDisplay,
  Consent,
  EnrollmentTerms,
  StoredCredentialEvent,
} from './stored-credential-events';
import {
  CHARGEABLE_STATES,
  CONSENT_CHANNELS,
  isUseType,
  MAX_REVOCATION_REASON_LENGTH,
  transition,
  type PaymentMethodType,
  type UseType,
} from './stored-credential-states';
import { isVaultTokenFormat } from './vault-token';

interface Base {
  storedCredentialId: string;
  at: Date;
}

/**
 * Create is issued by HPP completion (after the vault stored the instrument and returned its
 * token and display data); revoke by DELETE.
 */
export type StoredCredentialCommand =
  | (Base & {
      type: 'CreateStoredCredential';
      vaultToken: string;
      partnerId: string;
      merchantId: string;
      customerId: string | null;
      processor: string;
      paymentMethodType: PaymentMethodType;
      card: CardDisplay | null;
      bank: BankDisplay | null;
      /** HPP `credential_usages`: a non-empty array of use_type values (CONTRACT §8). */
      allowedUseTypes: readonly string[];
      consent: Consent;
      enrollmentTerms?: EnrollmentTerms | null;
    })
  | (Base & { type: 'RevokeStoredCredential'; reason?: string | null });

const LAST4 = /^[0-9]{4}$/;

function createErrors(command: Extract<StoredCredentialCommand, { type: 'CreateStoredCredential' }>) {
  const errors: FieldError[] = [];
  if (!isVaultTokenFormat(command.vaultToken)) {
    errors.push({ field: 'vault_token', message: 'must be cvt_ followed by 24 or more URL-safe characters' });
  }
  if (command.allowedUseTypes.length === 0) {
    errors.push({ field: 'credential_usages', message: 'must name at least one use_type' });
  }
  command.allowedUseTypes.forEach((useType, i) => {
    if (!isUseType(useType)) {
      errors.push({ field: `credential_usages[${i}]`, message: 'must be a use_type value' });
    }
  });
  if (command.paymentMethodType === 'card') {
    if (!command.card || command.bank) {
      errors.push({ field: 'card', message: 'a card credential has card details and no bank details' });
    } else {
      const c = command.card;
      if (!LAST4.test(c.last4)) errors.push({ field: 'card.last4', message: 'must be four digits' });
      if (!Number.isInteger(c.expMonth) || c.expMonth < 1 || c.expMonth > 12) {
        errors.push({ field: 'card.exp_month', message: 'must be a month from 1 to 12' });
      }
      if (!Number.isInteger(c.expYear) || c.expYear < 2000) {
        errors.push({ field: 'card.exp_year', message: 'must be a four-digit year' });
      }
    }
  } else if (!command.bank || command.card) {
    errors.push({ field: 'bank', message: 'an ach credential has bank details and no card details' });
  } else {
    if (!LAST4.test(command.bank.routingLast4)) {
      errors.push({ field: 'bank.routing_last4', message: 'must be four digits' });
    }
    if (!LAST4.test(command.bank.accountLast4)) {
      errors.push({ field: 'bank.account_last4', message: 'must be four digits' });
    }
  }
  if (!(CONSENT_CHANNELS as readonly string[]).includes(command.consent.channel)) {
    errors.push({ field: 'consent.channel', message: 'must be hpp or api' });
  }
  if (command.consent.text.trim() === '') {
    errors.push({ field: 'consent.text', message: 'must not be blank' });
  }
  return errors;
}

/** The stored credential's decisions. Pure: time and ids arrive with the command. */
export function decide(
  command: StoredCredentialCommand,
  credential: StoredCredentialOrNone,
): StoredCredentialEvent[] {
  const at = command.at.toISOString();

  if (command.type === 'CreateStoredCredential') {
    if (credential) throw new InvalidStateTransition('stored_credential', credential.state, 'create');
    const errors = createErrors(command);
    if (errors.length > 0) throw new StoredCredentialInvalid(errors);
    return [
      {
        type: 'StoredCredentialCreated',
        data: {
          storedCredentialId: command.storedCredentialId,
          vaultToken: command.vaultToken,
          partnerId: command.partnerId,
          merchantId: command.merchantId,
          customerId: command.customerId,
          processor: command.processor,
          paymentMethodType: command.paymentMethodType,
          card: command.card,
          bank: command.bank,
          // Deduplicated, in the order the command named them.
          allowedUseTypes: [...new Set(command.allowedUseTypes as UseType[])],
          consent: command.consent,
          enrollmentTerms: command.enrollmentTerms ?? null,
          createdAt: at,
        },
      },
    ];
  }

  if (!credential) throw new StoredCredentialNotFound(command.storedCredentialId);
  const ids = {
    storedCredentialId: credential.id,
    merchantId: credential.merchantId,
    partnerId: credential.partnerId,
  };

  switch (command.type) {
    case 'RevokeStoredCredential': {
      transition(credential.state, 'revoke');
      const reason = command.reason?.trim() ? command.reason.trim() : null;
      if (reason && reason.length > MAX_REVOCATION_REASON_LENGTH) {
        throw new StoredCredentialInvalid([
          { field: 'reason', message: `must be at most ${MAX_REVOCATION_REASON_LENGTH} characters` },
        ]);
      }
      return [{ type: 'StoredCredentialRevoked', data: { ...ids, reason, revokedAt: at } }];
    }
  }
}

/**
 * Whether a charge with `useType` may be made on the credential at `at`; throws otherwise.
 * Order: state first (a revoked credential refuses every use type), then consent, then card
 * expiry (a card is valid through the last day of its expiry month, UTC), then scope.
 * - REVOKED → 422 `stored_credential_not_chargeable` (`retryable: false`)
 * - no recorded consent (an entry that predates the requirement) → the same, `retryable: false`
 * - card expired → the same, `retryable: false` (the payer must save the card again)
 * - `useType` not in the scope (or not a use_type at all) → 422
 *   `stored_credential_scope_violation` (`retryable: false`)
 */
export function assertChargeable(credential: StoredCredential, useType: string, at: Date): void {
  if (!CHARGEABLE_STATES.includes(credential.state)) {
    throw new StoredCredentialNotChargeable(credential.id, 'revoked');
  }
  if (!credential.consent) throw new StoredCredentialNotChargeable(credential.id, 'consent_missing');
  if (credential.card && cardExpired(credential.card.expMonth, credential.card.expYear, at)) {
    throw new StoredCredentialNotChargeable(credential.id, 'card_expired');
  }
  if (!isUseType(useType) || !credential.allowedUseTypes.includes(useType)) {
    throw new StoredCredentialScopeViolation(credential.id, useType, credential.allowedUseTypes);
  }
}
