import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { Merchant } from './merchant';
import {
  ESIGN_ENVELOPE_STATUSES,
  HIPAA_BAA_STATUSES,
  MERCHANT_CHANNELS,
  MERCHANT_STATES,
} from './merchant-states';

const text = z.string().nullable();

/** The spec's Merchant resource, field for field (snake_case, as on the wire). */
export const MerchantResourceSchema = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    business_name: z.string(),
    contact_email: z.string(),
    contact_name: z.string(),
    authorized_signer_name: text,
    authorized_signer_email: text,
    merchant_category_code: z.string().regex(/^[0-9]{4}$/),
    state: z.enum(MERCHANT_STATES),
    channel: z.enum(MERCHANT_CHANNELS),
    processor_mids: z.array(z.strictObject({ processor: z.string(), mid: z.string() })),
    gateway_merchant_id: text,
    location_count: z.int().nullable(),
    business_state: text.meta({
      description: 'Extension: USPS code of the business location (surcharge rules depend on it).',
    }),
    hipaa_baa_status: z.enum(HIPAA_BAA_STATUSES),
    pci_saq_type: text,
    clarification_message: text,
    rejection_reason_code: text.meta({
      description: '`REJ_001`…; `REJ_008`: envelope declined or abandoned.',
    }),
    rejection_reason: text,
    esign_envelope: z
      .strictObject({
        status: z.enum(ESIGN_ENVELOPE_STATUSES),
        sent_at: Timestamp,
        last_status_at: Timestamp,
        reissue_count: z.int().min(0),
      })
      .nullable(),
    restriction_reason: text,
    resubmission_count: z.int().min(0),
    resubmission_limit: z.int().min(0),
    submitted_at: Timestamp.nullable(),
    created_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'Merchant' });

export type MerchantResource = z.infer<typeof MerchantResourceSchema>;

/** The spec's list form of a merchant (`GET /merchants`). */
export const MerchantListItemSchema = MerchantResourceSchema.pick({
  id: true,
  partner_id: true,
  business_name: true,
  contact_email: true,
  contact_name: true,
  state: true,
  merchant_category_code: true,
  channel: true,
  processor_mids: true,
  gateway_merchant_id: true,
  location_count: true,
  resubmission_count: true,
  resubmission_limit: true,
  created_at: true,
  version: true,
}).meta({ id: 'MerchantListItem' });

export type MerchantListItem = z.infer<typeof MerchantListItemSchema>;

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
