import { DataSource } from 'typeorm';

type EntityOrMigration = NonNullable<ConstructorParameters<typeof DataSource>[0]['entities']>;

/**
 * The read-model database. The schema comes only from migrations, applied explicitly at start
 * (`runMigrations`), never from `synchronize`: read models are disposable, their shape is not.
 */
export function createDataSource(
  url: string,
  options: { entities: EntityOrMigration; migrations: EntityOrMigration | string[] },
): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: options.entities,
    migrations: options.migrations as string[],
    migrationsTableName: 'read_model_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: 10, application_name: 'partner-payments:read-models' },
  });
}

const MIGRATION_LOCK = 'read-model-migrations';

/** Applies pending migrations; two processes starting together take turns (advisory lock). */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('select pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
