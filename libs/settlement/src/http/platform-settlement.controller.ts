import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { IsOptional, IsString, Matches } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { MerchantReader } from '../../../merchants/src';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { SettlementRun } from '../application/settlement-run';
import { toBatchResource } from '../domain/settlement-batch-resource';
import { UUID } from '../../../platform/src/validation/uuid';
import { Describe } from '../../../platform/src/openapi/describe';
import { listOf } from '../../../platform/src/openapi/wire-schemas';
import { SettlementBatchSchema } from '../domain/settlement-batch-resource';

export class SettlementRunDto {
  /** Settle this merchant only; without it, every merchant. */
  @IsOptional()
  @IsString()
  @Matches(UUID, { message: 'must be a UUID' })
  merchant_id?: string;
}

/**
 * The operator's end-of-day settlement (CONTRACT §2): `POST /platform/settlement/run`. An action,
 * so 200 (CONTRACT §7) with `{data: [batch]}`: the batches this run opened, one per merchant with
 * something to settle (`{data: []}` when nothing was due). It takes an `Idempotency-Key` like
 * every write: a retry with the same key answers the same batches and settles nothing twice.
 */
@OperatorRoute()
@Controller('platform/settlement')
export class PlatformSettlementController {
  constructor(
    private readonly settlement: SettlementRun,
    private readonly merchants: MerchantReader,
  ) {}

  @Post('run')
  @HttpCode(200)
  @Describe({
    summary: 'End of day: settle every due transaction into one batch per merchant',
    description: 'Answers the batches this run opened (`{data: []}` when nothing was due).',
    response: listOf(SettlementBatchSchema),
    errors: [404],
  })
  async run(@Body() body: SettlementRunDto, @Req() request: FastifyRequest) {
    const merchantId = body.merchant_id?.toLowerCase() ?? null;
    // An unknown merchant is 404 `merchant_not_found`, not an empty run.
    if (merchantId) await this.merchants.get(merchantId);
    const batches = await this.settlement.run(metadataOf(request), merchantId);
    return { data: batches.map(toBatchResource) };
  }
}
