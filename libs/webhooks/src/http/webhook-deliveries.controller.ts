import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { RunWebhookEndpointCommand } from '../application/webhook-endpoint-commands';
import { WebhookEndpointReader } from '../application/webhook-endpoint-reader';
import { WebhookQueries } from '../application/webhook-queries';
import { Describe } from '../../../platform/src/openapi/describe';
import { WebhookDeliverySchema } from '../application/webhook-queries';

/** One delivery of the partner's: replay (spec rule 9). */
@Controller('webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly endpoints: WebhookEndpointReader,
    private readonly queries: WebhookQueries,
  ) {}

  /**
   * 202: the stored envelope goes out again unchanged (same `webhook-id`, a new signature
   * timestamp), as a new run of the schedule. 409 `invalid_state_transition` while the endpoint
   * is SUSPENDED; the 101st replay for one endpoint within an hour is 429 with `Retry-After`.
   */
  @Post(':deliveryId/replay')
  @HttpCode(202)
  @PartnerRoute('webhook:write')
  @Describe({
    summary: 'Replay a delivery: the stored envelope again, unchanged (100 per endpoint per hour)',
    response: WebhookDeliverySchema,
    errors: [409],
  })
  async replay(
    @Param('deliveryId', UuidParam) deliveryId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const delivery = await this.queries.delivery(deliveryId, caller.partnerId);
    await this.endpoints.getForPartner(delivery.endpoint_id, caller.partnerId);
    await this.commands.execute(
      new RunWebhookEndpointCommand(
        { type: 'ReplayWebhookDelivery', endpointId: delivery.endpoint_id, deliveryId },
        metadataOf(request, caller.partnerId),
      ),
    );
    return this.queries.delivery(deliveryId, caller.partnerId);
  }
}
