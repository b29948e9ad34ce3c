import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { PostgresEventStore } from '../../../event-store/src/postgres/postgres-event-store';
import { FixedClock } from '../../../platform/src/clock/clock';
import { createDataSource, runMigrations } from '../../../platform/src/database/data-source';
import { PROJECTION_ENGINE_ENTITIES, PROJECTION_ENGINE_MIGRATIONS } from '../index';
import { ProjectionRunner, type ProjectionRunnerOptions } from '../projection-runner';
import type { Projector } from '../projector';
import { TestReadModels1763800000001 } from './1763800000001-test-read-models.migration';
import { NotedRow } from './noted-row.entity';
import { StreamCount } from './stream-count.entity';
import type { Noted } from './test-projectors';
import { testMetadata } from '../../../../test/support/metadata';

export const TEST_ENTITIES = [...PROJECTION_ENGINE_ENTITIES, NotedRow, StreamCount];
export const TEST_MIGRATIONS = [...PROJECTION_ENGINE_MIGRATIONS, TestReadModels1763800000001];

const metadata = testMetadata();

/**
 * The real things projector tests run on, in the database `url`: the PostgreSQL event store,
 * the read-model data source with the engine's and the test read models' migrations applied.
 * Runners made through `runner()` are stopped by `close()`.
 */
export class ProjectionHarness {
  private readonly runners: ProjectionRunner[] = [];

  private constructor(
    readonly pool: Pool,
    readonly store: PostgresEventStore,
    readonly dataSource: DataSource,
  ) {}

  static async open(url: string): Promise<ProjectionHarness> {
    const pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    const store = new PostgresEventStore(pool, new FixedClock(new Date('2026-11-01T00:00:00Z')), {
      pollIntervalMs: 100,
    });
    const dataSource = createDataSource(url, { entities: TEST_ENTITIES, migrations: TEST_MIGRATIONS });
    await dataSource.initialize();
    await runMigrations(dataSource);
    return new ProjectionHarness(pool, store, dataSource);
  }

  runner(projectors: Projector[], options: Partial<ProjectionRunnerOptions> = {}): ProjectionRunner {
    const runner = new ProjectionRunner({
      store: this.store,
      dataSource: this.dataSource,
      projectors,
      pollIntervalMs: 200,
      batchSize: 50,
      ...options,
    });
    this.runners.push(runner);
    return runner;
  }

  /** Appends `Noted` events to `stream`; returns the global position of the last one. */
  async note(stream: string, ...events: (number | Noted)[]): Promise<bigint> {
    const data = events.map((n) => (typeof n === 'number' ? { n } : n));
    const result = await this.store.appendToStream(
      stream,
      data.map((d) => ({ type: 'Noted', data: d })),
      { expectedRevision: 'any', metadata },
    );
    return result.position;
  }

  async append(stream: string, type: string, data: unknown = {}): Promise<bigint> {
    const result = await this.store.appendToStream(stream, [{ type, data }], {
      expectedRevision: 'any',
      metadata,
    });
    return result.position;
  }

  async count(table: string): Promise<number> {
    const [row] = await this.dataSource.query(`select count(*) as n from ${table}`);
    return Number(row.n);
  }

  async storedCheckpoint(
    name: string,
  ): Promise<{ position: bigint; status: string; error_position: string | null }> {
    const [row] = await this.dataSource.query(
      'select position, status, error_position from projection_checkpoints where name = $1',
      [name],
    );
    return { ...row, position: BigInt(row.position) };
  }

  async close(): Promise<void> {
    for (const runner of this.runners.splice(0)) await runner.stop();
    await this.store.close();
    await this.dataSource.destroy();
    await this.pool.end();
  }
}
