/** Compliance facts of a merchant, on `merchant-{id}`. Stored types are never reshaped. */
export interface MerchantSaqTypeRecorded {
  type: 'MerchantSaqTypeRecorded';
  data: { merchantId: string; partnerId: string; saqType: string; recordedAt: string };
}

export type MerchantComplianceEvent = MerchantSaqTypeRecorded;

export const MERCHANT_COMPLIANCE_EVENT_TYPES: readonly MerchantComplianceEvent['type'][] = [
  'MerchantSaqTypeRecorded',
];

export function isMerchantComplianceEvent(event: { type: string }): event is MerchantComplianceEvent {
  return (MERCHANT_COMPLIANCE_EVENT_TYPES as readonly string[]).includes(event.type);
}
