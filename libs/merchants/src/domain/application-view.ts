import { findMcc } from '../../../configuration/src/domain';
import type { Merchant } from './merchant';

/**
 * `GET /merchants/{id}/application`: the onboarding application as the underwriters see its
 * sections 2 to 5 (section 1 is the partner's own agreement), with personal and bank data
 * masked: people's names show their initials, emails their first letter and domain, bank
 * numbers their last four digits. Full data never leaves the platform through this read.
 */
export function toApplicationView(merchant: Merchant) {
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
