import { Controller, Get, Query } from '@nestjs/common';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { WebhookQueries, filtersScope, parseEventFilters } from '../application/webhook-queries';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { EVENT_FILTER_DOCS } from '../application/webhook-queries';
import { WebhookEnvelopeSchema } from '../domain/webhook-objects';

/**
 * `GET /events`: the partner's webhook envelopes of the last 30 days, newest first, exactly as
 * they are delivered (same `id`, `type` and `data.object`), whether or not any endpoint received
 * them; a partner that was down catches up here without replays. Filters: `type`, `merchant_id`,
 * `created_from`, `created_to` (inclusive).
 */
@Controller('events')
export class EventsController {
  constructor(
    private readonly queries: WebhookQueries,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @PartnerRoute('webhook:read')
  @Describe({
    summary: 'The partner’s webhook events of the last 30 days, newest first (the exact envelopes sent)',
    response: pageOf(WebhookEnvelopeSchema),
    query: EVENT_FILTER_DOCS,
    paged: true,
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = parseEventFilters(query);
    const scope = filtersScope(caller.partnerId, filters);
    const page = pageRequest(query, this.cursors, 'events', scope);
    const { rows, total } = await this.queries.events(caller.partnerId, filters, page);
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => JSON.parse(row.body) as unknown,
      (key) => this.cursors.encode('events', scope, key),
    );
  }
}
