import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsArray, IsBoolean, IsObject, IsOptional } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CurrentPartner, idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { RunPartnerCommand, PartnerReader } from '../../../partners/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import {
  runMerchantCommand,
  type MerchantCommandInput,
  MerchantReader,
  type Merchant,
} from '../../../merchants/src';
import {
  type HppPageConfigState,
  effectiveHppPageConfiguration,
  partnerTemplateConfiguration,
  hppPageConfigurationList,
  toHppPageConfiguration,
  HppPageConfigNotFound,
} from '../../../page-config/src';
import { RaisesBodyLimits } from '../../../platform/src/http/content-type';
import { LOGO_DATA_URL_MAX_LENGTH } from '../../../page-config/src';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import {
  EffectiveHppPageConfigurationSchema,
  EmbeddingDomainsSchema,
  HppPageConfigurationSchema,
} from '../../../page-config/src';

/** The three page writes: the whole appearance (missing keys from its preset), and `is_active`. */
class HppPageConfigDto {
  @IsObject({ message: 'must be an object' })
  appearance!: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}

class EmbeddingDomainsDto {
  @IsArray({ message: 'must be an array of host names' })
  domains!: unknown[];
}

/**
 * Hosted-payment-page configuration (spec "Configuration"): the partner's template, each
 * merchant's override, the effective configuration the page renders with, and the iframe
 * embedding allow-list. Gated by the `hosted_payment_pages` flag.
 */
/** `merchant_id`: that merchant's effective configuration; without it, the partner level. */
const EFFECTIVE_QUERY = { merchant_id: queryParam.uuid() };

@RequiresFeature('hosted_payment_pages')
@Controller('config/hpp-page')
export class HppPageConfigController {
  constructor(
    private readonly commands: CommandBus,
    private readonly partners: PartnerReader,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `merchant_id`: that merchant's effective configuration; without it, the partner level. */
  @Get()
  @PartnerRoute('config:read')
  @Describe({
    summary: 'The effective hosted-page configuration of a merchant, or the partner’s template',
    response: EffectiveHppPageConfigurationSchema,
    query: EFFECTIVE_QUERY,
    errors: [404],
  })
  async effective(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const { merchant_id: merchantId } = strictQuery(query, EFFECTIVE_QUERY, { paged: false });
    const partner = await this.partners.get(caller.partnerId);
    if (merchantId === undefined) {
      return partnerTemplateConfiguration(partner.hppTemplate, partner.id);
    }
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    return effectiveHppPageConfiguration(partner.hppTemplate, merchant.hppPage, merchant.id, partner.id);
  }

  /** Replaces the partner-level template. */
  @Put()
  @RaisesBodyLimits({ maxStringLength: LOGO_DATA_URL_MAX_LENGTH })
  @PartnerRoute('config:write')
  @Describe({ summary: 'Replace the partner’s hosted-page template', response: HppPageConfigurationSchema })
  async setTemplate(
    @Body() body: HppPageConfigDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const result = await this.commands.execute(
      new RunPartnerCommand(
        {
          type: 'SetHppTemplate',
          partnerId: caller.partnerId,
          configId: idFor(request.commandId, 'hpp-page-template', randomUUID),
          appearance: body.appearance,
          isActive: body.is_active ?? null,
        },
        metadataOf(request),
      ),
    );
    return toHppPageConfiguration(result.state.hppTemplate.template!, null);
  }

  /** Every stored configuration of the partner, active or not: the template, then the overrides. */
  @Get('configs')
  @PartnerRoute('config:read')
  @Describe({
    summary: 'Every stored hosted-page configuration of the partner (template first)',
    response: z.array(HppPageConfigurationSchema),
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    strictQuery(query, {}, { paged: false });
    const partner = await this.partners.get(caller.partnerId);
    const { rows } = await this.pool.query<{ id: string; override: HppPageConfigState }>(
      `select id, snapshot->'hppPage'->'override' as override from merchant_list
        where partner_id = $1 and jsonb_typeof(snapshot->'hppPage'->'override') = 'object'
        order by created_position`,
      [caller.partnerId],
    );
    return hppPageConfigurationList(
      partner.hppTemplate,
      rows.map((row) => ({ merchantId: row.id, override: row.override })),
    );
  }

  @Put('merchants/:merchantId')
  @RaisesBodyLimits({ maxStringLength: LOGO_DATA_URL_MAX_LENGTH })
  @PartnerRoute('config:write')
  @Describe({ summary: 'Set a merchant’s hosted-page override', response: HppPageConfigurationSchema })
  async setOverride(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: HppPageConfigDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchant = await this.run(request, caller, merchantId, {
      type: 'SetHppOverride',
      merchantId,
      partnerId: caller.partnerId,
      configId: idFor(request.commandId, 'hpp-page-override', randomUUID),
      appearance: body.appearance,
      isActive: body.is_active ?? null,
    });
    return toHppPageConfiguration(merchant.hppPage.override!, merchant.id);
  }

  /** 204; the merchant's page falls back to the template (or the defaults). */
  @Delete('merchants/:merchantId')
  @HttpCode(204)
  @PartnerRoute('config:write')
  @Describe({ summary: 'Delete a merchant’s hosted-page override', response: null })
  async deleteOverride(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    if (!merchant.hppPage?.override) throw new HppPageConfigNotFound(merchantId);
    await this.run(request, caller, merchantId, {
      type: 'DeleteHppOverride',
      merchantId,
      partnerId: caller.partnerId,
    });
  }

  /** Replaces the iframe embedding allow-list (`Content-Security-Policy: frame-ancestors`). */
  @Put('merchants/:merchantId/embedding-domains')
  @PartnerRoute('config:write')
  @Describe({ summary: 'Replace a merchant’s iframe embedding allow-list', response: EmbeddingDomainsSchema })
  async replaceDomains(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: EmbeddingDomainsDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchant = await this.run(request, caller, merchantId, {
      type: 'ReplaceEmbeddingDomains',
      merchantId,
      partnerId: caller.partnerId,
      domains: body.domains,
      environment: this.config.appEnv,
    });
    return { merchant_id: merchant.id, embedding_domains: merchant.hppPage.embeddingDomains };
  }

  @Post('merchants/:merchantId/embedding-domains/add')
  @HttpCode(200)
  @PartnerRoute('config:write')
  @Describe({ summary: 'Add to a merchant’s iframe embedding allow-list', response: EmbeddingDomainsSchema })
  async addDomains(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: EmbeddingDomainsDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchant = await this.run(request, caller, merchantId, {
      type: 'AddEmbeddingDomains',
      merchantId,
      partnerId: caller.partnerId,
      domains: body.domains,
      environment: this.config.appEnv,
    });
    return { merchant_id: merchant.id, embedding_domains: merchant.hppPage.embeddingDomains };
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    merchantId: string,
    command: MerchantCommandInput,
  ): Promise<Merchant> {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return runMerchantCommand(this.commands, request, caller.partnerId, command);
  }
}
