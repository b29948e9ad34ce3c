import type { CardBrand, CardFunding } from '../../../gateway/src';
import type { ConsentChannel, PaymentMethodType, UseType } from './stored-credential-states';

/**
 * Stored stored-credential events (stream `stored_credential-{id}`). Stored types are never
 * renamed or reshaped; add new ones instead. Events hold display data only (brand, last four,
 * expiry, funding, bank last fours) and the vault token: never a PAN, a CVC, a full routing or
 * account number. Times are ISO-8601 strings.
 */

interface Ids {
  storedCredentialId: string;
  merchantId: string;
  partnerId: string;
}

/** What may be shown of a card. */
export interface CardDisplay {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: CardFunding;
}

export type BankAccountType = 'CHECKING' | 'SAVINGS';

/** What may be shown of a bank account. */
export interface BankDisplay {
  routingLast4: string;
  accountLast4: string;
  accountType: BankAccountType;
}

/** The payer's agreement to store and reuse the instrument. */
export interface Consent {
  capturedAt: string;
  channel: ConsentChannel;
  /** The consent wording the payer saw. */
  text: string;
}

/** Spec `enrollment_terms` (free-form strings shown to the payer), when the page had any. */
export interface EnrollmentTerms {
  amount: string | null;
  frequency: string | null;
  duration: string | null;
}

export interface StoredCredentialCreated {
  type: 'StoredCredentialCreated';
  data: Ids & {
    vaultToken: string;
    customerId: string | null;
    /** The processor holding the gateway-side token (spec `processor`). */
    processor: string;
    paymentMethodType: PaymentMethodType;
    /** Set for `card`, null for `ach`. */
    card: CardDisplay | null;
    /** Set for `ach`, null for `card`. */
    bank: BankDisplay | null;
    /** The use types the payer agreed to (spec `scope`; HPP `credential_usages`). */
    allowedUseTypes: UseType[];
    /** null only for entries minted before consent was recorded: those cannot be charged. */
    consent: Consent | null;
    enrollmentTerms: EnrollmentTerms | null;
    createdAt: string;
  };
}

/** DELETE: the reason (also kept in the request's event metadata by the HTTP layer). */
export interface StoredCredentialRevoked {
  type: 'StoredCredentialRevoked';
  data: Ids & { reason: string | null; revokedAt: string };
}

export type StoredCredentialEvent = StoredCredentialCreated | StoredCredentialRevoked;
export type StoredCredentialEventType = StoredCredentialEvent['type'];

/**
 * Event type → the webhook type a partner sees (`GET /webhook-event-types`). Every
 * stored-credential event is visible to its partner. The record makes the compiler check that
 * every event type is mapped.
 */
export const STORED_CREDENTIAL_WEBHOOK_EVENT_TYPES: Readonly<Record<StoredCredentialEventType, string>> = {
  StoredCredentialCreated: 'stored_credential.created',
  StoredCredentialRevoked: 'stored_credential.revoked',
};

/** Every stored-credential event type (the record above makes the compiler check the list). */
export const STORED_CREDENTIAL_EVENT_TYPES = Object.keys(
  STORED_CREDENTIAL_WEBHOOK_EVENT_TYPES,
) as StoredCredentialEventType[];
