import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * A secret the sandbox generates once and keeps in DATA_DIR (the operator key's hash, the vault
 * key): readable by the owner only, never overwritten (`wx`: a second instance racing on a fresh
 * directory fails instead of replacing the first one's secret).
 */
export async function readSecretFile(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function createSecretFile(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${content}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600); // the umask may have narrowed the mode; never widened
}
