import type { StoredCredential, UseType } from '../../../vault/src/domain';
import type { ContractPaymentMethod, ContractRail, ContractUseType } from './contract-events';

/**
 * The `use_type` a contract's charges carry, from the token's scope (docs/recurring.md "Use
 * type"): a plan with a fixed `number_of_payments` is an installment plan, charged INSTALLMENT
 * when the payer agreed to installments; every other contract (and an installment plan on a
 * token scoped for RECURRING only) is charged RECURRING. A token scoped for INSTALLMENT alone
 * therefore carries only plans with `number_of_payments`; anything else is out of its scope
 * (the caller's `assertChargeable` answers 422 `stored_credential_scope_violation`).
 */
export function contractUseType(scope: readonly UseType[], numberOfPayments: number | null): ContractUseType {
  if (numberOfPayments !== null && scope.includes('INSTALLMENT')) return 'INSTALLMENT';
  return 'RECURRING';
}

export function railOf(credential: Pick<StoredCredential, 'paymentMethodType'>): ContractRail {
  return credential.paymentMethodType === 'card' ? 'CARD' : 'ACH';
}

/** What a contract keeps of its stored credential: the token and display data, never a number. */
export function contractPaymentMethod(credential: StoredCredential): ContractPaymentMethod {
  const { card, bank } = credential;
  return {
    vaultToken: credential.vaultToken,
    storedCredentialId: credential.id,
    card: card && { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
    bank: bank && {
      accountType: bank.accountType,
      accountLast4: bank.accountLast4,
      routingLast4: bank.routingLast4,
    },
  };
}
