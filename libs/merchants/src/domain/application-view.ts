import { findMcc } from '../../../configuration/src/domain';
import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { Merchant } from './merchant';
import { HIPAA_BAA_STATUSES, MERCHANT_CHANNELS, MERCHANT_STATES } from './merchant-states';
import { BANK_VERIFICATION_STATUSES, MaskedBankAccountSchema } from './bank/bank-verification';

/**
 * `GET /merchants/{id}/application`: the onboarding application as the underwriters see its
 * sections 2 to 5 (section 1 is the partner's own agreement), with personal and bank data
 * masked: people's names show their initials, emails their first letter and domain, bank
 * numbers their last four digits. Full data never leaves the platform through this read.
 */
export const ApplicationViewSchema = z
  .strictObject({
    merchant_id: Uuid,
    state: z.enum(MERCHANT_STATES),
    submitted_at: Timestamp.nullable(),
    section_2_business: z.strictObject({
      business_name: z.string(),
      merchant_category_code: z.string(),
      merchant_category: z.string().nullable(),
      channel: z.enum(MERCHANT_CHANNELS),
      location_count: z.int().nullable(),
      business_state: z.string().nullable(),
    }),
    section_3_principals: z.strictObject({
      contact_name: z.string().meta({ description: 'Initials only: "J. R."' }),
      contact_email: z.string().meta({ description: 'First letter and domain: "o***@example.test"' }),
      authorized_signer_name: z.string().nullable(),
      authorized_signer_email: z.string().nullable(),
    }),
    section_4_processing: z.strictObject({
      hipaa_baa_status: z.enum(HIPAA_BAA_STATUSES),
      pci_saq_type: z.string().nullable(),
      pricing_model: z.string().nullable(),
    }),
    section_5_banking: MaskedBankAccountSchema.extend({
      verification_status: z.enum(BANK_VERIFICATION_STATUSES),
    }).nullable(),
  })
  .meta({ id: 'MerchantApplication' });

export function toApplicationView(merchant: Merchant): z.infer<typeof ApplicationViewSchema> {
  const bank = merchant.bank ?? null;
  return {
    merchant_id: merchant.id,
    state: merchant.state,
    submitted_at: merchant.submittedAt,
    section_2_business: {
      business_name: merchant.businessName,
      merchant_category_code: merchant.merchantCategoryCode,
      merchant_category: findMcc(merchant.merchantCategoryCode)?.label ?? null,
      channel: merchant.channel,
      location_count: merchant.locationCount,
      business_state: merchant.businessState ?? null,
    },
    section_3_principals: {
      contact_name: maskName(merchant.contactName),
      contact_email: maskEmail(merchant.contactEmail),
      authorized_signer_name: merchant.authorizedSignerName && maskName(merchant.authorizedSignerName),
      authorized_signer_email: merchant.authorizedSignerEmail && maskEmail(merchant.authorizedSignerEmail),
    },
    section_4_processing: {
      hipaa_baa_status: merchant.hipaaBaaStatus,
      pci_saq_type: merchant.pciSaqType,
      pricing_model: merchant.fees?.feeProfile?.pricingModel ?? null,
    },
    section_5_banking: bank && {
      account_holder_name: maskName(bank.accountHolderName),
      account_type: bank.accountType,
      routing_number: `*****${bank.routingLast4}`,
      account_number: `****${bank.accountLast4}`,
      verification_status: bank.status,
    },
  };
}

/** "Jamie Rivera" → "J. R." */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${[...part][0]}.`)
    .join(' ');
}

/** "owner@bluebottle.test" → "o***@bluebottle.test" */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${[...email][0]}***${email.slice(at)}`;
}
