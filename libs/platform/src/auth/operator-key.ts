import * as path from 'node:path';
import type { AppConfig } from '../config/config';
import { createSecretFile, readSecretFile } from '../crypto/secret-file';
import { generateKey, hashKey, keyMatches } from './secret-key';

/**
 * The platform operator's key. Only its hash is held: from `PLATFORM_OPERATOR_KEY`, or, in
 * sandbox when that is unset, generated on first start, printed once to standard output (not
 * to the JSON log) and remembered as a hash in `DATA_DIR/operator-key.sha256`. Production
 * without the variable never gets here: configuration refuses to start.
 */
export class OperatorKey {
  constructor(private readonly hash: string) {}

  matches(presented: string): boolean {
    return keyMatches(presented, this.hash);
  }

  /** A stable secret-derived value, e.g. to sign pagination cursors. */
  get fingerprint(): string {
    return this.hash;
  }
}

export const OPERATOR_KEY_FILE = 'operator-key.sha256';

export async function resolveOperatorKey(
  config: Pick<AppConfig, 'platformOperatorKey' | 'dataDir' | 'appEnv'>,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<OperatorKey> {
  if (config.platformOperatorKey) return new OperatorKey(hashKey(config.platformOperatorKey));
  if (config.appEnv === 'production') {
    throw new Error('PLATFORM_OPERATOR_KEY is required in production');
  }
  const file = path.resolve(config.dataDir, OPERATOR_KEY_FILE);
  const stored = await readSecretFile(file);
  if (stored !== null) {
    if (/^[0-9a-f]{64}$/.test(stored)) return new OperatorKey(stored);
    throw new Error(`${file} is damaged: delete it to generate a new operator key`);
  }
  const { key, hash } = generateKey('cop');
  await createSecretFile(file, hash);
  print(
    [
      '',
      '  Sandbox operator key (shown once; only its hash is kept in ' + file + '):',
      '',
      `    ${key}`,
      '',
      '  Use it as "Authorization: Bearer <key>" on /api/v1/platform/... Lost it? Stop the',
      '  service, delete that file and start again to get a new one.',
      '',
    ].join('\n'),
  );
  return new OperatorKey(hash);
}
