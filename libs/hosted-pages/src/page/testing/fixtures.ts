import { DEFAULT_APPEARANCE, type Appearance } from '../../../../page-config/src/appearance';
import type { PageSession, PaymentPageInput } from '../render';

export const SESSION_ID = '5d8e2a10-3c4b-4f6a-9b7c-1d2e3f405162';
export const HPP_URL = `https://pay.example.test/hpp/${SESSION_ID}`;
export const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';

/** A fixed-amount card payment of $10.00, no fees, nothing saved. */
export function cardSession(overrides: Partial<PageSession> = {}): PageSession {
  return {
    paymentMethod: 'card',
    pagePurpose: 'payment',
    amountMode: 'fixed',
    currency: 'USD',
    amountMinor: '1000',
    surchargeMinor: '0',
    convenienceFeeMinor: '0',
    totalMinor: '1000',
    savesPaymentMethod: false,
    credentialUsages: [],
    recurringPlan: null,
    ...overrides,
  };
}

export function achSession(overrides: Partial<PageSession> = {}): PageSession {
  return cardSession({ paymentMethod: 'ach', ...overrides });
}

export function customerEnteredSession(overrides: Partial<PageSession> = {}): PageSession {
  return cardSession({
    amountMode: 'customer_entered',
    amountMinor: null,
    surchargeMinor: null,
    convenienceFeeMinor: null,
    totalMinor: null,
    ...overrides,
  });
}

export function saveCardSession(overrides: Partial<PageSession> = {}): PageSession {
  return cardSession({
    pagePurpose: 'save_payment_method',
    amountMode: null,
    amountMinor: null,
    surchargeMinor: null,
    convenienceFeeMinor: null,
    totalMinor: null,
    savesPaymentMethod: true,
    credentialUsages: ['RECURRING'],
    ...overrides,
  });
}

export function pageInput(overrides: Partial<PaymentPageInput> = {}): PaymentPageInput {
  return {
    session: cardSession(),
    merchantName: 'Acme Widgets',
    appearance: DEFAULT_APPEARANCE,
    formAction: HPP_URL,
    csrfToken: 'csrf-token-value',
    styleNonce: NONCE,
    values: {},
    errors: {},
    ...overrides,
  };
}

/** The default appearance with some keys replaced (for tests of a hostile stored row). */
export function appearanceWith(patch: (a: Appearance) => void): Appearance {
  const copy = JSON.parse(JSON.stringify(DEFAULT_APPEARANCE)) as Appearance;
  patch(copy);
  return copy;
}
