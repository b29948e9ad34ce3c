import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { ALL_PARTNER_SCOPES } from '../../../platform/src/auth/scopes';
import { generateKey } from '../../../platform/src/auth/secret-key';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { ProjectionRunner } from '../../../projections/src';
import {
  RunPartnerCommand,
  type PartnerCommandInput,
  type PartnerResult,
} from '../application/partner-commands';
import { PartnerReader } from '../application/partner-reader';
import {
  activeKeys,
  toApiKeyResource,
  toCapabilities,
  toPartnerResource,
} from '../application/partner-resources';
import { toFeatureFlagSetting, toPartnerConfiguration } from '../domain/configuration';
import { ApiKeyNotFound } from '../domain/partner-errors';
import type { Partner } from '../domain/partner';
import {
  CreatePartnerDto,
  IssueApiKeyDto,
  OperatorConfigDto,
  OperatorFeatureFlagDto,
  SetCertificationDto,
} from './partner.dto';
import { checkFlagName } from './flag-name';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import { listOf, pageOf } from '../../../platform/src/openapi/wire-schemas';
import {
  ApiKeyResource,
  CapabilitiesResource,
  PartnerListItemResource,
  PartnerResource,
} from '../application/partner-resources';
import { FeatureFlagSettingResource, PartnerConfigurationResource } from '../domain/configuration';

/**
 * The operator tier for partners (CONTRACT §2): create and list partners, issue, rotate and
 * delete their API keys, certify them, and set the operator-managed configuration.
 */
