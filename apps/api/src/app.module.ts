import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { EventStore } from '../../../libs/event-store/src';
import { Clock } from '../../../libs/platform/src/clock/clock';
import { APP_CONFIG } from '../../../libs/platform/src/config/config.token';
import { ProblemFilter } from '../../../libs/platform/src/problem/problem.filter';
import { PartnersModule } from '../../../libs/partners/src/partners.module';
import { ProjectionRunner } from '../../../libs/projections/src';
import { HealthController } from './health.controller';
import type { Infrastructure } from './infrastructure';

/**
 * The one process: API, hosted pages, projectors and workers. Infrastructure (database, event
 * store, clock, projection runner) is built before Nest starts and handed in here, so its
 * start-up order and shutdown order stay explicit in `infrastructure.ts`.
 */
@Module({})
export class AppModule {
  static register(infra: Infrastructure): DynamicModule {
    const core = {
      module: CoreModule,
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: infra.config },
        { provide: Pool, useValue: infra.pool },
        { provide: EventStore, useValue: infra.eventStore },
        { provide: Clock, useValue: infra.clock },
        { provide: ProjectionRunner, useValue: infra.projections },
      ],
      exports: [APP_CONFIG, Pool, EventStore, Clock, ProjectionRunner],
    };
    return {
      module: AppModule,
      imports: [core, CqrsModule.forRoot(), PartnersModule],
      controllers: [HealthController],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}

@Module({})
class CoreModule {}
