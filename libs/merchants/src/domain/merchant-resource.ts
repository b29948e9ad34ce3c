import type { Merchant } from './merchant';
import type { EsignEnvelopeStatus, HipaaBaaStatus, MerchantChannel, MerchantState } from './merchant-states';

/** The spec's Merchant resource, field for field (snake_case, as on the wire). */
export interface MerchantResource {
  id: string;
  partner_id: string;
  business_name: string;
  contact_email: string;
  contact_name: string;
  authorized_signer_name: string | null;
  authorized_signer_email: string | null;
  merchant_category_code: string;
  state: MerchantState;
  channel: MerchantChannel;
  processor_mids: { processor: string; mid: string }[];
  gateway_merchant_id: string | null;
  location_count: number | null;
  /** Extension: USPS code of the business location (surcharge rules depend on it). */
  business_state: string | null;
  hipaa_baa_status: HipaaBaaStatus;
  pci_saq_type: string | null;
  clarification_message: string | null;
  rejection_reason_code: string | null;
  rejection_reason: string | null;
  esign_envelope: {
    status: EsignEnvelopeStatus;
    sent_at: string;
    last_status_at: string;
    reissue_count: number;
  } | null;
  restriction_reason: string | null;
  resubmission_count: number;
  resubmission_limit: number;
  submitted_at: string | null;
  created_at: string;
  version: number;
}

/** The spec's list form of a merchant (`GET /merchants`). */
export type MerchantListItem = Pick<
  MerchantResource,
  | 'id'
  | 'partner_id'
  | 'business_name'
  | 'contact_email'
  | 'contact_name'
  | 'state'
  | 'merchant_category_code'
  | 'channel'
  | 'processor_mids'
  | 'gateway_merchant_id'
  | 'location_count'
  | 'resubmission_count'
  | 'resubmission_limit'
  | 'created_at'
  | 'version'
>;

export function toMerchantResource(m: Merchant): MerchantResource {
  return {
    id: m.id,
    partner_id: m.partnerId,
    business_name: m.businessName,
    contact_email: m.contactEmail,
    contact_name: m.contactName,
    authorized_signer_name: m.authorizedSignerName,
    authorized_signer_email: m.authorizedSignerEmail,
    merchant_category_code: m.merchantCategoryCode,
    state: m.state,
    channel: m.channel,
    processor_mids: m.processorMids.map(({ processor, mid }) => ({ processor, mid })),
    gateway_merchant_id: m.gatewayMerchantId,
    location_count: m.locationCount,
    business_state: m.businessState ?? null,
    hipaa_baa_status: m.hipaaBaaStatus,
    pci_saq_type: m.pciSaqType,
    clarification_message: m.clarificationMessage,
    rejection_reason_code: m.rejectionReasonCode,
    rejection_reason: m.rejectionReason,
    esign_envelope: m.esignEnvelope && {
      status: m.esignEnvelope.status,
      sent_at: m.esignEnvelope.sentAt,
      last_status_at: m.esignEnvelope.lastStatusAt,
      reissue_count: m.esignEnvelope.reissueCount,
    },
    restriction_reason: m.restrictionReason,
    resubmission_count: m.resubmissionCount,
    resubmission_limit: m.resubmissionLimit,
    submitted_at: m.submittedAt,
    created_at: m.createdAt,
    version: m.version,
  };
}

export function toMerchantListItem(m: Merchant): MerchantListItem {
  return {
    id: m.id,
    partner_id: m.partnerId,
    business_name: m.businessName,
    contact_email: m.contactEmail,
    contact_name: m.contactName,
    state: m.state,
    merchant_category_code: m.merchantCategoryCode,
    channel: m.channel,
    processor_mids: m.processorMids.map(({ processor, mid }) => ({ processor, mid })),
    gateway_merchant_id: m.gatewayMerchantId,
    location_count: m.locationCount,
    resubmission_count: m.resubmissionCount,
    resubmission_limit: m.resubmissionLimit,
    created_at: m.createdAt,
    version: m.version,
  };
}
