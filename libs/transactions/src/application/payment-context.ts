import type { EventMetadata } from '../../../event-store/src';
import type { Merchant } from '../../../merchants/src';
import type { BankDisplay, CardDisplay, UseType } from '../../../vault/src';

/** Everything a charge records, resolved and checked by the caller. */
export interface ChargeFacts {
  type: 'SALE' | 'ACH_DEBIT';
  merchant: Merchant;
  vaultToken: string;
  storedCredentialId: string | null;
  card: CardDisplay | null;
  bank: BankDisplay | null;
  useType: UseType;
  amountMinor: bigint;
  currency: string;
  customerId: string | null;
  taxMinor: bigint | null;
  secCode: 'WEB' | 'PPD' | 'CCD' | 'TEL' | null;
  customFields: { name: string; value: string }[];
  level2Data: Record<string, unknown> | null;
  level3Data: Record<string, unknown> | null;
}

/** Where a charge comes from: the request's ids and metadata. */
export interface PaymentContext {
  partnerId: string;
  /** The idempotency record's id (stable across re-runs); null only outside a request. */
  commandId: string;
  /**
   * True when `commandId` is new to this request (no earlier run of it): the transaction it
   * names cannot exist yet, so a charge skips looking for it. Absent means "maybe a re-run".
   */
  fresh?: boolean;
  metadata: EventMetadata;
  source: 'api' | 'hpp' | 'recurring';
  /** The channel a fee disclosure was shown on, when one applies. */
  disclosureChannel: string;
  entryMode: string;
}

/** A partner's own request: its variants are held against the partner's feature flags. */
export interface RequestedPayment extends PaymentContext {
  enabledFeatures: readonly string[];
}

/** What a single step of a request needs: its command id (for step causations) and metadata. */
export type StepContext = Pick<PaymentContext, 'commandId' | 'metadata'>;
