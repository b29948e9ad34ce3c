import { rmSync } from 'node:fs';
import type { EmbeddedPostgres } from '../../libs/platform/src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as Record<string, unknown>).__EMBEDDED_PG__ as
    { db: EmbeddedPostgres; dir: string } | undefined;
  if (!started) return;
  await started.db.stop();
  rmSync(started.dir, { recursive: true, force: true });
}
