import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { AppConfig } from '../config/config';
import { createSecretFile, readSecretFile } from './secret-file';

export const VAULT_KEY_FILE = 'vault.key';

/**
 * The vault's key-encryption key (32 bytes): from `VAULT_KEY`, or in sandbox generated on first
 * start into `DATA_DIR/vault.key`, readable by the owner only. Production without `VAULT_KEY`
 * never gets here (configuration refuses to start). Never logged, never printed.
 */
export async function resolveVaultKey(
  config: Pick<AppConfig, 'vaultKey' | 'dataDir' | 'appEnv'>,
): Promise<Buffer> {
  if (config.vaultKey) return Buffer.from(config.vaultKey, 'base64');
  if (config.appEnv === 'production') throw new Error('VAULT_KEY is required in production');
  const file = path.resolve(config.dataDir, VAULT_KEY_FILE);
  const stored = await readSecretFile(file);
  if (stored !== null) {
    const key = Buffer.from(stored, 'base64');
    if (key.length !== 32) throw new Error(`${file} is damaged: it must hold the base64 of 32 bytes`);
    return key;
  }
  const key = randomBytes(32);
  await createSecretFile(file, key.toString('base64'));
  return key;
}
