import { IsArray, IsOptional, IsString } from 'class-validator';

/**
 * Webhook endpoint bodies. The DTOs check shape and types (and refuse unknown fields); the value
 * rules (URL rules, known event types) are the domain's, so every writer gets the same answer.
 */
export class CreateWebhookEndpointDto {
  @IsString()
  url!: string;

  /** Omitted or `["*"]`: every subscribable type. */
  @IsOptional()
  @IsArray()
  enabled_events?: unknown[] | null;
}

/** PATCH: omitted or null leaves a field unchanged. */
export class UpdateWebhookEndpointDto {
  @IsOptional()
  @IsString()
  url?: string | null;

  @IsOptional()
  @IsArray()
  enabled_events?: unknown[] | null;
}