@OperatorRoute()
@Controller('platform/partners')
export class PlatformPartnersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly partners: PartnerReader,
    private readonly projections: ProjectionRunner,
    private readonly pool: Pool,
    private readonly cursors: CursorCodec,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post()
  @Describe({ summary: 'Create a partner', response: PartnerResource })
  async create(@Body() body: CreatePartnerDto, @Req() request: FastifyRequest) {
    const partnerId = idFor(request.commandId, 'partner', randomUUID);
    const result = await this.run(request, partnerId, {
      type: 'CreatePartner',
      partnerId,
      name: body.name,
      contactEmail: body.contact_email,
      contactName: body.contact_name,
      dba: body.dba ?? null,
      partnerType: body.partner_type,
      businessAddress: body.business_address ? { ...body.business_address } : null,
    });
    return toPartnerResource(result.state, this.config.appEnv, 0);
  }

  /** Every partner, newest first (the partner-list read model). */
  @Get()
  @Describe({
    summary: 'Every partner, newest first',
    response: pageOf(PartnerListItemResource),
    paged: true,
  })
  async list(@Query() query: Record<string, unknown>) {
    strictQuery(query, {}); // no filters: only cursor and page_size
    const page = pageRequest(query, this.cursors, 'platform-partners', 'platform');
    const params: unknown[] = [page.pageSize + 1];
    const after = page.after === null ? '' : 'where created_position < $2';
    if (page.after !== null) params.push(page.after);
    const [{ rows }, total] = await Promise.all([
      this.pool.query<PartnerListRow>(
        `select id, name, contact_email, state, certification_status, rate_limit_tier, created_at,
                created_position::text as position_key, revision::text
           from partner_list ${after} order by partner_list.created_position desc limit $1`,
        params,
      ),
      this.pool.query<{ count: string }>('select count(*)::text as count from partner_list'),
    ]);
    return toPage(
      rows,
      page,
      Number(total.rows[0].count),
      (row) => row.position_key,
      (row): z.infer<typeof PartnerListItemResource> => ({
        id: row.id,
        name: row.name,
        contact_email: row.contact_email,
        state: row.state,
        certification_status: row.certification_status,
        rate_limit_tier: row.rate_limit_tier,
        created_at: row.created_at.toISOString(),
        version: Number(row.revision) + 1,
      }),
      (key) => this.cursors.encode('platform-partners', 'platform', key),
    );
  }

  @Get(':partnerId')
  @Describe({ summary: 'Read a partner', response: PartnerResource })
  async read(@Param('partnerId', UuidParam) partnerId: string) {
    const partner = await this.partners.get(partnerId);
    return toPartnerResource(partner, this.config.appEnv, await this.partners.liveMerchantCount(partnerId));
  }

  /** The partner's active keys, all at once (a partner has few): no parameters, no pages. */
  @Get(':partnerId/api-keys')
  @Describe({ summary: 'The partner’s active API keys (prefixes only)', response: listOf(ApiKeyResource) })
  async listKeys(@Param('partnerId', UuidParam) partnerId: string, @Query() query: Record<string, unknown>) {
    strictQuery(query, {}, { paged: false });
    const partner = await this.partners.get(partnerId);
    return { data: activeKeys(partner).map((k) => toApiKeyResource(k)) };
  }

  /** 201 with `api_key`, shown here and never again. */
  @Post(':partnerId/api-keys')
  @Describe({
    summary: 'Issue an API key',
    description:
      '`api_key` is in this answer only; the platform keeps its hash. Scopes default to every partner scope.',
    response: ApiKeyResource,
  })
  async issueKey(
    @Param('partnerId', UuidParam) partnerId: string,
    @Body() body: IssueApiKeyDto,
    @Req() request: FastifyRequest,
  ) {
    const keyId = idFor(request.commandId, 'api-key', randomUUID);
    const fresh = generateKey('csk');
    const result = await this.run(request, partnerId, {
      type: 'IssueApiKey',
      partnerId,
      keyId,
      prefix: fresh.prefix,
      keyHash: fresh.hash,
      scopes: body.scopes ?? [...ALL_PARTNER_SCOPES],
    });
    if (result.alreadyApplied) return this.reissueLostSecret(request, partnerId, keyId);
    return toApiKeyResource(result.state.apiKeys[keyId], fresh.key);
  }

  /** 201 with the new `api_key`; the old one answers 401 from then on. */
  @Post(':partnerId/api-keys/:keyId/rotate')
  @Describe({
    summary: 'Rotate an API key',
    description: 'The new `api_key` is shown once; the old key answers 401 from then on.',
    response: ApiKeyResource,
  })
  async rotateKey(
    @Param('partnerId', UuidParam) partnerId: string,
    @Param('keyId', UuidParam) keyId: string,
    @Req() request: FastifyRequest,
  ) {
    const fresh = generateKey('csk');
    const result = await this.run(request, partnerId, {
      type: 'RotateApiKey',
      partnerId,
      keyId,
      prefix: fresh.prefix,
      keyHash: fresh.hash,
    });
    if (result.alreadyApplied) return this.reissueLostSecret(request, partnerId, keyId);
    return toApiKeyResource(result.state.apiKeys[keyId], fresh.key);
  }

  @Delete(':partnerId/api-keys/:keyId')
  @HttpCode(204)
  @Describe({ summary: 'Delete an API key (it answers 401 afterwards)', response: null })
  async deleteKey(
    @Param('partnerId', UuidParam) partnerId: string,
    @Param('keyId', UuidParam) keyId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.run(request, partnerId, { type: 'RevokeApiKey', partnerId, keyId });
  }

  @Put(':partnerId/certification')
  @Describe({ summary: 'Set the partner’s certification status', response: CapabilitiesResource })
  @HttpCode(200)
  async certification(
    @Param('partnerId', UuidParam) partnerId: string,
    @Body() body: SetCertificationDto,
    @Req() request: FastifyRequest,
  ) {
    const result = await this.run(request, partnerId, {
      type: 'SetCertificationStatus',
      partnerId,
      status: body.status,
    });
    return toCapabilities(result.state);
  }

  @Put(':partnerId/feature-flags/:flagName')
  @Describe({
    summary: 'Set a feature flag for a partner',
    response: FeatureFlagSettingResource,
    errors: [409],
  })
  @HttpCode(200)
  async featureFlag(
    @Param('partnerId', UuidParam) partnerId: string,
    @Param('flagName') flagName: string,
    @Body() body: OperatorFeatureFlagDto,
    @Req() request: FastifyRequest,
  ) {
    checkFlagName(flagName);
    const result = await this.run(request, partnerId, {
      type: 'SetFeatureFlag',
      partnerId,
      flagName,
      enabled: body.enabled,
      globallyAvailable: body.globally_available,
      by: 'operator',
      actor: 'platform-operator',
      recertificationRequestId: idFor(request.commandId, 'recertification-request', randomUUID),
    });
    return toFeatureFlagSetting(partnerId, flagName, result.state.configuration, result.state.version);
  }

  /** The partner configuration as the partner sees it, `ip_allowlist` included. */
  @Get(':partnerId/config')
  @Describe({ summary: 'A partner’s configuration', response: PartnerConfigurationResource })
  async readConfig(
    @Param('partnerId', UuidParam) partnerId: string,
    @Query() query: Record<string, unknown>,
  ) {
    strictQuery(query, {}, { paged: false });
    const partner = await this.partners.get(partnerId);
    return toPartnerConfiguration(partner, partner.configuration);
  }

  /**
   * Operator-managed settings, and the partner's `ip_allowlist` (`[]` lifts it): the way back for
   * a partner whose addresses changed. The guard reads the list from a read model, so the answer
   * waits until the next request sees it (run waits for every read model).
   */
  @Patch(':partnerId/config')
  @Describe({
    summary: 'Change operator-managed settings (rate-limit tier, AVS policy, IP allow-list)',
    response: PartnerConfigurationResource,
  })
  async changeConfig(
    @Param('partnerId', UuidParam) partnerId: string,
    @Body() body: OperatorConfigDto,
    @Req() request: FastifyRequest,
  ) {
    const result = await this.run(request, partnerId, {
      type: 'ChangePartnerConfig',
      partnerId,
      rateLimitTier: body.rate_limit_tier,
      avsDeclinePolicy: body.avs_decline_policy,
      ipAllowlist: body.ip_allowlist,
    });
    return toPartnerConfiguration(result.state, result.state.configuration);
  }

  /**
   * An earlier run of this request issued (or rotated) the key and then failed before its answer
   * was stored, so that secret never reached anyone: replace it, and show the replacement.
   */
  private async reissueLostSecret(request: FastifyRequest, partnerId: string, keyId: string) {
    const fresh = generateKey('csk');
    const result = await this.run(
      request,
      partnerId,
      { type: 'RotateApiKey', partnerId, keyId, prefix: fresh.prefix, keyHash: fresh.hash },
      randomUUID(),
    );
    const key = result.state.apiKeys[keyId];
    if (!key) throw new ApiKeyNotFound(keyId);
    return toApiKeyResource(key, fresh.key);
  }

  /**
   * Runs a partner command with the request's metadata, then waits until the read models have
   * it, so the partner list shows the partner and a new key works on the very next request.
   */
  private async run(
    request: FastifyRequest,
    partnerId: string,
    command: PartnerCommandInput,
    causationId?: string,
  ): Promise<PartnerResult> {
    const metadata = {
      ...metadataOf(request, partnerId),
      ...(causationId ? { causation_id: causationId } : {}),
    };
    const result = await this.commands.execute(new RunPartnerCommand(command, metadata));
    if (result.position !== null && !(await this.projections.waitFor(result.position))) {
      this.logger.warn(
        { partner_id: partnerId, position: String(result.position) },
        'read models lag a command',
      );
    }
    return result;
  }
}

/** The partner_list columns, written by the projector from the partner's own state (typed as it). */
interface PartnerListRow {
  id: string;
  name: string;
  contact_email: string;
  state: Partner['state'];
  certification_status: Partner['certificationStatus'];
  rate_limit_tier: Partner['rateLimitTier'];
  created_at: Date;
  position_key: string;
  revision: string;
}
