import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Param, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CurrentPartner, idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { ProjectionRunner } from '../../../projections/src';
import { RunPartnerCommand } from '../application/partner-commands';
import { PartnerReader } from '../application/partner-reader';
import { allFeatureFlagViews, toFeatureFlagSetting, toPartnerConfiguration } from '../domain/configuration';
import { PartnerNotFound } from '../domain/partner-errors';
import { checkFlagName } from './flag-name';
import { PartnerFeatureFlagDto } from './partner.dto';
import { Refused } from './refused.decorator';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import {
  FeatureFlagSettingResource,
  FeatureFlagViewResource,
  PartnerConfigurationResource,
} from '../domain/configuration';

const OPERATOR_MANAGED = 'is managed by the platform operator and cannot be changed by a partner';

class HppSettingsDto {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  accepted_methods?: string[] | null;

  @Refused(OPERATOR_MANAGED)
  gateway_hpp_page_id?: unknown;
}

/** `PUT /config/partners/{id}`: every field nullable; null or omitted means unchanged. */
class PartnerSettingsDto {
  @IsOptional()
  @IsString()
  webhook_url?: string | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  ip_allowlist?: string[] | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => HppSettingsDto)
  hpp_settings?: HppSettingsDto | null;

  @Refused(OPERATOR_MANAGED)
  rate_limit_tier?: unknown;

  @Refused(OPERATOR_MANAGED)
  avs_decline_policy?: unknown;

  @Refused('is set by the platform')
  api_version?: unknown;
}

/** Partner configuration and feature flags ("Configuration" in the spec). */
@Controller('config')
export class PartnerConfigController {
  constructor(
    private readonly commands: CommandBus,
    private readonly partners: PartnerReader,
    private readonly projections: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('feature-flags/me')
  @PartnerRoute('config:read')
  @Describe({
    summary: 'Every feature flag and whether it is on for the partner',
    response: z.array(FeatureFlagViewResource),
  })
  async featureFlags(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    strictQuery(query, {}, { paged: false });
    return allFeatureFlagViews((await this.partners.get(caller.partnerId)).configuration);
  }

  @Put('feature-flags/me/:flagName')
  @HttpCode(200)
  @PartnerRoute('config:write')
  @Describe({
    summary: 'Turn a feature flag on or off',
    response: FeatureFlagSettingResource,
    errors: [404, 409],
  })
  async setFeatureFlag(
    @Param('flagName') flagName: string,
    @Body() body: PartnerFeatureFlagDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    checkFlagName(flagName);
    const result = await this.commands.execute(
      new RunPartnerCommand(
        {
          type: 'SetFeatureFlag',
          partnerId: caller.partnerId,
          flagName,
          enabled: body.enabled,
          by: 'partner',
          actor: `partner-key:${caller.keyPrefix}`,
          // Used only if enabling the flag asks a certified partner to re-certify (decide.ts).
          recertificationRequestId: idFor(request.commandId, 'recertification-request', randomUUID),
        },
        metadataOf(request),
      ),
    );
    // The guard reads enabled features from a read model: the next request must see the change.
    if (result.position !== null) await this.projections.waitFor(result.position, ['partner-access']);
    return toFeatureFlagSetting(caller.partnerId, flagName, result.state.configuration, result.state.version);
  }

  @Get('partners/:partnerId')
  @PartnerRoute('config:read')
  @Describe({
    summary: 'The partner configuration (the caller’s own id only)',
    response: PartnerConfigurationResource,
  })
  async partnerConfiguration(
    @Param('partnerId', UuidParam) partnerId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    if (partnerId !== caller.partnerId) throw new PartnerNotFound(partnerId);
    const partner = await this.partners.get(partnerId);
    return toPartnerConfiguration(partner, partner.configuration);
  }

  @Put('partners/:partnerId')
  @HttpCode(200)
  @PartnerRoute('config:write')
  @Describe({
    summary: 'Change the partner’s self-service settings',
    description: 'Every field is optional; null or omitted means unchanged. `webhook_url: ""` clears it.',
    response: PartnerConfigurationResource,
  })
  async updatePartnerConfiguration(
    @Param('partnerId', UuidParam) partnerId: string,
    @Body() body: PartnerSettingsDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    if (partnerId !== caller.partnerId) throw new PartnerNotFound(partnerId);
    const result = await this.commands.execute(
      new RunPartnerCommand(
        {
          type: 'UpdatePartnerSettings',
          partnerId,
          webhookUrl: body.webhook_url,
          ipAllowlist: body.ip_allowlist,
          acceptedMethods: body.hpp_settings?.accepted_methods,
          environment: this.config.appEnv,
          // The socket's peer, as the IP allow-list guard sees it (no proxy header is trusted).
          callerAddress: request.ip,
        },
        metadataOf(request),
      ),
    );
    // The IP allow-list is enforced from a read model: it applies from the next request on.
    if (result.position !== null) await this.projections.waitFor(result.position, ['partner-access']);
    return toPartnerConfiguration(result.state, result.state.configuration);
  }
}
