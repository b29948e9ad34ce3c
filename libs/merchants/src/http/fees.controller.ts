import { runMerchantCommand } from './run-merchant-command';
import { CommandBus } from '@nestjs/cqrs';
import { Body, Controller, Get, Param, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { PartnerReader, enabledFeatures } from '../../../partners/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { MerchantReader } from '../application/merchant-reader';
import { feeEligibility, type FeeEligibility } from '../domain/fees/fee-eligibility';
import { initialFeesState, toFeeSettings } from '../domain/fees/fees';
import type { Merchant } from '../domain/merchant';
import { Describe } from '../../../platform/src/openapi/describe';
import { FeeEligibilitySchema } from '../domain/fees/fee-eligibility';
import { FeeSettingsSchema } from '../domain/fees/fees';
import {
  ConvenienceFeeRequestSchema,
  FeeProfileRequestSchema,
  SurchargeRequestSchema,
} from '../domain/fees/fee-validation';

/**
 * A merchant's fees (spec: fee-eligibility, fee-profile, fee-settings and its two programs);
 * bodies and rules in docs/fees.md. Bodies are validated by the domain (`domain/fees/`), which
 * names each field in a 400.
 */
@Controller('merchants/:merchantId')
export class FeesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
  ) {}

  @Get('fee-eligibility')
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'Whether the merchant may charge a surcharge or convenience fee, and why not',
    response: FeeEligibilitySchema,
  })
  async eligibility(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    return this.eligibilityOf(merchant);
  }

  @Get('fee-settings')
  @PartnerRoute('merchant:read')
  @Describe({ summary: 'The merchant’s fee profile and fee programs', response: FeeSettingsSchema })
  async settings(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toFeeSettings(merchant, merchant.fees ?? initialFeesState());
  }

  /** Creates (201) or replaces (200) the fee profile; answers the fee settings. */
  @Put('fee-profile')
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Create (201) or replace (200) the merchant’s fee profile',
    body: FeeProfileRequestSchema,
    response: FeeSettingsSchema,
    otherResponses: { 201: { description: 'The profile created', schema: FeeSettingsSchema } },
    errors: [409, 422],
  })
  async feeProfile(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const before = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const merchant = await this.run(request, caller, before, 'SetFeeProfile', body);
    void reply.status(before.fees?.feeProfile ? 200 : 201);
    return toFeeSettings(merchant, merchant.fees);
  }

  @Put('fee-settings/convenience-fee')
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Set the convenience-fee program',
    body: ConvenienceFeeRequestSchema,
    response: FeeSettingsSchema,
    errors: [409, 422],
  })
  async convenienceFee(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const before = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const merchant = await this.run(request, caller, before, 'SetConvenienceFee', body);
    return toFeeSettings(merchant, merchant.fees);
  }

  @Put('fee-settings/surcharge')
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Set the surcharge program (credit cards only)',
    body: SurchargeRequestSchema,
    response: FeeSettingsSchema,
    errors: [409, 422],
  })
  async surcharge(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const before = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const merchant = await this.run(request, caller, before, 'SetSurcharge', body);
    return toFeeSettings(merchant, merchant.fees);
  }

  private async eligibilityOf(merchant: Merchant): Promise<FeeEligibility> {
    const partner = await this.partners.get(merchant.partnerId);
    return feeEligibility({
      merchantId: merchant.id,
      merchantState: merchant.state,
      merchantCategoryCode: merchant.merchantCategoryCode,
      channel: merchant.channel,
      enabledFeatures: enabledFeatures(partner.configuration),
      usState: merchant.businessState ?? null,
      feeProfile: merchant.fees?.feeProfile ?? null,
    });
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    merchant: Merchant,
    type: 'SetFeeProfile' | 'SetConvenienceFee' | 'SetSurcharge',
    body: unknown,
  ): Promise<Merchant> {
    const eligibility = await this.eligibilityOf(merchant);
    const command = { type, merchantId: merchant.id, partnerId: caller.partnerId, body, eligibility };
    return runMerchantCommand(this.commands, request, caller.partnerId, command);
  }
}
