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
  Query,
  Req,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CurrentPartner, idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { parseEnabledEvents } from '../domain/decide';
import { validateEndpointUrl } from '../domain/url-rules';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { WebhookEndpointLimitReached } from '../domain/webhook-endpoint-errors';
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint-events';
import { toWebhookEndpointResource } from '../domain/webhook-endpoint-resource';
import { MAX_ENDPOINTS_PER_EVENT_TYPE } from '../domain/webhook-endpoint-states';
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '../domain/webhook-event-types';
import {
  RunWebhookEndpointCommand,
  type WebhookEndpointCommandInput,
  type WebhookEndpointResult,
} from '../application/webhook-endpoint-commands';
import { WebhookEndpointReader } from '../application/webhook-endpoint-reader';
import { deliveryIdFor } from '../application/webhook-ids';
import {
  WebhookDeliverySchema,
  WebhookQueries,
  parseNoFilters,
  type WebhookDeliveryResource,
} from '../application/webhook-queries';
import { WebhookSecrets } from '../application/webhook-secrets';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { z } from 'zod';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { WebhookEndpointSchema } from '../domain/webhook-endpoint-resource';

/**
 * Webhook endpoints (CONTRACT §3, docs/webhooks.md): where a partner's events are delivered and
 * how they are signed. Another partner's endpoint, and a deleted one, is 404
 * `webhook_endpoint_not_found`. The signing secret appears in two answers only: create and
 * rotate-secret (kept encrypted under the Idempotency-Key for a replay, like an API key's).
 */
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly endpoints: WebhookEndpointReader,
    private readonly queries: WebhookQueries,
    private readonly secrets: WebhookSecrets,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Newest first; deleted endpoints are not listed. */
  @Get()
  @PartnerRoute('webhook:read')
  @Describe({
    summary: 'The partner’s webhook endpoints, newest first',
    response: pageOf(WebhookEndpointSchema),
    paged: true,
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    parseNoFilters(query);
    const scope = `partner:${caller.partnerId}`;
    const page = pageRequest(query, this.cursors, 'webhook-endpoints', scope);
    const { rows, total } = await this.queries.endpoints(caller.partnerId, page);
    const now = this.clock.now();
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toWebhookEndpointResource(row.snapshot, now),
      (key) => this.cursors.encode('webhook-endpoints', scope, key),
    );
  }

  /** 201 with the endpoint and `secret`, shown here and never again. */
  @Post()
  @PartnerRoute('webhook:write')
  @Describe({
    summary: 'Create a webhook endpoint; its signing `secret` is in this answer only',
    response: WebhookEndpointSchema.extend({
      secret: z.string().meta({ description: '`whsec_…`: shown once.' }),
    }).meta({ id: 'WebhookEndpointCreated' }),
    errors: [422],
  })
  async create(
    @Body() body: CreateWebhookEndpointDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const endpointId = idFor(request.commandId, 'webhook-endpoint', randomUUID);
    // A URL the rules refuse is the decider's 400, before any limit.
    if (validateEndpointUrl(body.url, this.config.appEnv).length === 0) {
      await this.checkEndpointLimit(caller.partnerId, body.enabled_events ?? ['*'], null);
    }
    const result = await this.run(request, caller, {
      type: 'CreateWebhookEndpoint',
      endpointId,
      partnerId: caller.partnerId,
      url: body.url,
      enabledEvents: body.enabled_events ?? null,
      sealedSecret: this.secrets.generate(endpointId).sealed,
      environment: this.config.appEnv,
    });
    return { ...this.resource(result.state), secret: this.revealed(result, 'WebhookEndpointCreated') };
  }

  @Get(':endpointId')
  @PartnerRoute('webhook:read')
  @Describe({ summary: 'Read a webhook endpoint', response: WebhookEndpointSchema })
  async read(@Param('endpointId', UuidParam) endpointId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return this.resource(await this.endpoints.getForPartner(endpointId, caller.partnerId));
  }

  /** `url` and `enabled_events`; omitted or null leaves a field unchanged. */
  @Patch(':endpointId')
  @PartnerRoute('webhook:write')
  @Describe({
    summary: 'Change a webhook endpoint’s `url` or `enabled_events`',
    response: WebhookEndpointSchema,
    errors: [409, 422],
  })
  async update(
    @Param('endpointId', UuidParam) endpointId: string,
    @Body() body: UpdateWebhookEndpointDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const endpoint = await this.endpoints.getForPartner(endpointId, caller.partnerId);
    if (body.enabled_events != null && !endpoint.primary) {
      await this.checkEndpointLimit(caller.partnerId, body.enabled_events, endpointId);
    }
    const result = await this.run(request, caller, {
      type: 'UpdateWebhookEndpoint',
      endpointId,
      url: body.url ?? null,
      enabledEvents: body.enabled_events ?? null,
      environment: this.config.appEnv,
    });
    return this.resource(result.state);
  }

  /** 204; its pending deliveries are not attempted any more. The primary endpoint goes with `webhook_url`. */
  @Delete(':endpointId')
  @HttpCode(204)
  @PartnerRoute('webhook:write')
  @Describe({ summary: 'Delete a webhook endpoint', response: null, errors: [409] })
  async remove(
    @Param('endpointId', UuidParam) endpointId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.endpoints.getForPartner(endpointId, caller.partnerId);
    await this.run(request, caller, { type: 'DeleteWebhookEndpoint', endpointId });
  }

  /** 201 `{secret}`: the new secret signs from now on, next to the old one for 24 hours. */
  @Post(':endpointId/rotate-secret')
  @PartnerRoute('webhook:write')
  @Describe({
    summary: 'Rotate the signing secret (the old one keeps signing for 24 hours)',
    response: z.strictObject({ secret: z.string() }).meta({ id: 'WebhookSecret' }),
    errors: [409],
  })
  async rotateSecret(
    @Param('endpointId', UuidParam) endpointId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.endpoints.getForPartner(endpointId, caller.partnerId);
    const result = await this.run(request, caller, {
      type: 'RotateWebhookSecret',
      endpointId,
      sealedSecret: this.secrets.generate(endpointId).sealed,
    });
    return { secret: this.revealed(result, 'WebhookEndpointSecretRotated') };
  }

  /** 200: a SUSPENDED endpoint is delivered to again. */
  @Post(':endpointId/enable')
  @HttpCode(200)
  @PartnerRoute('webhook:write')
  @Describe({ summary: 'Enable a suspended endpoint again', response: WebhookEndpointSchema, errors: [409] })
  async enable(
    @Param('endpointId', UuidParam) endpointId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.endpoints.getForPartner(endpointId, caller.partnerId);
    const result = await this.run(request, caller, { type: 'ReenableWebhookEndpoint', endpointId });
    return this.resource(result.state);
  }

  /** 202 with the delivery of a signed `webhook_endpoint.test` event to this endpoint. */
  @Post(':endpointId/test')
  @HttpCode(202)
  @PartnerRoute('webhook:write')
  @Describe({
    summary: 'Send a signed `webhook_endpoint.test` event to the endpoint',
    response: WebhookDeliverySchema,
    errors: [409],
  })
  async test(
    @Param('endpointId', UuidParam) endpointId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<WebhookDeliveryResource> {
    await this.endpoints.getForPartner(endpointId, caller.partnerId);
    const result = await this.run(request, caller, {
      type: 'SendWebhookTest',
      endpointId,
      testId: idFor(request.commandId, 'webhook-test', randomUUID),
    });
    const event = result.events.find((e) => e.type === 'WebhookEndpointTestRequested') as Extract<
      WebhookEndpointEvent,
      { type: 'WebhookEndpointTestRequested' }
    >;
    const deliveryId = deliveryIdFor(endpointId, event.data.testId);
    return this.queries.delivery(deliveryId, caller.partnerId).catch((): WebhookDeliveryResource => ({
      // Not yet in the read model (its wait is bounded): the delivery it will be.
      id: deliveryId,
      endpoint_id: endpointId,
      event_id: event.data.testId,
      event_type: WEBHOOK_TEST_EVENT_TYPE,
      state: 'PENDING',
      attempts: [],
      next_attempt_at: event.data.requestedAt,
      created_at: event.data.requestedAt,
      updated_at: event.data.requestedAt,
    }));
  }

  private resource(endpoint: WebhookEndpoint) {
    return toWebhookEndpointResource(endpoint, this.clock.now());
  }

  /** The secret this command sealed into its event (on a re-run, the first run's: the same secret). */
  private revealed(
    result: WebhookEndpointResult,
    type: 'WebhookEndpointCreated' | 'WebhookEndpointSecretRotated',
  ) {
    const event = result.events.find((e) => e.type === type) as Extract<
      WebhookEndpointEvent,
      { type: typeof type }
    >;
    return this.secrets.reveal(result.state.id, event.data.secret.sealed);
  }

  /**
   * The per-event-type limit (`GET /webhook-metadata`): no type may reach more than ten of the
   * partner's endpoints (the primary one aside). Checked against the endpoint list.
   */
  private async checkEndpointLimit(partnerId: string, enabledEvents: unknown, except: string | null) {
    const parsed = parseEnabledEvents(enabledEvents);
    if (parsed.errors.length > 0) return; // the decider names them (400)
    const counts = await this.queries.endpointsPerType(partnerId, except);
    const everything = counts.get('*') ?? 0;
    for (const type of parsed.value ?? SUBSCRIBABLE_EVENT_TYPES) {
      if (everything + (counts.get(type) ?? 0) >= MAX_ENDPOINTS_PER_EVENT_TYPE) {
        throw new WebhookEndpointLimitReached(type, MAX_ENDPOINTS_PER_EVENT_TYPE);
      }
    }
  }

  private run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    command: WebhookEndpointCommandInput,
  ): Promise<WebhookEndpointResult> {
    return this.commands.execute(
      new RunWebhookEndpointCommand(command, metadataOf(request, caller.partnerId)),
    );
  }
}
