import { Controller, Get, Inject, Query } from '@nestjs/common';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import {
  MAX_RETRY_AFTER_SECONDS,
  NEVER_RETRIED_STATUS_CODES,
  RESPONSE_BODY_LIMIT_BYTES,
} from '../domain/delivery-rules';
import {
  MAX_ENDPOINTS_PER_EVENT_TYPE,
  REPLAY_LIMIT,
  REPLAY_WINDOW_MS,
  SECRET_OVERLAP_MS,
  SUSPEND_AFTER_FAILED_DELIVERIES,
} from '../domain/webhook-endpoint-states';
import { EVENT_RETENTION_DAYS } from '../application/delivery-queue';
import { refuseParameters } from './webhook-event-types.controller';
import { z } from 'zod';
import { Describe } from '../../../platform/src/openapi/describe';

/**
 * `GET /webhook-metadata`: the delivery policy in force on this deployment (the retry schedule
 * and timeout come from WEBHOOK_RETRY_SCHEDULE and WEBHOOK_TIMEOUT_MS) and the per-event-type limit.
 */
const WebhookMetadata = z
  .strictObject({
    retry_policy: z.strictObject({
      attempts: z.int(),
      schedule_seconds: z.array(z.int()),
      timeout_ms: z.int(),
      retried: z.array(z.string()),
      never_retried: z.array(z.int()),
      retry_after: z.strictObject({ forms: z.array(z.string()), max_seconds: z.int() }),
      response_body_limit_bytes: z.int(),
    }),
    signature: z.strictObject({
      scheme: z.literal('standard-webhooks'),
      algorithm: z.literal('HMAC-SHA256'),
      headers: z.array(z.string()),
      rotation_overlap_seconds: z.number(),
    }),
    replay_limit: z.strictObject({ replays: z.int(), per_seconds: z.number() }),
    suspension: z.strictObject({ after_consecutive_failed_deliveries: z.int() }),
    event_type_limit: z.strictObject({ max_endpoints_per_event_type: z.int() }),
    event_retention_days: z.int(),
  })
  .meta({ id: 'WebhookMetadata' });

@Controller('webhook-metadata')
export class WebhookMetadataController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @PartnerRoute('webhook:read')
  @Describe({
    summary: 'The webhook delivery policy in force and the per-event-type limit',
    response: WebhookMetadata,
  })
  read(@Query() query: Record<string, unknown>): z.infer<typeof WebhookMetadata> {
    refuseParameters(query);
    const schedule = this.config.webhookRetrySchedule;
    return {
      retry_policy: {
        attempts: schedule.length,
        schedule_seconds: [...schedule],
        timeout_ms: this.config.webhookTimeoutMs,
        retried: [
          '3xx (redirects are not followed)',
          '4xx not listed in never_retried',
          '5xx',
          'timeout',
          'connection refused or reset',
          'DNS failure',
        ],
        never_retried: [...NEVER_RETRIED_STATUS_CODES],
        retry_after: { forms: ['delta-seconds'], max_seconds: MAX_RETRY_AFTER_SECONDS },
        response_body_limit_bytes: RESPONSE_BODY_LIMIT_BYTES,
      },
      signature: {
        scheme: 'standard-webhooks',
        algorithm: 'HMAC-SHA256',
        headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
        rotation_overlap_seconds: SECRET_OVERLAP_MS / 1000,
      },
      replay_limit: { replays: REPLAY_LIMIT, per_seconds: REPLAY_WINDOW_MS / 1000 },
      suspension: { after_consecutive_failed_deliveries: SUSPEND_AFTER_FAILED_DELIVERIES },
      event_type_limit: { max_endpoints_per_event_type: MAX_ENDPOINTS_PER_EVENT_TYPE },
      event_retention_days: EVENT_RETENTION_DAYS,
    };
  }
}
