import { Controller, Get, Header, Inject } from '@nestjs/common';
import { OperatorRoute } from '../../../../libs/platform/src/auth/access';
import { ServiceMetrics } from './service-metrics';
import { Describe } from '../../../../libs/platform/src/openapi/describe';

/**
 * `GET /platform/metrics`: the Prometheus text format, behind the operator key like every operator tool
 * (a scraper sends it as `Authorization: Bearer …`; docs/operations.md shows the scrape config).
 * Numbers are this process's own: with several processes, scrape each one.
 */
@Controller('platform/metrics')
export class MetricsController {
  constructor(@Inject(ServiceMetrics) private readonly metrics: ServiceMetrics) {}

  @Get()
  @OperatorRoute()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Describe({
    summary: 'Prometheus metrics of this process (text format)',
    response: { mediaType: 'text/plain' },
  })
  async scrape(): Promise<string> {
    return this.metrics.render();
  }
}
