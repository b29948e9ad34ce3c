import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, idFor } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { analyseRegexes } from '../../../platform/src/validation/safe-regex';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { RunMerchantCommand, type MerchantCommandInput } from '../application/merchant-commands';
import { MerchantReader } from '../application/merchant-reader';
import { regExPatternsToAnalyse } from '../domain/custom-fields/custom-field-definition';
import { toCustomFieldConfiguration } from '../domain/custom-fields/custom-fields-decide';
import type { Merchant } from '../domain/merchant';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import { CustomFieldConfigurationSchema } from '../domain/custom-fields/custom-fields-decide';

/** `fields` replaces the whole set; absent, null or `[]` clears it. Validated by the domain. */
class CustomFieldsDto {
  @IsOptional()
  fields?: unknown;
}

/**
 * Custom-field configuration per merchant (spec "Configuration"; scopes
 * `custom_fields:config:read` / `:write`; the `custom_fields` flag). The merchant must be the
 * partner's own: any other id is 404 `merchant_not_found`.
 *
 * Provisioning: each new version is registered with the gateway. The sandbox gateway accepts it
 * in the same request, recorded as its own event (`CustomFieldsProvisioned`, actor
 * `system:gateway`), so the answer shows `provisioning.status` PROVISIONED (UNPROVISIONED after
 * a clear) with `provisioned_version` equal to `version`.
 */
@RequiresFeature('custom_fields')
@Controller('config/custom-fields')
export class CustomFieldsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
  ) {}

  @Get('merchants/:merchantId')
  @PartnerRoute('custom_fields:config:read')
  @Describe({ summary: 'A merchant’s custom-field configuration', response: CustomFieldConfigurationSchema })
  async read(@Param('merchantId', UuidParam) merchantId: string, @CurrentPartner() caller: PartnerPrincipal) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toCustomFieldConfiguration(merchant, merchant.customFields);
  }

  @Put('merchants/:merchantId')
  @PartnerRoute('custom_fields:config:write')
  @Describe({
    summary: 'Replace a merchant’s custom fields (at most 10; empty or absent `fields` clears them)',
    response: CustomFieldConfigurationSchema,
    errors: [409, 422],
  })
  async configure(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: CustomFieldsDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    // Proven linear before deciding; the analysis runs outside the event loop (safe-regex.ts).
    const regExVerdicts = await analyseRegexes(regExPatternsToAnalyse(body.fields));
    const merchant = await this.run(request, caller, merchantId, {
      type: 'ConfigureCustomFields',
      merchantId,
      partnerId: caller.partnerId,
      fields: body.fields,
      regExVerdicts,
    });
    return toCustomFieldConfiguration(merchant, merchant.customFields);
  }

  /** 204 with an empty body. */
  @Delete('merchants/:merchantId')
  @HttpCode(204)
  @PartnerRoute('custom_fields:config:write')
  @Describe({ summary: 'Clear a merchant’s custom fields', response: null })
  async clear(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.run(request, caller, merchantId, {
      type: 'ClearCustomFields',
      merchantId,
      partnerId: caller.partnerId,
    });
  }

  /** Every configured merchant of the partner (never-configured merchants are not listed). */
  @Get('configs')
  @PartnerRoute('custom_fields:config:read')
  @Describe({
    summary: 'Every custom-field configuration of the partner’s merchants',
    response: z.array(CustomFieldConfigurationSchema),
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    strictQuery(query, {}, { paged: false });
    const { rows } = await this.pool.query<{ snapshot: Merchant }>(
      `select snapshot from merchant_list
        where partner_id = $1 and coalesce((snapshot->'customFields'->>'configVersion')::int, 0) > 0
        order by created_position`,
      [caller.partnerId],
    );
    return rows.map(({ snapshot }) => toCustomFieldConfiguration(snapshot, snapshot.customFields));
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    merchantId: string,
    command: MerchantCommandInput,
  ): Promise<Merchant> {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    const metadata = metadataOf(request, caller.partnerId);
    const { state: merchant } = await this.commands.execute(new RunMerchantCommand(command, metadata));
    const { configVersion, provisioning } = merchant.customFields;
    if (provisioning.provisionedVersion === configVersion) return merchant;
    // The sandbox gateway takes the new version at once (a real one would answer later).
    const provisioned = await this.commands.execute(
      new RunMerchantCommand(
        { type: 'MarkCustomFieldsProvisioned', merchantId, version: configVersion },
        {
          ...metadata,
          actor: 'system:gateway',
          causation_id: idFor(request.commandId, 'custom-fields-provisioning', randomUUID),
        },
      ),
    );
    return provisioned.state;
  }
}
