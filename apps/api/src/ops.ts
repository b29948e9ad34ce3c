import 'reflect-metadata';
import * as path from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../libs/event-store/src';
import { SystemClock } from '../../../libs/platform/src/clock/clock';
import { ConfigError, loadConfig } from '../../../libs/platform/src/config/config';
import { createDataSource, runMigrations } from '../../../libs/platform/src/database/data-source';
import {
  runningEmbeddedPostgresUrl,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../../../libs/platform/src/database/embedded-postgres';
import { ProjectionRunner } from '../../../libs/projections/src';
import { PROJECTORS, READ_MODEL_ENTITIES, READ_MODEL_MIGRATIONS } from '../../../projections';
import { UUID } from '../../../libs/platform/src/validation/uuid';
import { analystConnection, analystInstructions } from './analyst-access';

/**
 * Operator command line (CONTRACT §2), beside or without a running service:
 *   npm run ops -- history <aggregate> <id>     every event of one stream, oldest first, as JSON lines
 *   npm run ops -- rebuild <projection>         rebuild one read model from the events and swap it in
 *   npm run ops -- projections                  each projector's checkpoint and lag
 *   npm run ops -- sql                          how to connect read-only (analysts' SQL, docs/analysts.md)
 */
const USAGE =
  'usage: npm run ops -- history <merchant|transaction|partner|customer|hpp_session|stored_credential|contract|batch|reconciliation_exception> <id> | rebuild <projection> | projections | sql';
const AGGREGATES = [
  'merchant',
  'transaction',
  'partner',
  'customer',
  'hpp_session',
  'stored_credential',
  'contract',
  'batch',
  'reconciliation_exception',
];

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const config = loadConfig();
  let embedded: EmbeddedPostgres | null = null;
  let url = config.databaseUrl;
  if (!url) {
    const dir = path.resolve(config.dataDir, 'postgres');
    url = runningEmbeddedPostgresUrl(dir);
    if (!url) {
      embedded = await startEmbeddedPostgres({ dir });
      url = embedded.url;
    }
  }
  const pool = new Pool({ connectionString: url, max: 4 });
  const store = new PostgresEventStore(pool, new SystemClock());
  try {
    await PostgresEventStore.migrate(pool);
    if (command === 'history') {
      const [aggregate, id] = args;
      if (!AGGREGATES.includes(aggregate) || !UUID.test(id ?? '')) return usage();
      const events = await store.readStream(`${aggregate}-${id.toLowerCase()}`);
      if (events.length === 0) {
        process.stderr.write(`no events for ${aggregate} ${id}\n`);
        return 1;
      }
      for (const e of events) {
        process.stdout.write(
          `${JSON.stringify({
            revision: e.revision.toString(),
            global_position: e.globalPosition.toString(),
            type: e.type,
            recorded_at: e.recordedAt.toISOString(),
            metadata: e.metadata,
            data: e.data,
          })}\n`,
        );
      }
      return 0;
    }
    if (command === 'rebuild' || command === 'projections' || command === 'sql') {
      const dataSource = createDataSource(url, {
        entities: READ_MODEL_ENTITIES,
        migrations: READ_MODEL_MIGRATIONS,
      });
      await dataSource.initialize();
      try {
        await runMigrations(dataSource);
        if (command === 'sql') {
          process.stdout.write(analystInstructions(await analystConnection(pool, url, config.dataDir)));
          return 0;
        }
        const runner = new ProjectionRunner({
          store,
          dataSource,
          projectors: PROJECTORS.map((make) => make()),
          databaseUrl: url,
        });
        if (command === 'rebuild') {
          const name = args[0];
          if (!PROJECTORS.some((make) => make().name === name)) {
            process.stderr.write(
              `unknown projection ${JSON.stringify(name ?? '')}; known: ${PROJECTORS.map((m) => m().name).join(', ')}\n`,
            );
            return 2;
          }
          await runner.rebuild(name);
          process.stdout.write(`rebuilt ${name}\n`);
        }
        process.stdout.write(`${JSON.stringify(await runner.status(), null, 2)}\n`);
        return 0;
      } finally {
        await dataSource.destroy();
      }
    }
    return usage();
  } finally {
    await store.close();
    await pool.end();
    await embedded?.stop();
  }
}

function usage(): number {
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : `ops failed: ${(error as Error).message}`}\n`,
    );
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
