import { Controller, Get } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStore } from '../../../libs/event-store/src';
import { PartnerRoute } from '../../../libs/platform/src/auth/access';
import { ProjectionRunner } from '../../../libs/projections/src';
import { z } from 'zod';
import { Describe } from '../../../libs/platform/src/openapi/describe';

const ComponentStatus = z.enum(['operational', 'degraded', 'down']);
type ComponentStatus = z.infer<typeof ComponentStatus>;

const SystemStatus = z
  .strictObject({
    components: z.array(z.strictObject({ key: z.string(), label: z.string(), status: ComponentStatus })),
    overall: ComponentStatus,
  })
  .meta({ id: 'SystemStatus' });

/** A projector this far behind the head is degraded: reads lag writes noticeably. */
const LAG_DEGRADED = 1000;
const SEVERITY: Record<ComponentStatus, number> = { operational: 0, degraded: 1, down: 2 };

/**
 * `GET /partner/system-status`: real checks, run on each call, of what a partner's requests
 * depend on. Each check has a short timeout so a hung dependency reads as `down`, not a hang.
 */
@Controller('partner/system-status')
export class SystemStatusController {
  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  @Get()
  @PartnerRoute('partner:read')
  @Describe({
    summary: 'The platform’s components and their status, checked on each call',
    response: SystemStatus,
  })
  async status(): Promise<z.infer<typeof SystemStatus>> {
    const [database, eventStore, projections] = await Promise.all([
      check(async () => {
        await this.pool.query('select 1');
        return 'operational';
      }),
      check(async () => {
        await this.store.headPosition();
        return 'operational';
      }),
      check(() => this.projections.status()),
    ]);
    const list = Array.isArray(projections) ? projections : [];
    const projectionStatus: ComponentStatus = !Array.isArray(projections)
      ? 'down'
      : list.some((p) => p.state === 'failed')
        ? 'down'
        : list.some((p) => p.lag > LAG_DEGRADED || p.state === 'rebuilding')
          ? 'degraded'
          : 'operational';
    const workersStatus: ComponentStatus = !Array.isArray(projections)
      ? 'down'
      : list.every((p) => p.state !== 'stopped')
        ? 'operational'
        : 'down';
    const components: { key: string; label: string; status: ComponentStatus }[] = [
      { key: 'api', label: 'API', status: 'operational' },
      { key: 'database', label: 'Database', status: asStatus(database) },
      { key: 'event_store', label: 'Event store', status: asStatus(eventStore) },
      { key: 'read_models', label: 'Read models (projection lag)', status: projectionStatus },
      { key: 'background_workers', label: 'Background workers', status: workersStatus },
    ];
    const overall = components.reduce<ComponentStatus>(
      (worst, c) => (SEVERITY[c.status] > SEVERITY[worst] ? c.status : worst),
      'operational',
    );
    return { components, overall };
  }
}

function asStatus(result: unknown): ComponentStatus {
  return result === 'operational' ? 'operational' : 'down';
}

async function check<T>(run: () => Promise<T>, timeoutMs = 2000): Promise<T | Error> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(),
      new Promise<Error>((resolve) => {
        timer = setTimeout(() => resolve(new Error('timed out')), timeoutMs);
      }),
    ]);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}
