import { Controller, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { Describe } from '../../../platform/src/openapi/describe';
import { ContractScheduler } from '../application/contract-scheduler';

const count = z.int().min(0);

/** What one pass did (`PassResult`), as the document publishes it. */
const RecurringPassSchema = z
  .strictObject({
    contracts: count.meta({ description: 'Contracts the pass looked at.' }),
    skipped: count,
    charged: count,
    declined: count,
    pending: count.meta({ description: 'Charges whose gateway outcome is not known yet.' }),
    held: count,
    released: count,
    cancelled: count,
    returns: count.meta({ description: 'ACH installments recorded as returned.' }),
  })
  .meta({ id: 'RecurringPass' });

/**
 * `POST /platform/recurring/run` (operator): one pass of the recurring scheduler now, answered
 * with what it did. The scheduler runs on its own every few seconds and after every sandbox clock
 * advance; this is for operators (and tests) who want it now, on this process.
 */
@Controller('platform/recurring')
export class PlatformRecurringController {
  constructor(private readonly scheduler: ContractScheduler) {}

  @Post('run')
  @HttpCode(200)
  @OperatorRoute()
  @Describe({ summary: 'Run one pass of the recurring scheduler now', response: RecurringPassSchema })
  async run(): Promise<z.infer<typeof RecurringPassSchema>> {
    return this.scheduler.runNow();
  }
}
