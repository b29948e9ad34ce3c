import type { ComplianceDocumentType, DocumentContentType } from './documents';

/** Compliance facts of a merchant, on `merchant-{id}`. Stored types are never reshaped. */
export interface MerchantSaqTypeRecorded {
  type: 'MerchantSaqTypeRecorded';
  data: { merchantId: string; partnerId: string; saqType: string; recordedAt: string };
}

/**
 * A compliance document was stored (sealed, in `platform.merchant_documents`, before this event
 * was appended). Metadata only: the content never enters the event store.
 */
export interface MerchantComplianceDocumentUploaded {
  type: 'MerchantComplianceDocumentUploaded';
  data: {
    merchantId: string;
    partnerId: string;
    documentId: string;
    documentType: ComplianceDocumentType;
    fileName: string;
    contentType: DocumentContentType;
    sizeBytes: number;
    sha256: string;
    uploadedAt: string;
  };
}

export type MerchantComplianceEvent = MerchantSaqTypeRecorded | MerchantComplianceDocumentUploaded;

export const MERCHANT_COMPLIANCE_EVENT_TYPES: readonly MerchantComplianceEvent['type'][] = [
  'MerchantSaqTypeRecorded',
  'MerchantComplianceDocumentUploaded',
];

export function isMerchantComplianceEvent(event: { type: string }): event is MerchantComplianceEvent {
  return (MERCHANT_COMPLIANCE_EVENT_TYPES as readonly string[]).includes(event.type);
}
