import { Module, type DynamicModule } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { EventStore, READ_MODEL_WAIT, type ReadModelWait } from '../../../libs/event-store/src';
import { Clock } from '../../../libs/platform/src/clock/clock';
import { ClockAdvanceHooks } from '../../../libs/platform/src/clock/clock-advance-hooks';
import { APP_CONFIG } from '../../../libs/platform/src/config/config.token';
import { ProblemFilter } from '../../../libs/platform/src/problem/problem.filter';
import { AuthGuard } from '../../../libs/platform/src/auth/auth.guard';
import { OperatorKey } from '../../../libs/platform/src/auth/operator-key';
import { SealedBox } from '../../../libs/platform/src/crypto/sealed-box';
import { RateLimiter } from '../../../libs/platform/src/auth/rate-limiter';
import { PostgresRateWindows } from '../../../libs/platform/src/auth/rate-windows';
import { RouteTable } from '../../../libs/platform/src/http/route-table';
import { IdempotencyInterceptor } from '../../../libs/platform/src/idempotency/idempotency.interceptor';
import { BodylessRouteInterceptor } from '../../../libs/platform/src/http/bodyless-route.interceptor';
import { DeclaredQueryInterceptor } from '../../../libs/platform/src/http/declared-query.interceptor';
import { IdempotencyStore } from '../../../libs/platform/src/idempotency/idempotency-store';
import { DatabaseMonitor } from '../../../libs/platform/src/database/database-monitor';
import { LOGGER } from '../../../libs/platform/src/logging/logger.token';
import { CursorCodec } from '../../../libs/platform/src/pagination/pagination';
import { createValidationPipe } from '../../../libs/platform/src/validation/validation.pipe';
import { ConfigurationModule } from '../../../libs/configuration/src';
import { MerchantsModule } from '../../../libs/merchants/src';
import { CustomersModule } from '../../../libs/customers/src';
import { HostedPagesModule } from '../../../libs/hosted-pages/src';
import { PartnersModule } from '../../../libs/partners/src';
import { VaultModule } from '../../../libs/vault/src';
import { TransactionsModule } from '../../../libs/transactions/src';
import { SettlementModule } from '../../../libs/settlement/src';
import { RecurringModule } from '../../../libs/recurring/src';
import { TerminalsModule } from '../../../libs/terminals/src';
import { DeliveryHandoff, WebhooksModule } from '../../../libs/webhooks/src';
import { ProjectionRunner } from '../../../libs/projections/src';
import { HealthController } from './health.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { ProblemsController } from './problems/problems.controller';
import { MetricsController } from './metrics/metrics.controller';
import { ServiceMetrics } from './metrics/service-metrics';
import { ConsoleController } from './console/console.controller';
import { PlatformOpsController } from './platform/platform-ops.controller';
import { SystemStatusController } from './system-status.controller';
import type { Infrastructure } from './infrastructure';
import { SANDBOX_CLOCK } from './sandbox/sandbox-clock-store';

/**
 * The one process: API, hosted pages, projectors and workers. Infrastructure (database, event
 * store, clock, projection runner) is built before Nest starts and handed in here, so its
 * start-up order and shutdown order stay explicit in `infrastructure.ts`.
 */
@Module({})
export class AppModule {
  static register(infra: Infrastructure, routes: RouteTable): DynamicModule {
    // Cursors are signed with a secret only this deployment has: derived from the operator key.
    const cursorSecret = createHash('sha256')
      .update(`pagination-cursor:${infra.operatorKey.fingerprint}`)
      .digest('hex');
    const core = {
      module: CoreModule,
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: infra.config },
        { provide: Pool, useValue: infra.pool },
        { provide: EventStore, useValue: infra.eventStore },
        { provide: Clock, useValue: infra.clock },
        { provide: SANDBOX_CLOCK, useValue: infra.sandboxClock },
        { provide: ProjectionRunner, useValue: infra.projections },
        { provide: DeliveryHandoff, useValue: infra.deliveryHandoff },
        {
          provide: READ_MODEL_WAIT,
          useValue: (async (position, readModels) => {
            await infra.projections.waitFor(position, [...readModels]);
          }) satisfies ReadModelWait,
        },
        { provide: OperatorKey, useValue: infra.operatorKey },
        { provide: SealedBox, useValue: infra.vault },
        { provide: IdempotencyStore, useValue: infra.idempotency },
        { provide: DatabaseMonitor, useValue: infra.database },
        { provide: ServiceMetrics, useValue: infra.metrics },
        { provide: LOGGER, useValue: infra.logger },
        { provide: RouteTable, useValue: routes },
        { provide: CursorCodec, useValue: new CursorCodec(cursorSecret) },
        // Budgets shared by every process on the database (docs/rate-limits.md).
        { provide: RateLimiter, useValue: new RateLimiter(new PostgresRateWindows(infra.pool)) },
        { provide: ClockAdvanceHooks, useValue: new ClockAdvanceHooks() },
      ],
      exports: [
        APP_CONFIG,
        Pool,
        EventStore,
        Clock,
        SANDBOX_CLOCK,
        ProjectionRunner,
        READ_MODEL_WAIT,
        OperatorKey,
        SealedBox,
        IdempotencyStore,
        DatabaseMonitor,
        ServiceMetrics,
        LOGGER,
        RouteTable,
        CursorCodec,
        RateLimiter,
        ClockAdvanceHooks,
        DeliveryHandoff,
      ],
    };
    return {
      module: AppModule,
      imports: [
        core,
        CqrsModule.forRoot(),
        PartnersModule,
        ConfigurationModule,
        MerchantsModule,
        HostedPagesModule,
        CustomersModule,
        VaultModule,
        TransactionsModule,
        SettlementModule,
        RecurringModule,
        WebhooksModule,
        // A planned operation (CONTRACT §9): until released its routes are not registered at all,
        // so every terminal path answers exactly as an unknown route does.
        ...(infra.config.releasedOperations.includes('terminals') ? [TerminalsModule] : []),
      ],
      controllers: [
        HealthController,
        ProblemsController,
        ConsoleController,
        PlatformOpsController,
        SystemStatusController,
        OpenApiController,
        MetricsController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ProblemFilter },
        // Order per request: guard (who, may they, how often) → idempotency → a bodyless action's
        // stray fields → query parameters the route does not declare → validation → handler.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: BodylessRouteInterceptor },
        { provide: APP_INTERCEPTOR, useClass: DeclaredQueryInterceptor },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}

@Module({})
class CoreModule {}
