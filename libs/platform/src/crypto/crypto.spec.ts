import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SealedBox } from './sealed-box';
import { resolveVaultKey, VAULT_KEY_FILE } from './vault-key';

describe('SealedBox', () => {
  const box = new SealedBox(randomBytes(32));

  it('round-trips and hides the plaintext', () => {
    const secret = Buffer.from('4111111111111111');
    const sealed = box.seal(secret, 'doc:m1:d1');
    expect(sealed.includes(secret)).toBe(false);
    expect(box.open(sealed, 'doc:m1:d1')).toEqual(secret);
    expect(box.seal(secret, 'doc:m1:d1')).not.toEqual(sealed); // fresh nonce each time
  });

  it('refuses another owner, a tampered byte and another key', () => {
    const sealed = box.seal(Buffer.from('data'), 'doc:m1:d1');
    expect(() => box.open(sealed, 'doc:m2:d1')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => box.open(tampered, 'doc:m1:d1')).toThrow();
    expect(() => new SealedBox(randomBytes(32)).open(sealed, 'doc:m1:d1')).toThrow();
    expect(() => new SealedBox(randomBytes(16))).toThrow();
  });
});

describe('resolveVaultKey', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'vault-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('uses VAULT_KEY when set', async () => {
    const key = randomBytes(32);
    expect(
      await resolveVaultKey({ vaultKey: key.toString('base64'), dataDir: dir, appEnv: 'sandbox' }),
    ).toEqual(key);
  });

  it('generates one in sandbox with owner-only permissions and keeps it', async () => {
    const first = await resolveVaultKey({ vaultKey: null, dataDir: dir, appEnv: 'sandbox' });
    expect(first).toHaveLength(32);
    const file = path.join(dir, VAULT_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.toString('base64'));
    expect(await resolveVaultKey({ vaultKey: null, dataDir: dir, appEnv: 'sandbox' })).toEqual(first);
  });

  it('refuses production without a key', async () => {
    await expect(resolveVaultKey({ vaultKey: null, dataDir: dir, appEnv: 'production' })).rejects.toThrow(
      /VAULT_KEY/,
    );
  });
});
