import { Controller, Get, Param, Query } from '@nestjs/common';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { WebhookEndpointReader } from '../application/webhook-endpoint-reader';
import { WebhookQueries, filtersScope, parseDeliveryFilters } from '../application/webhook-queries';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { DELIVERY_FILTER_DOCS, WebhookDeliverySchema } from '../application/webhook-queries';

/**
 * An endpoint's deliveries, newest first, each with every attempt (`at`, `status_code`, `error`,
 * `duration_ms`) and, while PENDING, `next_attempt_at`. Filter: `state`.
 */
@Controller('webhook-endpoints/:endpointId/deliveries')
export class WebhookEndpointDeliveriesController {
  constructor(
    private readonly endpoints: WebhookEndpointReader,
    private readonly queries: WebhookQueries,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @PartnerRoute('webhook:read')
  @Describe({
    summary: 'An endpoint’s deliveries with their attempts, newest first',
    response: pageOf(WebhookDeliverySchema),
    query: DELIVERY_FILTER_DOCS,
    paged: true,
  })
  async list(
    @Param('endpointId', UuidParam) endpointId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    await this.endpoints.getForPartner(endpointId, caller.partnerId);
    const filters = parseDeliveryFilters(query);
    const scope = filtersScope(caller.partnerId, { endpointId, ...filters });
    const page = pageRequest(query, this.cursors, 'webhook-deliveries', scope);
    const { rows, total, render } = await this.queries.deliveries(endpointId, filters.state, page);
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      render,
      (key) => this.cursors.encode('webhook-deliveries', scope, key),
    );
  }
}
