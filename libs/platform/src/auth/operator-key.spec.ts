import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OPERATOR_KEY_FILE, resolveOperatorKey } from './operator-key';
import { generateKey, hashKey } from './secret-key';

describe('resolveOperatorKey', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'opkey-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('uses PLATFORM_OPERATOR_KEY when set and writes nothing', async () => {
    const { key } = generateKey('cop');
    const op = await resolveOperatorKey({ platformOperatorKey: key, dataDir: dir, appEnv: 'sandbox' });
    expect(op.matches(key)).toBe(true);
    expect(op.matches(generateKey('cop').key)).toBe(false);
    await expect(stat(path.join(dir, OPERATOR_KEY_FILE))).rejects.toThrow();
  });

  it('generates one in sandbox, prints it once, keeps only the hash, and reuses it', async () => {
    const printed: string[] = [];
    const first = await resolveOperatorKey(
      { platformOperatorKey: null, dataDir: dir, appEnv: 'sandbox' },
      (l) => printed.push(l),
    );
    const key = /cop_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,}/.exec(printed.join('\n'))?.[0];
    expect(key).toBeDefined();
    expect(first.matches(key!)).toBe(true);
    const stored = await readFile(path.join(dir, OPERATOR_KEY_FILE), 'utf8');
    expect(stored.trim()).toBe(hashKey(key!));
    expect(stored).not.toContain(key!);
    expect((await stat(path.join(dir, OPERATOR_KEY_FILE))).mode & 0o777).toBe(0o600);

    const again: string[] = [];
    const second = await resolveOperatorKey(
      { platformOperatorKey: null, dataDir: dir, appEnv: 'sandbox' },
      (l) => again.push(l),
    );
    expect(again).toEqual([]);
    expect(second.matches(key!)).toBe(true);
  });

  it('refuses production without a key', async () => {
    await expect(
      resolveOperatorKey({ platformOperatorKey: null, dataDir: dir, appEnv: 'production' }),
    ).rejects.toThrow(/PLATFORM_OPERATOR_KEY/);
  });
});
