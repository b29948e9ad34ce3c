import { Injectable } from '@nestjs/common';
import { PartnerReader, enabledFeatures, type Partner } from '../../../partners/src';
import { feeEligibility } from '../domain/fees/fee-eligibility';
import { priceTransaction, type PricingInput, type TransactionPrice } from '../domain/fees/fee-pricing';
import type { Merchant } from '../domain/merchant';

/**
 * Prices a cardholder-initiated payment from the merchant's fee settings and its current
 * eligibility (feature flags, merchant state, fee profile), the same way for a hosted page and for
 * `POST /transactions`, so the two can never disagree on a surcharge.
 */
@Injectable()
export class MerchantPricing {
  constructor(private readonly partners: PartnerReader) {}

  async price(
    merchant: Merchant,
    input: Omit<PricingInput, 'eligibility'>,
    /** The merchant's partner, when the caller has it already. */
    partner?: Partner,
  ): Promise<TransactionPrice> {
    partner ??= await this.partners.getCached(merchant.partnerId);
    const eligibility = feeEligibility({
      merchantId: merchant.id,
      merchantState: merchant.state,
      merchantCategoryCode: merchant.merchantCategoryCode,
      channel: merchant.channel,
      enabledFeatures: enabledFeatures(partner.configuration),
      usState: merchant.businessState ?? null,
      feeProfile: merchant.fees?.feeProfile ?? null,
    });
    return priceTransaction(merchant.fees, { ...input, eligibility });
  }
}
