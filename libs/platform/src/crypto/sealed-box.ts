import { hkdfSync, createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;

/**
 * Encryption at rest: AES-256-GCM under the vault key, a fresh 96-bit nonce per record, and
 * associated data binding the ciphertext to its owner (e.g. `document:<merchantId>:<id>`), so a
 * ciphertext copied to another record does not decrypt. Layout: version(1) | iv(12) | tag(16) | ct.
 */
export class SealedBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the vault key must be 32 bytes');
  }

  /**
   * A 32-byte subkey for another purpose (HKDF-SHA256 over the vault key, the purpose as info), so
   * one configured secret serves several uses without any of them learning the vault key.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `derived:${purpose}`, 32));
  }

  seal(plaintext: Buffer, associatedData: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer, associatedData: string): Buffer {
    if (sealed.length < 29 || sealed[0] !== VERSION)
      throw new Error('not a sealed record of a known version');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
  }
}
