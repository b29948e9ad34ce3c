import { Controller, HttpCode, Post } from '@nestjs/common';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { ContractScheduler } from '../application/contract-scheduler';

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
  async run() {
    return this.scheduler.runNow();
  }
}
