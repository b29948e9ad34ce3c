import type {
  BankDisplay,
  CardDisplay,
  Consent,
  EnrollmentTerms,
  StoredCredentialEvent,
} from './stored-credential-events';
import type { PaymentMethodType, StoredCredentialState, UseType } from './stored-credential-states';

/** The stored credential as its events make it: plain JSON. */
export interface StoredCredential {
  id: string;
  vaultToken: string;
  partnerId: string;
  merchantId: string;
  customerId: string | null;
  processor: string;
  paymentMethodType: PaymentMethodType;
  card: CardDisplay | null;
  bank: BankDisplay | null;
  allowedUseTypes: UseType[];
  consent: Consent | null;
  enrollmentTerms: EnrollmentTerms | null;
  state: StoredCredentialState;
  createdAt: string;
  revokedAt: string | null;
  revocationReason: string | null;
  /** Number of events applied: the `version` field of the API. */
  version: number;
}

export type StoredCredentialOrNone = StoredCredential | null;

export const initialState = (): StoredCredentialOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(
  credential: StoredCredentialOrNone,
  event: StoredCredentialEvent,
): StoredCredentialOrNone {
  if (event.type === 'StoredCredentialCreated') {
    const d = event.data;
    return {
      id: d.storedCredentialId,
      vaultToken: d.vaultToken,
      partnerId: d.partnerId,
      merchantId: d.merchantId,
      customerId: d.customerId,
      processor: d.processor,
      paymentMethodType: d.paymentMethodType,
      card: d.card,
      bank: d.bank,
      allowedUseTypes: [...d.allowedUseTypes],
      consent: d.consent,
      enrollmentTerms: d.enrollmentTerms,
      state: 'ACTIVE',
      createdAt: d.createdAt,
      revokedAt: null,
      revocationReason: null,
      version: 1,
    };
  }
  if (!credential) return credential;
  switch (event.type) {
    case 'StoredCredentialRevoked':
      return {
        ...credential,
        state: 'REVOKED',
        revokedAt: event.data.revokedAt,
        revocationReason: event.data.reason,
        version: credential.version + 1,
      };
  }
}

export const storedCredentialEvolver = { initialState, evolve };
