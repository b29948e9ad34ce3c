import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { parseAmount, parseSignedAmount } from '../../../platform/src/money/amount';
import { ProcessorReports, type ProcessorReportInput } from '../application/processor-reports';
import { toBatchResource } from '../domain/settlement-batch-resource';
import { RaisesBodyLimits } from '../../../platform/src/http/content-type';
import { MAX_REPORT_LINES, ProcessorReportDto } from './processor-report.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { SettlementBatchSchema } from '../domain/settlement-batch-resource';

/**
 * The processor's side of a batch (CONTRACT §2):
 * `POST /platform/settlement/batches/{batchId}/processor-report`. An action on the batch, so 200
 * with the batch (CONTRACT §7): `report_verified`, and RECONCILED, EXCEPTION or
 * CLOSED_WITH_EXCEPTIONS as its exceptions say. An unknown batch is 404; a malformed report 400
 * naming the line and field; the same report with the same `Idempotency-Key` replays the answer.
 */
@OperatorRoute()
@Controller('platform/settlement/batches')
export class PlatformSettlementBatchesController {
  constructor(private readonly reports: ProcessorReports) {}

  @Post(':batchId/processor-report')
  @HttpCode(200)
  @RaisesBodyLimits({ maxArrayLength: MAX_REPORT_LINES })
  @Describe({
    summary:
      'Ingest the processor’s settlement report: reconcile the batch and open an exception per difference',
    response: SettlementBatchSchema,
    errors: [409, 422],
  })
  async processorReport(
    @Param('batchId', UuidParam) batchId: string,
    @Body() body: ProcessorReportDto,
    @Req() request: FastifyRequest,
  ) {
    const batch = await this.reports.ingest(batchId, reportInput(body), metadataOf(request));
    return toBatchResource(batch);
  }
}

/** The wire form as the domain takes it: minor units, lower-case ids (the DTO has checked every field). */
function reportInput(body: ProcessorReportDto): ProcessorReportInput {
  const signed = (value: string) => (parseSignedAmount(value) as { minor: bigint }).minor;
  const unsigned = (value: string) => (parseAmount(value) as { minor: bigint }).minor;
  return {
    processorBatchId: body.processor_batch_id ?? null,
    vendorSettlementBatchId: body.vendor_settlement_batch_id ?? null,
    totalAmountMinor: signed(body.total_amount),
    feesMinor: unsigned(body.fees),
    lines: body.lines.map((line) => ({
      transactionId: line.transaction_id.toLowerCase(),
      amountMinor: signed(line.amount),
      settledAt: new Date(line.settled_at).toISOString(),
      surchargeMinor: line.surcharge_amount == null ? null : unsigned(line.surcharge_amount),
    })),
  };
}
