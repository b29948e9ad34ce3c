import { z } from 'zod';
import { Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import { InvalidStateTransition, DomainError } from '../../../../platform/src/problem';

/**
 * The merchant's settlement bank account and its verification, on `merchant-{id}`.
 *
 * The account number never enters an event: events carry the last four digits of the routing
 * and account numbers, the account type and holder name, and `accountRef`, the id of the
 * sealed record (AES-256-GCM under the vault key) that holds the full numbers.
 *
 * Verification: setting an account starts it (PENDING, with the provider's reference); `POST
 * .../bank-verification/check` asks the provider and records the answer when it changed:
 * VERIFIED or FAILED (with a reason). A new account starts over.
 */
export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export const BANK_VERIFICATION_STATUSES = ['NOT_STARTED', 'PENDING', 'VERIFIED', 'FAILED'] as const;
export type BankVerificationStatus = (typeof BANK_VERIFICATION_STATUSES)[number];

export interface MerchantBankAccountSet {
  type: 'MerchantBankAccountSet';
  data: {
    merchantId: string;
    partnerId: string;
    accountRef: string;
    routingLast4: string;
    accountLast4: string;
    accountType: BankAccountType;
    accountHolderName: string;
    providerReference: string;
    setAt: string;
  };
}

export interface MerchantBankVerificationChecked {
  type: 'MerchantBankVerificationChecked';
  data: {
    merchantId: string;
    partnerId: string;
    accountRef: string;
    status: 'PENDING' | 'VERIFIED' | 'FAILED';
    failureReason: string | null;
    checkedAt: string;
  };
}

export type BankEvent = MerchantBankAccountSet | MerchantBankVerificationChecked;
export const BANK_EVENT_TYPES: readonly BankEvent['type'][] = [
  'MerchantBankAccountSet',
  'MerchantBankVerificationChecked',
];
export function isBankEvent(event: { type: string }): event is BankEvent {
  return (BANK_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** The account as set (its event's data, less the owners and the time) and where verification stands. */
export interface BankState extends Omit<
  MerchantBankAccountSet['data'],
  'merchantId' | 'partnerId' | 'setAt'
> {
  status: Exclude<BankVerificationStatus, 'NOT_STARTED'>;
  failureReason: string | null;
  submittedAt: string;
  checkedAt: string | null;
  checks: number;
}

export function evolveBank(state: BankState | null, event: BankEvent): BankState | null {
  if (event.type === 'MerchantBankAccountSet') {
    const { merchantId: _merchantId, partnerId: _partnerId, setAt, ...account } = event.data;
    return {
      ...account,
      status: 'PENDING',
      failureReason: null,
      submittedAt: setAt,
      checkedAt: null,
      checks: 0,
    };
  }
  if (!state || state.accountRef !== event.data.accountRef) return state;
  return {
    ...state,
    status: event.data.status,
    failureReason: event.data.failureReason,
    checkedAt: event.data.checkedAt,
    checks: state.checks + 1,
  };
}

export class BankAccountMissing extends DomainError {
  readonly code = 'bank_account_missing';
  constructor(readonly merchantId: string) {
    super(
      `merchant ${merchantId} has no settlement bank account to verify; set one with PUT /merchants/{id}/bank-account`,
    );
  }
}

export type BankCommand =
  | {
      type: 'SetSettlementBankAccount';
      merchantId: string;
      accountRef: string;
      routingLast4: string;
      accountLast4: string;
      accountType: BankAccountType;
      accountHolderName: string;
      providerReference: string;
      at: Date;
    }
  | {
      type: 'RecordBankVerificationCheck';
      merchantId: string;
      accountRef: string;
      outcome: { status: 'PENDING' | 'VERIFIED' | 'FAILED'; failureReason: string | null };
      at: Date;
    };

/** `merchant` gives what the rules need: state, partner and the current account. */
export function decideBank(
  command: BankCommand,
  merchant: { id: string; partnerId: string; state: string; bank: BankState | null },
): BankEvent[] {
  if (merchant.state === 'CLOSED') {
    const action =
      command.type === 'SetSettlementBankAccount' ? 'set_bank_account' : 'check_bank_verification';
    throw new InvalidStateTransition('merchant', merchant.state, action);
  }
  const ids = { merchantId: merchant.id, partnerId: merchant.partnerId };
  if (command.type === 'SetSettlementBankAccount') {
    const { type: _t, merchantId: _m, at, ...account } = command;
    return [{ type: 'MerchantBankAccountSet', data: { ...ids, ...account, setAt: at.toISOString() } }];
  }
  const bank = merchant.bank;
  if (!bank) throw new BankAccountMissing(merchant.id);
  // An answer for a replaced account, or no change: nothing to record.
  if (bank.accountRef !== command.accountRef) return [];
  if (bank.status === command.outcome.status && bank.failureReason === command.outcome.failureReason)
    return [];
  // A verified or failed account stays so: only a new account starts over.
  if (bank.status !== 'PENDING') return [];
  return [
    {
      type: 'MerchantBankVerificationChecked',
      data: { ...ids, accountRef: bank.accountRef, ...command.outcome, checkedAt: command.at.toISOString() },
    },
  ];
}

/** A bank account as the API shows it: the holder, the type, and the numbers' last four digits. */
export const MaskedBankAccountSchema = z.strictObject({
  account_holder_name: z.string(),
  account_type: z.enum(BANK_ACCOUNT_TYPES),
  routing_number: z.string().meta({ description: 'Last four digits only.' }),
  account_number: z.string().meta({ description: 'Last four digits only.' }),
});

export const BankVerificationSchema = z
  .strictObject({
    merchant_id: Uuid,
    status: z.enum(BANK_VERIFICATION_STATUSES),
    bank_account: MaskedBankAccountSchema.nullable(),
    provider_reference: z.string().nullable(),
    submitted_at: Timestamp.nullable(),
    checked_at: Timestamp.nullable(),
    failure_reason: z.string().nullable(),
  })
  .meta({ id: 'BankVerification' });

/** `GET /merchants/{id}/bank-verification`. */
export function toBankVerification(
  merchantId: string,
  bank: BankState | null,
): z.infer<typeof BankVerificationSchema> {
  if (!bank) {
    return {
      merchant_id: merchantId,
      status: 'NOT_STARTED' as const,
      bank_account: null,
      provider_reference: null,
      submitted_at: null,
      checked_at: null,
      failure_reason: null,
    };
  }
  return {
    merchant_id: merchantId,
    status: bank.status,
    bank_account: {
      account_holder_name: bank.accountHolderName,
      account_type: bank.accountType,
      routing_number: `*****${bank.routingLast4}`,
      account_number: `****${bank.accountLast4}`,
    },
    provider_reference: bank.providerReference,
    submitted_at: bank.submittedAt,
    checked_at: bank.checkedAt,
    failure_reason: bank.failureReason,
  };
}
