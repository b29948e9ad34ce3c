import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { EventMetadata } from '../../../event-store/src';
import { MerchantReader } from '../../../merchants/src';
import { idFor } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import type { ProcessorReport, ReportFacts } from '../domain/processor-report';
import type { SettlementBatch } from '../domain/settlement-batch';
import type { SettlementReportIngested } from '../domain/settlement-batch-events';
import { expectedBatchFeesMinor, feeScheduleOf } from '../domain/settlement-fees';
import { Reconciliation } from './reconciliation';
import { RunSettlementBatchCommand } from './settlement-batch-commands';
import { SettlementBatchReader } from './settlement-batch-reader';
import { SETTLEMENT_READ_MODELS } from './settlement-read-models';

export type ProcessorReportInput = Omit<ProcessorReport, 'reportId'>;

/**
 * `POST /platform/settlement/batches/{id}/processor-report` (CONTRACT §2): the processor's
 * settlement report of one batch. The batch decides on its own stream (lines matched to members,
 * control total and fees verified, `report_verified`, the differences), then the exceptions are
 * written and the batch is held or finished (`Reconciliation.afterReport`). The answer waits for
 * the read models, so the lists show what the report did.
 */
@Injectable()
export class ProcessorReports {
  constructor(
    private readonly commands: CommandBus,
    private readonly batches: SettlementBatchReader,
    private readonly merchants: MerchantReader,
    private readonly reconciliation: Reconciliation,
    private readonly projections: ProjectionRunner,
    private readonly pool: Pool,
  ) {}

  async ingest(
    batchId: string,
    input: ProcessorReportInput,
    metadata: EventMetadata,
  ): Promise<SettlementBatch> {
    const batch = await this.batches.get(batchId);
    const facts = await this.factsFor(batch, input);
    const reportId = idFor(metadata.causation_id, `processor-report:${batchId}`, randomUUID);
    const withPartner = { ...metadata, partner_id: batch.partnerId };
    const ingested = await this.commands.execute(
      new RunSettlementBatchCommand(
        { type: 'IngestProcessorReport', batchId, report: { ...input, reportId }, facts },
        withPartner,
      ),
    );
    const report = ingested.events.find(
      (e): e is SettlementReportIngested => e.type === 'SettlementReportIngested',
    );
    let result = { state: ingested.state, position: ingested.position };
    if (report) result = await this.reconciliation.afterReport(ingested.state, report.data, withPartner);
    if (result.position !== null) await this.projections.waitFor(result.position, SETTLEMENT_READ_MODELS);
    return result.state;
  }

  /** The members' surcharges, the other transactions the lines name, and the fees the fee profile gives. */
  private async factsFor(batch: SettlementBatch, input: ProcessorReportInput): Promise<ReportFacts> {
    const members = new Set(batch.members.map((m) => m.transactionId));
    const others = [...new Set(input.lines.map((l) => l.transactionId))].filter((id) => !members.has(id));
    const [surcharges, named, merchant] = await Promise.all([
      this.pool.query<{ id: string; surcharge_minor: string }>(
        'select id, surcharge_minor::text from transaction_list where id = any($1::uuid[])',
        [[...members]],
      ),
      this.pool.query<{ id: string; merchant_id: string; batch_id: string | null }>(
        'select id, merchant_id, batch_id from transaction_list where id = any($1::uuid[])',
        [others],
      ),
      this.merchants.find(batch.merchantId),
    ]);
    const schedule = feeScheduleOf(merchant?.fees?.feeProfile ?? null);
    return {
      members: Object.fromEntries(
        surcharges.rows.map((r) => [r.id, { surchargeMinor: BigInt(r.surcharge_minor) }]),
      ),
      others: Object.fromEntries(
        named.rows.map((r) => [r.id, { merchantId: r.merchant_id, batchId: r.batch_id }]),
      ),
      expectedFeesMinor: expectedBatchFeesMinor(
        schedule,
        batch.members.map((m) => ({ rail: m.rail, type: m.type, amountMinor: BigInt(m.amountMinor) })),
        batch.currency,
      ),
    };
  }
}
