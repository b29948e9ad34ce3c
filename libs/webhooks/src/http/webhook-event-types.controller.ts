import { Controller, Get } from '@nestjs/common';
import { PartnerRoute } from '../../../platform/src/auth/access';
import { WEBHOOK_EVENT_TYPE_CATALOG } from '../domain/webhook-event-types';
import { Describe } from '../../../platform/src/openapi/describe';
import { listOf } from '../../../platform/src/openapi/wire-schemas';
import { WebhookEventTypeSchema } from '../domain/webhook-event-types';

/** `GET /webhook-event-types`: the catalog, each type with its meaning and its `data.object`. */
@Controller('webhook-event-types')
export class WebhookEventTypesController {
  @Get()
  @PartnerRoute('webhook:read')
  @Describe({
    summary: 'The event types, each with its meaning and its `data.object`',
    response: listOf(WebhookEventTypeSchema),
  })
  list() {
    return { data: WEBHOOK_EVENT_TYPE_CATALOG.map((entry) => ({ ...entry })) };
  }
}
