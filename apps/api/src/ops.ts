import 'reflect-metadata';
import * as path from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../../libs/event-store/src';
import { SystemClock } from '../../../libs/platform/src/clock/clock';
import { ConfigError, loadConfig } from '../../../libs/platform/src/config/config';
import {
  runningEmbeddedPostgresUrl,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../../../libs/platform/src/database/embedded-postgres';
import { UUID } from '../../../libs/platform/src/validation/uuid';
import { history, projections, sql } from './ops/commands';
import { outputFor } from './ops/output';
import { READ_ONLY_ROLE } from './ops/read-only-role';

/**
 * The operator's command line (CONTRACT §2), beside a running service (it connects to the
 * embedded database the service holds) or alone (it starts that database itself). Every command
 * takes `--help`; output is a table on a terminal and JSON lines when piped or with `--json`.
 */
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
  'terminal',
  'terminal_serial',
];

const HELP: Record<string, string> = {
  '': `npm run ops -- <command> [--json] [--help]

commands:
  history <aggregate> <id>   every event of one stream, oldest first, with its metadata
  projections                each read model's state, checkpoint, lag and last error
  rebuild <projection>       rebuild one read model from the events and swap it in
  sql                        how to connect to the database read-only (psql, an analyst's tool)

Output is a table on a terminal and JSON lines when piped or with --json.
Works beside a running service (DATA_DIR, or DATABASE_URL) or alone.`,
  history: `npm run ops -- history <aggregate> <id> [--json]

  <aggregate>  ${AGGREGATES.join(', ')}
  <id>         the record's UUID

Every event of <aggregate>-<id>, oldest first: revision, global position, type, time, metadata
(actor, request id, idempotency key, causation) and data. Streamed page by page: a stream of any
length is printed in constant memory. Exit 1 when the stream has no events.`,
  projections: `npm run ops -- projections [--json]

Each projector's state (running, failed, rebuilding, stopped) as the running service has it, its
checkpoint, lag (events of its types still to apply), distance to the head, and last error.`,
  rebuild: `npm run ops -- rebuild <projection> [--json]

Rebuilds one read model from the first event into fresh tables and swaps them in; the service
keeps answering from the old tables meanwhile. Shows a progress bar with an ETA on a terminal.`,
  sql: `npm run ops -- sql [--json]

Creates (or refreshes) the read-only role ${READ_ONLY_ROLE} and prints how to connect as it: every
read model and the event log can be read, nothing can be written. Its password is kept in
DATA_DIR/.readonly-password (owner-only). See docs/analysts.md for the tables and views.`,
};

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json') || !process.stdout.isTTY;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const [command = '', ...args] = argv.filter((a) => !a.startsWith('--') && a !== '-h');
  if (wantsHelp || command === 'help' || command === '') {
    const topic = command === 'help' ? (args[0] ?? '') : command;
    process.stdout.write(`${HELP[topic] ?? HELP['']}\n`);
    return command === '' && !wantsHelp ? 2 : 0;
  }
  if (!HELP[command]) return usage(`unknown command ${JSON.stringify(command)}`);
  if (command === 'history' && (!AGGREGATES.includes(args[0]) || !UUID.test(args[1] ?? ''))) {
    return usage(HELP.history);
  }
  const out = outputFor(json);
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
    switch (command) {
      case 'history':
        return await history(store, out, args[0], args[1].toLowerCase());
      case 'sql':
        return await sql(
          pool,
          url,
          path.resolve(config.dataDir, '.readonly-password'),
          out,
          Boolean(embedded),
        );
      default:
        return await projections(store, url, command, args[0], out, config);
    }
  } finally {
    await store.close();
    await pool.end();
    await embedded?.stop();
  }
}

function usage(text: string): number {
  process.stderr.write(`${text}\n`);
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
