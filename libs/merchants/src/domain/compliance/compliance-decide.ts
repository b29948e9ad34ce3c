import { InvalidStateTransition } from '../../../../platform/src/problem';
import type { Merchant } from '../merchant';
import type { MerchantComplianceEvent } from './compliance-events';

/** `POST /merchants/{id}/compliance/saq-type`: the PCI SAQ the merchant files (a code of SAQ_TYPES). */
export interface RecordMerchantSaqType {
  type: 'RecordMerchantSaqType';
  merchantId: string;
  saqType: string;
  at: Date;
}

export type MerchantComplianceCommand = RecordMerchantSaqType;

/**
 * Compliance records may change at any point of onboarding and after go-live (a merchant's
 * integration can change its SAQ), but not once the merchant is CLOSED. The same value again
 * records nothing.
 */
export function decideCompliance(
  command: MerchantComplianceCommand,
  merchant: Merchant,
): MerchantComplianceEvent[] {
  if (merchant.state === 'CLOSED')
    throw new InvalidStateTransition('merchant', merchant.state, 'record_saq_type');
  if (merchant.pciSaqType === command.saqType) return [];
  return [
    {
      type: 'MerchantSaqTypeRecorded',
      data: {
        merchantId: merchant.id,
        partnerId: merchant.partnerId,
        saqType: command.saqType,
        recordedAt: command.at.toISOString(),
      },
    },
  ];
}
