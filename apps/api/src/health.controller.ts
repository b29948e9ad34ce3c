import { Controller, Get } from '@nestjs/common';
import { PublicRoute } from '../../../libs/platform/src/auth/access';
import { DatabaseMonitor } from '../../../libs/platform/src/database/database-monitor';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../../libs/platform/src/database/database-unavailable';
import { ProblemException } from '../../../libs/platform/src/problem/problem.filter';
import { problem } from '../../../libs/platform/src/problem/problem';
import { Describe } from '../../../libs/platform/src/openapi/describe';
import { z } from 'zod';

/**
 * The one unauthenticated endpoint (CONTRACT §1), and a readiness probe: 200 `{"status":"ok"}`
 * (exactly the contract's body) while the service can serve requests; 503 problem+json naming
 * what is down in `checks`, with `Retry-After`, while it cannot (docs/operations.md). The
 * database is asked afresh on every call, so a load balancer never routes on a stale answer.
 */
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseMonitor) {}

  @Get()
  @Describe({
    summary: 'Health probe (no authentication)',
    description:
      '503 problem+json naming what is down in `checks`, with `Retry-After`, while the service cannot serve.',
    response: z.strictObject({ status: z.literal('ok') }),
    tag: 'Service',
  })
  async health(): Promise<{ status: 'ok' }> {
    if ((await this.database.probe()) === 'up') return { status: 'ok' };
    throw new ProblemException(
      problem(
        503,
        'service_unavailable',
        `the database is unreachable (${this.database.reason ?? 'no answer'}); every request answers 503 until it is back`,
        { retryable: true, checks: { database: 'down' } },
      ),
      { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
}
