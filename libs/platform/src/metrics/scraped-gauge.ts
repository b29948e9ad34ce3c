import type { Pool } from 'pg';

/**
 * A reading a context offers the service's `/metrics` (docs/operations.md, "Metrics"): one gauge,
 * read from the database at each scrape, so a number is never older than the scrape itself.
 */
export interface ScrapedGauge {
  name: string;
  help: string;
  labelNames?: readonly string[];
  read(pool: Pool): Promise<{ labels?: Record<string, string>; value: number }[]>;
}
