import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { RunMerchantCommand } from '../application/merchant-commands';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { IsString } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { PartnerReader } from '../../../partners/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { MerchantReader } from '../application/merchant-reader';
import { isSaqType, SAQ_TYPES } from '../domain/compliance/saq-types';
import { toApplicationView } from '../domain/application-view';
import { toGoLiveGateResource } from '../domain/go-live-gate';
import { toMerchantResource } from '../domain/merchant-resource';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import { ApplicationViewSchema } from '../domain/application-view';
import { SaqTypeSchema } from '../domain/compliance/saq-types';
import { GoLiveGateSchema } from '../domain/go-live-gate';
import { MerchantResourceSchema } from '../domain/merchant-resource';

class SaqTypeDto {
  @IsString()
  saq_type!: string;
}

/** Onboarding compliance: PCI SAQ types and the go-live gate. */
@Controller()
export class MerchantComplianceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('onboarding/saq-types')
  @PartnerRoute('merchant:read')
  @Describe({ summary: 'The PCI self-assessment questionnaire types', response: z.array(SaqTypeSchema) })
  saqTypes(@Query() query: Record<string, unknown>) {
    strictQuery(query, {}, { paged: false });
    return SAQ_TYPES;
  }

  /** Records the merchant's PCI SAQ type (`pci_saq_type`); 200 with the merchant. */
  @Post('merchants/:merchantId/compliance/saq-type')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({ summary: 'Record the merchant’s SAQ type', response: MerchantResourceSchema, errors: [409] })
  async recordSaqType(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: SaqTypeDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    if (!isSaqType(body.saq_type)) {
      throw validationProblem([
        { field: 'saq_type', message: `must be one of ${SAQ_TYPES.map((t) => t.code).join(', ')}` },
      ]);
    }
    const result = await this.commands.execute(
      new RunMerchantCommand(
        { type: 'RecordMerchantSaqType', merchantId, saqType: body.saq_type },
        metadataOf(request, caller.partnerId),
      ),
    );
    return toMerchantResource(result.state);
  }

  /** Sections 2 to 5 of the onboarding application, personal and bank data masked. */
  @Get('merchants/:merchantId/application')
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'The onboarding application, sections 2 to 5, personal and bank data masked',
    response: ApplicationViewSchema,
  })
  async application(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    return toApplicationView(await this.merchants.getForPartner(merchantId, caller.partnerId));
  }

  /** Every go-live check with pass or fail (the operator's `go_live` needs them all). */
  @Get('merchants/:merchantId/go-live-gate')
  @PartnerRoute('merchant:read')
  @Describe({ summary: 'What must hold before go-live, check by check', response: GoLiveGateSchema })
  async goLiveGate(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const partner = await this.partners.get(caller.partnerId);
    return toGoLiveGateResource(merchant, {
      environment: this.config.appEnv,
      partnerCertificationStatus: partner.certificationStatus,
    });
  }
}
