import type { Pool } from 'pg';
import type { EventStore, RecordedEvent } from '../../../../libs/event-store/src';
import { createDataSource, runMigrations } from '../../../../libs/platform/src/database/data-source';
import { ProjectionRunner } from '../../../../libs/projections/src';
import {
  PROJECTORS,
  READ_MODEL_ENTITIES,
  READ_MODEL_MIGRATIONS,
  type ProjectorSettings,
} from '../../../../projections';
import { progressBar, type Output } from './output';
import { ensureReadOnlyRole, READ_ONLY_ROLE, readOnlyPassword, readOnlyRoleSql } from './read-only-role';

/** The operator CLI's commands (apps/api/src/ops.ts parses the arguments and connects). */

/** Events read per round trip by `history`: at most this many are in memory at once. */
export const HISTORY_PAGE = 1000;

/** Every event of `<aggregate>-<id>`, oldest first, a page at a time. */
export async function history(
  store: EventStore,
  out: Output,
  aggregate: string,
  id: string,
): Promise<number> {
  let count = 0;
  for (let from = 0n; ;) {
    const page: RecordedEvent[] = await store.readStream(`${aggregate}-${id}`, {
      fromRevision: from,
      limit: HISTORY_PAGE,
    });
    if (page.length === 0) break;
    out.rows(
      page.map((e) => ({
        revision: e.revision.toString(),
        global_position: e.globalPosition.toString(),
        type: e.type,
        recorded_at: e.recordedAt.toISOString(),
        ...(out.json
          ? { metadata: e.metadata, data: e.data }
          : {
              actor: e.metadata.actor,
              request_id: e.metadata.request_id,
              idempotency_key: e.metadata.idempotency_key,
            }),
      })),
    );
    count += page.length;
    if (page.length < HISTORY_PAGE) break;
    from = page[page.length - 1].revision + 1n;
  }
  if (count === 0) {
    process.stderr.write(`no events for ${aggregate} ${id}\n`);
    return 1;
  }
  out.note(`${count} events (--json for metadata and data in full)`);
  return 0;
}

export async function projections(
  store: EventStore,
  url: string,
  command: string,
  name: string | undefined,
  out: Output,
  settings: ProjectorSettings,
): Promise<number> {
  const dataSource = createDataSource(url, {
    entities: READ_MODEL_ENTITIES,
    migrations: READ_MODEL_MIGRATIONS,
  });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    const runner = new ProjectionRunner({
      store,
      dataSource,
      projectors: PROJECTORS.map((make) => make(settings)),
      databaseUrl: url,
    });
    if (command === 'rebuild') {
      const known = PROJECTORS.map((make) => make(settings).name);
      if (!name || !known.includes(name)) {
        process.stderr.write(
          `unknown projection ${JSON.stringify(name ?? '')}; known: ${known.join(', ')}\n`,
        );
        return 2;
      }
      const bar = progressBar(`rebuilding ${name}`);
      await runner.rebuild(name, {
        onProgress: ({ position, head }) => bar.update(Number(position), Number(head)),
      });
      bar.done();
      out.note(`rebuilt ${name}`);
    }
    out.rows(
      (await runner.status()).map((s) => ({ ...s })),
      ['name', 'state', 'checkpoint', 'head', 'lag', 'behind_head', 'last_error'],
    );
    return 0;
  } finally {
    await dataSource.destroy();
  }
}

export async function sql(
  pool: Pool,
  url: string,
  passwordFile: string,
  out: Output,
  alone: boolean,
): Promise<number> {
  const password = readOnlyPassword(passwordFile);
  let readOnlyUrl: string;
  try {
    readOnlyUrl = await ensureReadOnlyRole(pool, url, password);
  } catch (error) {
    process.stderr.write(
      `could not create the read-only role (${(error as Error).message}); a database administrator can run:\n` +
        `${readOnlyRoleSql('<password>').join(';\n')};\n`,
    );
    return 1;
  }
  out.record({ role: READ_ONLY_ROLE, url: readOnlyUrl, psql: `psql '${readOnlyUrl}'` });
  if (alone)
    out.note('No service is running: start it (npm start) before connecting, so the database is up.');
  out.note('Read only: every read model and event_store.events; see docs/analysts.md.');
  return 0;
}
