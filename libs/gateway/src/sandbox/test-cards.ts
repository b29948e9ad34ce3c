import { normalizePan, type CardBrand, type CardFunding } from '../card';

/**
 * CONTRACT §5: the sandbox test cards (any future expiry, any CVC). Sandbox data only: the
 * generic card helpers (card.ts) know no card numbers, and funding is the gateway's answer
 * (`PaymentGateway.cardFunding`), not a table in the platform.
 */
export const SANDBOX_TEST_CARDS: readonly { pan: string; brand: CardBrand; funding: CardFunding }[] = [
  { pan: '4111111111111111', brand: 'VISA', funding: 'credit' },
  { pan: '5555555555554444', brand: 'MASTERCARD', funding: 'credit' },
  { pan: '378282246310005', brand: 'AMEX', funding: 'credit' },
  { pan: '6011111111111117', brand: 'DISCOVER', funding: 'credit' },
  { pan: '4000056655665556', brand: 'VISA', funding: 'debit' },
];

/** `4000056655665556` is a Visa debit card; every other card (test or not) is credit. */
export function sandboxCardFunding(pan: string): CardFunding {
  const digits = normalizePan(pan);
  return SANDBOX_TEST_CARDS.find((card) => card.pan === digits)?.funding ?? 'credit';
}

export function isSandboxTestCard(pan: string): boolean {
  const digits = normalizePan(pan);
  return SANDBOX_TEST_CARDS.some((card) => card.pan === digits);
}
