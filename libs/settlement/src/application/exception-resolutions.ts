import { CommandBus } from '@nestjs/cqrs';
import { Injectable } from '@nestjs/common';
import type { EventMetadata } from '../../../event-store/src';
import { ProjectionRunner } from '../../../projections/src';
import type { ReconciliationException } from '../domain/reconciliation-exception';
import type { OperatorResolution } from '../domain/reconciliation-exception-rules';
import { RunReconciliationExceptionCommand } from './reconciliation-exception-commands';
import { ReconciliationExceptionReader } from './reconciliation-exception-reader';
import { Reconciliation } from './reconciliation';
import { SETTLEMENT_READ_MODELS } from './settlement-read-models';

/**
 * `POST /platform/reconciliation-exceptions/{id}/resolve` (CONTRACT §2): an operator's decision,
 * recorded on the exception's stream with `resolved_by` (the operator) and `resolution`, then on
 * its batch, which is final once nothing of it is outstanding. A retry of the same request
 * finishes the second step if the first one was all that happened.
 */
@Injectable()
export class ExceptionResolutions {
  constructor(
    private readonly commands: CommandBus,
    private readonly exceptions: ReconciliationExceptionReader,
    private readonly reconciliation: Reconciliation,
    private readonly projections: ProjectionRunner,
  ) {}

  async resolve(
    exceptionId: string,
    state: OperatorResolution,
    resolution: string,
    metadata: EventMetadata,
  ): Promise<ReconciliationException> {
    // The events name the exception's partner, as every event of a partner's record does.
    const { partnerId } = await this.exceptions.get(exceptionId);
    const resolved = await this.commands.execute(
      new RunReconciliationExceptionCommand(
        {
          type: 'ResolveReconciliationException',
          exceptionId,
          state,
          resolvedBy: metadata.actor,
          resolution,
        },
        { ...metadata, partner_id: partnerId },
      ),
    );
    const batch = await this.reconciliation.recordOutcome(resolved.state, metadata);
    const position = batch?.position ?? resolved.position;
    if (position !== null) await this.projections.waitFor(position, SETTLEMENT_READ_MODELS);
    return resolved.state;
  }
}
