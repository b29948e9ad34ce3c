import {
  evolveHppMerchantPage,
  initialHppMerchantPageState,
  type HppMerchantPageState,
  HPP_MERCHANT_PAGE_EVENT_TYPES,
  isHppMerchantPageEvent,
  type HppMerchantPageEvent,
} from '../../../page-config/src';
import { MERCHANT_EVENT_TYPES, type MerchantEvent, type ProcessorMid } from './merchant-events';
import {
  evolveCustomFields,
  initialCustomFieldsState,
  type CustomFieldsState,
} from './custom-fields/custom-fields';
import {
  CUSTOM_FIELDS_EVENT_TYPES,
  isCustomFieldsEvent,
  type CustomFieldsEvent,
} from './custom-fields/custom-field-events';
import {
  BANK_EVENT_TYPES,
  evolveBank,
  isBankEvent,
  type BankEvent,
  type BankState,
} from './bank/bank-verification';
import { FEES_EVENT_TYPES, isFeesEvent, type FeesEvent } from './fees/fee-events';
import { evolveFees, initialFeesState, type FeesState } from './fees/fees';
import {
  isMerchantComplianceEvent,
  MERCHANT_COMPLIANCE_EVENT_TYPES,
  type MerchantComplianceEvent,
} from './compliance/compliance-events';
import type { DocumentMeta } from './compliance/documents';
import type { EsignEnvelopeStatus, HipaaBaaStatus, MerchantChannel, MerchantState } from './merchant-states';

export interface EsignEnvelope {
  status: EsignEnvelopeStatus;
  sentAt: string;
  lastStatusAt: string;
  reissueCount: number;
}

/** The merchant as its events make it: plain JSON (read models keep it as a snapshot). */
export interface Merchant {
  id: string;
  partnerId: string;
  businessName: string;
  contactEmail: string;
  contactName: string;
  authorizedSignerName: string | null;
  authorizedSignerEmail: string | null;
  merchantCategoryCode: string;
  state: MerchantState;
  channel: MerchantChannel;
  processorMids: ProcessorMid[];
  gatewayMerchantId: string | null;
  locationCount: number | null;
  businessState: string | null;
  hipaaBaaStatus: HipaaBaaStatus;
  pciSaqType: string | null;
  /** The open clarification request; cleared when the partner responds. */
  clarificationMessage: string | null;
  rejectionReasonCode: string | null;
  rejectionReason: string | null;
  esignEnvelope: EsignEnvelope | null;
  /** Why the merchant is suspended (or closed); cleared on reactivation. */
  restrictionReason: string | null;
  resubmissionCount: number;
  resubmissionLimit: number;
  /** The first submission (DRAFT → SUBMITTED). */
  submittedAt: string | null;
  createdAt: string;
  /** Number of events applied: the `version` field of the API. */
  version: number;
  /** While SUSPENDED: the state `reactivate` returns to. */
  suspendedFrom: MerchantState | null;
  /** The provisioning step that failed last; kept through the retry (it resumes there). */
  failedProvisioningStep: string | null;
  /** The hosted-payment-page override and iframe embedding domains. */
  hppPage: HppMerchantPageState;
  /** The custom-field configuration and its provisioning at the gateway. */
  customFields: CustomFieldsState;
  /** Metadata of the uploaded compliance documents, oldest first (the content is sealed elsewhere). */
  complianceDocuments: DocumentMeta[];
  /** The settlement bank account (masked) and its verification; null until one is set. */
  bank: BankState | null;
  /** Fee profile, convenience-fee and surcharge programs. */
  fees: FeesState;
}

/** Everything on `merchant-{id}`: the lifecycle, and the merchant's configuration. */
export type MerchantStreamEvent =
  MerchantEvent | HppMerchantPageEvent | MerchantComplianceEvent | CustomFieldsEvent | BankEvent | FeesEvent;

