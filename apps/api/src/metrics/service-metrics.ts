import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ScrapedGauge } from '../../../../libs/platform/src/metrics/scraped-gauge';
import type { ProjectionRunner } from '../../../../libs/projections/src';

/** What an operator watches (docs/operations.md, "Metrics"), gathered when Prometheus scrapes. */
export interface MetricSources {
  pool: Pool;
  projections: ProjectionRunner;
  /** Extra readings a context contributes (webhook queue, recurring charges due), read at scrape. */
  gauges: readonly ScrapedGauge[];
}

/** Label for a request that matched no route: never the raw URL (it may carry ids or worse). */
const UNMATCHED = 'unmatched';

/**
 * The service's Prometheus registry. One per service (not prom-client's global one), so two
 * services in one process (the tests) never share or double-register metrics.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Requests by method, route pattern and status, and how long each took to answer; its _count is the request rate.',
      labelNames: ['method', 'route', 'status'],
      // From a cached read (~1 ms) to a slow gateway (10 s).
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const projections = sources.projections;
    new Gauge({
      name: 'projection_lag_events',
      help: 'Events of each projector’s types after its checkpoint (what it still has to apply).',
      labelNames: ['projector', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const status of await projections.status()) {
          this.set({ projector: status.name, state: status.state }, status.lag);
        }
      },
    });
    const pool = sources.pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'The request pool’s connections: total open, idle, and requests waiting for one.',
      labelNames: ['pool', 'kind'],
      registers: [this.registry],
      collect() {
        this.set({ pool: 'requests', kind: 'total' }, pool.totalCount);
        this.set({ pool: 'requests', kind: 'idle' }, pool.idleCount);
        this.set({ pool: 'requests', kind: 'waiting' }, pool.waitingCount);
      },
    });
    for (const gauge of sources.gauges) {
      new Gauge({
        name: gauge.name,
        help: gauge.help,
        labelNames: [...(gauge.labelNames ?? [])],
        registers: [this.registry],
        async collect() {
          this.reset();
          // A table being swapped by a rebuild, or a database that just went away: no reading
          // this scrape (an absent series), rather than a failed scrape hiding every other one.
          const readings = await gauge.read(pool).catch(() => []);
          for (const reading of readings) {
            if (reading.labels) this.set(reading.labels, reading.value);
            else this.set(reading.value);
          }
        },
      });
    }
  }

  /** Times every answer, by the route's pattern (`/api/v1/transactions/:id`), never its URL. */
  observe(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', async (request, reply) => {
      this.requests.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? UNMATCHED,
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
  }

  async render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
