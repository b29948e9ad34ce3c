import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CommandInput, EventMetadata } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { idFor } from '../../../platform/src/http/request-metadata';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { MISSING_BATCH_KEY, type SettlementBatchCommand } from '../domain/decide';
import type { ReconciliationException } from '../domain/reconciliation-exception';
import type { OpenReconciliationException } from '../domain/reconciliation-exception-decide';
import { EXCEPTION_RULES } from '../domain/reconciliation-exception-rules';
import type { SettlementBatch } from '../domain/settlement-batch';
import type { SettlementReportIngested } from '../domain/settlement-batch-events';
import { RunReconciliationExceptionCommand } from './reconciliation-exception-commands';
import { RunSettlementBatchCommand } from './settlement-batch-commands';

/** The actor of what reconciliation does by itself (auto-resolving, the sweep). */
export const RECONCILIATION_ACTOR = 'system:reconciliation';

/**
 * The id of an exception: derived from what it is about (its batch, or its transaction), its key
 * and its occurrence, so every run that decides the same difference names the same exception.
 */
export function exceptionIdFor(subjectId: string, key: string, occurrence: number): string {
  return idFor(subjectId, `reconciliation-exception:${key}#${occurrence}`, randomUUID);
}

export interface WriteResult<S> {
  state: S;
  position: bigint | null;
}

/**
 * The steps between a batch and its exceptions (docs/reconciliation.md, "Order of writes"). A
 * batch decides its differences on its own stream; the exceptions are then written on theirs,
 * then the batch is held or finished. Every step is named by the request's command id, so a
 * retry of the same request (or the sweep, for a batch left RECONCILING) finishes what a crash
 * interrupted without writing anything twice.
 */
@Injectable()
export class Reconciliation {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  /** After a report: open its new exceptions, auto-resolve the ones it no longer shows, hold or finish. */
  async afterReport(
    batch: SettlementBatch,
    report: SettlementReportIngested['data'],
    metadata: EventMetadata,
  ): Promise<WriteResult<SettlementBatch>> {
    let position: bigint | null = null;
    const note = (p: bigint | null) => (position = p ?? position);
    for (const d of report.opened) {
      note(
        await this.open(
          exceptionIdFor(batch.id, d.key, d.occurrence),
          {
            batchId: batch.id,
            merchantId: batch.merchantId,
            partnerId: batch.partnerId,
            transactionId: d.transactionId,
            type: d.type,
            key: d.key,
            occurrence: d.occurrence,
            severity: d.severity,
            description: d.description,
            expectedBy: batch.expectedBy,
            observedAt: report.receivedAt,
            currency: batch.currency,
            expectedAmountMinor: d.expectedAmountMinor,
            observedAmountMinor: d.observedAmountMinor,
          },
          metadata,
        ),
      );
    }
    for (const r of report.autoResolved) {
      const resolution =
        r.key === MISSING_BATCH_KEY
          ? `processor report ${report.reportId} arrived`
          : `processor report ${report.reportId} no longer shows the difference`;
      note(await this.autoResolve(exceptionIdFor(batch.id, r.key, r.occurrence), resolution, metadata));
    }
    const completed = await this.batchCommand(
      { type: 'CompleteReconciliation', batchId: batch.id },
      'complete',
      {
        ...metadata,
        partner_id: batch.partnerId,
      },
    ).catch((error: unknown) => {
      // Finished meanwhile (a retry of this request, the sweep): what it decided stands.
      if (error instanceof InvalidStateTransition) return null;
      throw error;
    });
    return { state: completed?.state ?? batch, position: completed?.position ?? position };
  }

  /**
   * The sweep: a PENDING batch past `expected_by` gets a MISSING_BATCH exception, then is flagged
   * (EXCEPTION). The exception is written first, so a crash in between leaves a batch the next
   * pass flags, naming the same exception.
   */
  async reportMissing(
    batch: SettlementBatch,
    metadata: EventMetadata,
  ): Promise<WriteResult<SettlementBatch>> {
    const occurrence = (batch.exceptions[MISSING_BATCH_KEY]?.occurrence ?? 0) + 1;
    const rule = EXCEPTION_RULES.MISSING_BATCH;
    await this.open(
      exceptionIdFor(batch.id, MISSING_BATCH_KEY, occurrence),
      {
        batchId: batch.id,
        merchantId: batch.merchantId,
        partnerId: batch.partnerId,
        transactionId: null,
        type: 'MISSING_BATCH',
        key: MISSING_BATCH_KEY,
        occurrence,
        severity: rule.severity,
        description: `no processor report of batch ${batch.id} (settlement date ${batch.settlementDate}) arrived by ${batch.expectedBy}`,
        expectedBy: batch.expectedBy,
        observedAt: this.clock.now().toISOString(),
        currency: batch.currency,
        expectedAmountMinor: batch.totalAmountMinor,
        observedAmountMinor: null,
      },
      metadata,
    );
    return this.batchCommand({ type: 'FlagMissingReport', batchId: batch.id }, 'report-missing', metadata);
  }

  /** Tells the exception's batch (if any) what became of it: the batch may now be final. */
  async recordOutcome(
    exception: ReconciliationException,
    metadata: EventMetadata,
  ): Promise<WriteResult<SettlementBatch> | null> {
    if (!exception.batchId) return null;
    return this.batchCommand(
      {
        type: 'RecordExceptionOutcome',
        batchId: exception.batchId,
        key: exception.key,
        occurrence: exception.occurrence,
        state: exception.state,
      },
      `outcome:${exception.id}:${exception.state}`,
      { ...metadata, partner_id: exception.partnerId },
    );
  }

  /** Opens an exception; one that exists already (an earlier run opened it) is left as it is. */
  async open(
    exceptionId: string,
    data: OpenReconciliationException['data'],
    metadata: EventMetadata,
  ): Promise<bigint | null> {
    try {
      const result = await this.commands.execute(
        new RunReconciliationExceptionCommand(
          { type: 'OpenReconciliationException', exceptionId, data },
          this.step(metadata, `open:${exceptionId}`, data.partnerId),
        ),
      );
      return result.position;
    } catch (error) {
      if (error instanceof InvalidStateTransition) return null;
      throw error;
    }
  }

  /** Auto-resolves an exception; one already final (an operator was first) is left as it is. */
  async autoResolve(
    exceptionId: string,
    resolution: string,
    metadata: EventMetadata,
  ): Promise<bigint | null> {
    try {
      const result = await this.commands.execute(
        new RunReconciliationExceptionCommand(
          {
            type: 'AutoResolveReconciliationException',
            exceptionId,
            resolvedBy: RECONCILIATION_ACTOR,
            resolution,
          },
          this.step(metadata, `auto-resolve:${exceptionId}`),
        ),
      );
      return result.position;
    } catch (error) {
      if (error instanceof InvalidStateTransition) return null;
      throw error;
    }
  }

  private async batchCommand(
    command: CommandInput<SettlementBatchCommand>,
    step: string,
    metadata: EventMetadata,
  ): Promise<WriteResult<SettlementBatch>> {
    const result = await this.commands.execute(
      new RunSettlementBatchCommand(command, this.step(metadata, `${step}:${command.batchId}`)),
    );
    return { state: result.state, position: result.position };
  }

  /** The metadata of one step: the request's, with a causation id of the step's own. */
  private step(metadata: EventMetadata, step: string, partnerId?: string): EventMetadata {
    return {
      ...metadata,
      partner_id: partnerId ?? metadata.partner_id,
      causation_id: idFor(metadata.causation_id, step, randomUUID),
    };
  }
}
