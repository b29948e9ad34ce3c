import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from './database';

describe('the test database', () => {
  it('is a real, empty PostgreSQL database of its own', async () => {
    const url = await createTestDatabase('smoke');
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema = 'public'",
    );
    await client.end();
    await dropTestDatabase(url);
    expect(rows[0].n).toBe('0');
  });
});
