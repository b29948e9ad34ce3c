import { createTestDatabase, dropTestDatabase } from '../../../test/support/database';
import { createDataSource, runMigrations } from '../../platform/src/database/data-source';
import { TEST_ENTITIES, TEST_MIGRATIONS } from './testing/harness';

describe('read-model migrations', () => {
  let url: string;

  beforeAll(async () => {
    url = await createTestDatabase('read_model_migrations');
  });

  afterAll(async () => {
    await dropTestDatabase(url);
  });

  it('never synchronizes: the schema comes only from migrations run explicitly', () => {
    const dataSource = createDataSource(url, { entities: TEST_ENTITIES, migrations: TEST_MIGRATIONS });
    expect(dataSource.options).toMatchObject({ synchronize: false, migrationsRun: false });
  });

  it('applies each pending migration once, even when two processes start together', async () => {
    const processes = [1, 2, 3].map(() =>
      createDataSource(url, { entities: TEST_ENTITIES, migrations: TEST_MIGRATIONS }),
    );
    await Promise.all(processes.map((ds) => ds.initialize()));
    try {
      const applied = await Promise.all(processes.map((ds) => runMigrations(ds)));
      expect(applied.flat().sort()).toEqual(TEST_MIGRATIONS.map((m) => m.name).sort());
      expect(await runMigrations(processes[0])).toEqual([]);
      const [{ n }] = await processes[0].query('select count(*)::int as n from read_model_migrations');
      expect(n).toBe(TEST_MIGRATIONS.length);
      const tables = await processes[0].query(
        `select tablename from pg_tables where schemaname = 'public' order by tablename`,
      );
      expect(tables.map((t: { tablename: string }) => t.tablename)).toEqual([
        'counted',
        'noted',
        'projection_checkpoints',
        'read_model_migrations',
      ]);
    } finally {
      await Promise.all(processes.map((ds) => ds.destroy()));
    }
  });
});
