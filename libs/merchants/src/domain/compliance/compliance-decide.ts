import { InvalidStateTransition } from '../../../../platform/src/problem';
import type { Merchant } from '../merchant';
import type { MerchantComplianceEvent } from './compliance-events';
import type { ComplianceDocumentType, DocumentContentType } from './documents';

/** `POST /merchants/{id}/compliance/saq-type`: the PCI SAQ the merchant files (a code of SAQ_TYPES). */
export interface RecordMerchantSaqType {
  type: 'RecordMerchantSaqType';
  merchantId: string;
  saqType: string;
  at: Date;
}

/**
 * `POST /merchants/{id}/compliance-documents`, after the body was validated (validateDocumentUpload)
 * and the sealed content stored under `documentId`. Only the metadata travels here.
 */
export interface UploadMerchantComplianceDocument {
  type: 'UploadMerchantComplianceDocument';
  merchantId: string;
  documentId: string;
  documentType: ComplianceDocumentType;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
  at: Date;
}

export type MerchantComplianceCommand = RecordMerchantSaqType | UploadMerchantComplianceDocument;

export const MERCHANT_COMPLIANCE_COMMAND_TYPES: readonly MerchantComplianceCommand['type'][] = [
  'RecordMerchantSaqType',
  'UploadMerchantComplianceDocument',
];

/**
 * Compliance records may change at any point of onboarding and after go-live (a merchant's
 * integration can change its SAQ, a document may be renewed), but not once the merchant is
 * CLOSED (409). The same SAQ again records nothing; a document id already recorded (a retried
 * upload) records nothing.
 */
export function decideCompliance(
  command: MerchantComplianceCommand,
  merchant: Merchant,
): MerchantComplianceEvent[] {
  switch (command.type) {
    case 'RecordMerchantSaqType': {
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
    case 'UploadMerchantComplianceDocument': {
      if (merchant.state === 'CLOSED')
        throw new InvalidStateTransition('merchant', merchant.state, 'upload_compliance_document');
      if ((merchant.complianceDocuments ?? []).some((d) => d.id === command.documentId)) return [];
      return [
        {
          type: 'MerchantComplianceDocumentUploaded',
          data: {
            merchantId: merchant.id,
            partnerId: merchant.partnerId,
            documentId: command.documentId,
            documentType: command.documentType,
            fileName: command.fileName,
            contentType: command.contentType,
            sizeBytes: command.sizeBytes,
            sha256: command.sha256,
            uploadedAt: command.at.toISOString(),
          },
        },
      ];
    }
  }
}