export const MERCHANT_STREAM_EVENT_TYPES: readonly MerchantStreamEvent['type'][] = [
  ...MERCHANT_EVENT_TYPES,
  ...HPP_MERCHANT_PAGE_EVENT_TYPES,
  ...MERCHANT_COMPLIANCE_EVENT_TYPES,
  ...CUSTOM_FIELDS_EVENT_TYPES,
  ...BANK_EVENT_TYPES,
  ...FEES_EVENT_TYPES,
];

/** Before MerchantCreated the merchant does not exist. */
export type MerchantStateOrNone = Merchant | null;

export const initialState = (): MerchantStateOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(merchant: MerchantStateOrNone, event: MerchantStreamEvent): MerchantStateOrNone {
  if (isHppMerchantPageEvent(event)) {
    if (!merchant) return merchant;
    // Snapshots taken before the slice existed start from an empty one.
    const hppPage = evolveHppMerchantPage(merchant.hppPage ?? initialHppMerchantPageState(), event);
    return { ...merchant, hppPage, version: merchant.version + 1 };
  }
  if (isBankEvent(event)) {
    if (!merchant) return merchant;
    return { ...merchant, bank: evolveBank(merchant.bank ?? null, event), version: merchant.version + 1 };
  }
  if (isFeesEvent(event)) {
    if (!merchant) return merchant;
    const fees = evolveFees(merchant.fees ?? initialFeesState(), event);
    return { ...merchant, fees, version: merchant.version + 1 };
  }
  if (isCustomFieldsEvent(event)) {
    if (!merchant) return merchant;
    const customFields = evolveCustomFields(merchant.customFields ?? initialCustomFieldsState(), event);
    return { ...merchant, customFields, version: merchant.version + 1 };
  }
  if (isMerchantComplianceEvent(event)) {
    if (!merchant) return merchant;
    const m: Merchant = { ...merchant, version: merchant.version + 1 };
    switch (event.type) {
      case 'MerchantSaqTypeRecorded':
        return { ...m, pciSaqType: event.data.saqType };
      case 'MerchantComplianceDocumentUploaded': {
        const d = event.data;
        const document: DocumentMeta = {
          id: d.documentId,
          documentType: d.documentType,
          fileName: d.fileName,
          contentType: d.contentType,
          sizeBytes: d.sizeBytes,
          sha256: d.sha256,
          uploadedAt: d.uploadedAt,
        };
        // Snapshots taken before documents existed lack the list. A signed BAA satisfies a
        // REQUIRED status; a later MCC change (PATCH) recomputes the status and needs a new one.
        const signsBaa = d.documentType === 'BAA_SIGNED' && m.hipaaBaaStatus === 'REQUIRED';
        return {
          ...m,
          complianceDocuments: [...(m.complianceDocuments ?? []), document],
          hipaaBaaStatus: signsBaa ? 'SIGNED' : m.hipaaBaaStatus,
        };
      }
    }
  }
  return evolveLifecycle(merchant, event);
}

