import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStore, appendInvalidatedCache, type RecordedEvent } from '../../../event-store/src';
import type { RecentCache } from '../../../platform/src/cache/recent-cache';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { evolve, initialState, type StoredCredential } from '../domain/stored-credential';
import { StoredCredentialNotFound } from '../domain/stored-credential-errors';
import {
  STORED_CREDENTIAL_EVENT_TYPES,
  type StoredCredentialEvent,
} from '../domain/stored-credential-events';
import { storedCredentialStream } from '../domain/stored-credential-stream';
import { isVaultTokenFormat } from '../domain/vault-token';

/**
 * One stored credential, straight from its stream (so its state is never behind a read model).
 * A revoked credential still reads. One of another merchant or another partner reads exactly
 * like one that does not exist: 404 `stored_credential_not_found`.
 */
@Injectable()
export class StoredCredentialReader {
  private readonly recent: RecentCache<StoredCredential | null>;

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.recent = appendInvalidatedCache(store, STORED_CREDENTIAL_EVENT_TYPES, {
      maxAgeMs: config.readCacheMaxAgeMs,
      maxEntries: CACHED_CREDENTIALS,
    });
  }

  async history(storedCredentialId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(storedCredentialStream(storedCredentialId));
  }

  /** The credential as its events make it, revoked or not; null when the stream is empty. */
  async find(storedCredentialId: string): Promise<StoredCredential | null> {
    const events = await this.history(storedCredentialId);
    return events.reduce<StoredCredential | null>(
      (state, e) => evolve(state, { type: e.type, data: e.data } as StoredCredentialEvent),
      initialState(),
    );
  }

  /** The credential if it is this merchant's (of this partner); otherwise stored_credential_not_found. */
  async getForMerchant(
    storedCredentialId: string,
    merchantId: string,
    partnerId: string,
  ): Promise<StoredCredential> {
    const credential = await this.find(storedCredentialId);
    if (!credential || credential.merchantId !== merchantId || credential.partnerId !== partnerId) {
      throw new StoredCredentialNotFound(storedCredentialId);
    }
    return credential;
  }

  /**
   * The credential a vault token names, for this partner only: a token of another partner is
   * unknown (null), like a token that does not exist. The token is looked up in the
   * `stored_credential_list` read model; the credential itself is folded from its stream, so its
   * state (ACTIVE or REVOKED) is current. Callers decide what a revoked one means
   * (`assertChargeable`).
   */
  /** Whether the customer still has an ACTIVE credential (read model: call after its writes waited for it). */
  async hasActiveCredentials(customerId: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `select 1 from stored_credential_list where customer_id = $1 and state = 'ACTIVE' limit 1`,
      [customerId],
    );
    return rows.length > 0;
  }

  async findByVaultToken(partnerId: string, vaultToken: string): Promise<StoredCredential | null> {
    if (!isVaultTokenFormat(vaultToken)) return null;
    const { rows } = await this.pool.query<{ id: string }>({
      name: 'vault.credential_by_token',
      text: 'select id from stored_credential_list where vault_token = $1 and partner_id = $2',
      values: [vaultToken, partnerId],
    });
    if (!rows[0]) return null;
    const credential = await this.find(rows[0].id);
    return credential && credential.partnerId === partnerId ? credential : null;
  }

  /**
   * `findByVaultToken` as of at most `READ_CACHE_MAX_AGE_MS` ago (usually as of now: a change made
   * here shows at once, one made on another process as soon as its NOTIFY arrives), for a charge:
   * a revoked credential is refused everywhere within that bound. An unknown token is not cached.
   */
  findByVaultTokenCached(partnerId: string, vaultToken: string): Promise<StoredCredential | null> {
    return this.recent.get(
      `${partnerId}:${vaultToken}`,
      () => this.findByVaultToken(partnerId, vaultToken),
      (found) => found !== null,
    );
  }
}

/** Stored credentials kept by each process's cache (about a kilobyte each). */
const CACHED_CREDENTIALS = 20_000;
