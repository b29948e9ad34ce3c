import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { IsDecimalAmount, IsSignedDecimalAmount } from '../../../platform/src/money/amount';
import { RequiredText } from '../../../platform/src/validation/text-fields';
import { UUID } from '../../../platform/src/validation/uuid';

/** A report's lines: the 1 MiB body limit holds about 8,000; more than this many is refused. */
export const MAX_REPORT_LINES = 10_000;

/** One line of the processor's report: a settled transaction (CONTRACT §2). */
export class ProcessorReportLineDto {
  @IsString()
  @Matches(UUID, { message: 'must be a UUID' })
  transaction_id!: string;

  /** Signed like the batch's members: a refund is negative (`"-10.00"`). */
  @IsSignedDecimalAmount()
  amount!: string;

  @IsString()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'must be an ISO 8601 date-time' })
  settled_at!: string;

  /** Extension: the surcharge within `amount` the processor assessed (a refund: reversed), unsigned. */
  @IsOptional()
  @IsDecimalAmount()
  surcharge_amount?: string | null;
}

/**
 * `POST /platform/settlement/batches/{batchId}/processor-report` (CONTRACT §2): `lines`,
 * `total_amount` (signed) and `fees`; extensions: the processor's own `processor_batch_id` and the
 * funding batch `vendor_settlement_batch_id`. A bad line is named with its index
 * (`lines[3].amount`).
 */
export class ProcessorReportDto {
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_LINES)
  @IsObject({ each: true, message: 'must be an array of line objects' })
  @ValidateNested({ each: true })
  @Type(() => ProcessorReportLineDto)
  lines!: ProcessorReportLineDto[];

  @IsSignedDecimalAmount()
  total_amount!: string;

  @IsDecimalAmount()
  fees!: string;

  @IsOptional()
  @RequiredText(100)
  processor_batch_id?: string | null;

  @IsOptional()
  @RequiredText(100)
  vendor_settlement_batch_id?: string | null;
}