function evolveLifecycle(merchant: MerchantStateOrNone, event: MerchantEvent): MerchantStateOrNone {
  if (event.type === 'MerchantCreated') {
    const d = event.data;
    return {
      id: d.merchantId,
      partnerId: d.partnerId,
      businessName: d.businessName,
      contactEmail: d.contactEmail,
      contactName: d.contactName,
      authorizedSignerName: d.authorizedSignerName,
      authorizedSignerEmail: d.authorizedSignerEmail,
      merchantCategoryCode: d.merchantCategoryCode,
      state: 'DRAFT',
      channel: d.channel,
      processorMids: [],
      gatewayMerchantId: null,
      locationCount: d.locationCount,
      businessState: d.businessState ?? null,
      hipaaBaaStatus: d.hipaaBaaStatus,
      pciSaqType: null,
      clarificationMessage: null,
      rejectionReasonCode: null,
      rejectionReason: null,
      esignEnvelope: null,
      restrictionReason: null,
      resubmissionCount: 0,
      resubmissionLimit: d.resubmissionLimit,
      submittedAt: null,
      createdAt: d.createdAt,
      version: 1,
      suspendedFrom: null,
      failedProvisioningStep: null,
      hppPage: initialHppMerchantPageState(),
      customFields: initialCustomFieldsState(),
      complianceDocuments: [],
      bank: null,
      fees: initialFeesState(),
    };
  }
  if (!merchant) return merchant;
  const m: Merchant = { ...merchant, version: merchant.version + 1 };
  const envelope = (status: EsignEnvelope['status'], at: string): EsignEnvelope | null =>
    m.esignEnvelope && { ...m.esignEnvelope, status, lastStatusAt: at };

  switch (event.type) {
    case 'MerchantUpdated': {
      const { merchantId: _id, partnerId: _partner, updatedAt: _at, ...changes } = event.data;
      return { ...m, ...changes };
    }
    case 'MerchantSubmitted':
      return { ...m, state: 'SUBMITTED', submittedAt: m.submittedAt ?? event.data.submittedAt };
    case 'MerchantReviewStarted':
      return { ...m, state: 'REVIEWING' };
    case 'MerchantPrecheckApproved': {
      const at = event.data.envelopeSentAt;
      return {
        ...m,
        state: 'AWAITING_MERCHANT_SIGNATURE',
        esignEnvelope: { status: 'SENT', sentAt: at, lastStatusAt: at, reissueCount: 0 },
      };
    }
    case 'MerchantSignatureCompleted':
      return {
        ...m,
        state: 'UNDERWRITING',
        esignEnvelope: envelope('COMPLETED', event.data.signatureCompletedAt),
      };
    case 'MerchantSignatureDeclined':
      return {
        ...m,
        state: 'REJECTED',
        rejectionReasonCode: event.data.rejectionReasonCode,
        rejectionReason: event.data.rejectionReason,
        esignEnvelope: envelope('DECLINED', event.data.signatureDeclinedAt),
      };
    case 'MerchantUnderwritingPassed':
      return { ...m, state: 'APPROVED' };
    case 'MerchantUnderwritingFailed':
      return {
        ...m,
        state: 'REJECTED',
        rejectionReasonCode: event.data.rejectionReasonCode,
        rejectionReason: event.data.rejectionReason,
      };
    case 'MerchantClarificationRequested':
      return { ...m, state: 'AWAITING_CLARIFICATION', clarificationMessage: event.data.clarificationMessage };
    case 'MerchantClarificationResponded':
      return { ...m, state: 'REVIEWING', clarificationMessage: null };
    case 'MerchantResubmitted':
      return {
        ...m,
        state: 'REVIEWING',
        resubmissionCount: event.data.resubmissionCount,
        rejectionReasonCode: null,
        rejectionReason: null,
      };
    case 'MerchantEnvelopeResent': {
      const at = event.data.envelopeResentAt;
      return {
        ...m,
        esignEnvelope: {
          status: 'SENT',
          sentAt: at,
          lastStatusAt: at,
          reissueCount: event.data.reissueCount,
        },
      };
    }
    case 'MerchantProvisioningStarted':
      return { ...m, state: 'CONFIGURING', failedProvisioningStep: null };
    case 'MerchantProvisioningFailed':
      return { ...m, state: 'CONFIG_FAILED', failedProvisioningStep: event.data.step };
    case 'MerchantProvisioningRetried':
      return { ...m, state: 'CONFIGURING' };
    case 'MerchantProvisioned':
      return {
        ...m,
        state: 'ACTIVE',
        processorMids: event.data.processorMids.map((p) => ({ processor: p.processor, mid: p.mid })),
        gatewayMerchantId: event.data.gatewayMerchantId,
        failedProvisioningStep: null,
      };
    case 'MerchantWentLive':
      return { ...m, state: 'LIVE' };
    case 'MerchantSuspended':
      return {
        ...m,
        state: 'SUSPENDED',
        suspendedFrom: event.data.suspendedFrom,
        restrictionReason: event.data.reason,
      };
    case 'MerchantReactivated':
      return { ...m, state: event.data.restoredState, suspendedFrom: null, restrictionReason: null };
    case 'MerchantClosed':
      return {
        ...m,
        state: 'CLOSED',
        suspendedFrom: null,
        restrictionReason: event.data.reason ?? m.restrictionReason,
      };
  }
}

export const merchantEvolver = { initialState, evolve };
