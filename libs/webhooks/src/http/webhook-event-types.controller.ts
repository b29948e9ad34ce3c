import { Controller, Get, Query } from '@nestjs/common';
import { PartnerRoute } from '../../../platform/src/auth/access';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
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
  list(@Query() query: Record<string, unknown>) {
    refuseParameters(query);
    return { data: WEBHOOK_EVENT_TYPE_CATALOG.map((entry) => ({ ...entry })) };
  }
}

/** A catalog read takes no parameter: any one is a typo worth a 400. */
export function refuseParameters(query: Record<string, unknown>): void {
  const names = Object.keys(query);
  if (names.length > 0) {
    throw validationProblem(names.map((field) => ({ field, message: 'is not a known parameter' })));
  }
}
