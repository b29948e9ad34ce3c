import { DataSource, type DataSourceOptions } from 'typeorm';

type Entities = NonNullable<DataSourceOptions['entities']>;
type Migrations = NonNullable<DataSourceOptions['migrations']>;

/**
 * The read-model database. The schema comes only from migrations, applied explicitly at start
 * (`runMigrations`), never from `synchronize`: read models are disposable, their shape is not.
 * Entities name no schema, so a projection rebuild can point `search_path` at fresh tables.
 */
export function createDataSource(
  url: string,
  options: { entities: Entities; migrations: Migrations },
): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'read_model_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A connect that hangs (the database gone mid-handshake) fails after 5 s instead of holding
    // the request: it then answers 503 like any other lost connection.
    extra: { max: 10, application_name: 'partner-payments:read-models', connectionTimeoutMillis: 5_000 },
  });
}

const MIGRATION_LOCK = 'read-model-migrations';

/**
 * Applies pending migrations, each in its own transaction, and returns their names. Two
 * processes starting together take turns on a session advisory lock held on a connection of its
 * own: the second one then finds nothing pending instead of failing on `create table`.
 */
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
