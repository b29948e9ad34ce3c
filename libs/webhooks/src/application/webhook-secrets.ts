import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';

/** Standard Webhooks' secret prefix; the rest is the base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: the HMAC-SHA256 key length. */
export const SECRET_BYTES = 32;

/**
 * Endpoint signing secrets: made here, sealed under the vault key (AES-256-GCM, bound to the
 * endpoint, see SealedBox) before they reach a command, an event or a table, and opened only to
 * sign a delivery or to show the secret to the partner in the answer that created it.
 */
@Injectable()
export class WebhookSecrets {
  /** Opened secrets by sealed text: signing opens each one once, not per delivery. */
  private readonly opened = new Map<string, Buffer>();

  constructor(private readonly box: SealedBox) {}

  /** A fresh `whsec_…` secret and its sealed form for the endpoint's events. */
  generate(endpointId: string): { secret: string; sealed: string } {
    const key = randomBytes(SECRET_BYTES);
    return {
      secret: `${SECRET_PREFIX}${key.toString('base64')}`,
      sealed: this.box.seal(key, aad(endpointId)).toString('base64'),
    };
  }

  /** The `whsec_…` text of a sealed secret (the create or rotate answer). */
  reveal(endpointId: string, sealed: string): string {
    return `${SECRET_PREFIX}${this.key(endpointId, sealed).toString('base64')}`;
  }

  /** The HMAC key of a sealed secret. */
  key(endpointId: string, sealed: string): Buffer {
    const cached = this.opened.get(sealed);
    if (cached) return cached;
    const key = this.box.open(Buffer.from(sealed, 'base64'), aad(endpointId));
    if (this.opened.size >= 10_000) this.opened.clear();
    this.opened.set(sealed, key);
    return key;
  }
}

function aad(endpointId: string): string {
  return `webhook-endpoint-secret:${endpointId}`;
}

/**
 * The Standard Webhooks `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * for each key, space-separated (two during the 24 hours after a rotation).
 */
export function signatureHeader(
  keys: readonly Buffer[],
  id: string,
  timestamp: number,
  body: string,
): string {
  const content = `${id}.${timestamp}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(content).digest('base64')}`).join(' ');
}
