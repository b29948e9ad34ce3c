import { createHash } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';

/** Advisory-lock key of this table's migration: a class of its own ('MDOC'), not shared with others. */
const DOCUMENTS_MIGRATE_LOCK: [number, number] = [0x4d444f43, 1];

const SCHEMA = `
create schema if not exists platform;
create table if not exists platform.merchant_documents (
  id uuid primary key,
  merchant_id uuid not null,
  partner_id uuid not null,
  sealed bytea not null,
  sha256 text not null,
  created_at timestamptz not null default now()
);
-- Only when missing: \`create index if not exists\` takes a share lock on the table before it looks,
-- which a process starting beside others' writes must not.
do $do$
begin
  if to_regclass('platform.merchant_documents_merchant') is null then
    create index merchant_documents_merchant on platform.merchant_documents (merchant_id);
  end if;
end
$do$;
`;

/**
 * The content of compliance documents, sealed at rest (AES-256-GCM under the vault key). A
 * platform table, not a read model: it cannot be rebuilt from events, which carry only metadata.
 *
 * Order of writes: the content is stored BEFORE `MerchantComplianceDocumentUploaded` is appended,
 * so an event never points to missing content. A crash in between leaves an orphan row no event
 * names: harmless (nothing lists or serves it), and an idempotent retry of the same request
 * derives the same document id and finds the row already there (`on conflict do nothing`).
 */
@Injectable()
export class DocumentStore implements OnModuleInit {
  constructor(
    private readonly pool: Pool,
    private readonly box: SealedBox,
  ) {}

  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, DOCUMENTS_MIGRATE_LOCK, SCHEMA);
  }

  async onModuleInit(): Promise<void> {
    await DocumentStore.migrate(this.pool);
  }

  /**
   * Seals and stores `content`; a second put of the same id keeps the first. Answers the
   * content's SHA-256 (lowercase hex), kept next to the sealed bytes and in the event.
   */
  async put(merchantId: string, partnerId: string, documentId: string, content: Buffer): Promise<string> {
    const sha256 = sha256Of(content);
    const sealed = this.box.seal(content, associatedData(merchantId, documentId));
    await this.pool.query(
      `insert into platform.merchant_documents (id, merchant_id, partner_id, sealed, sha256, created_at)
       values ($1, $2, $3, $4, $5, now())
       on conflict (id) do nothing`,
      [documentId, merchantId, partnerId, sealed, sha256],
    );
    return sha256;
  }

  /** The opened content, or null when no such document of this merchant is stored. */
  async get(merchantId: string, documentId: string): Promise<Buffer | null> {
    const { rows } = await this.pool.query<{ sealed: Buffer }>(
      'select sealed from platform.merchant_documents where id = $1 and merchant_id = $2',
      [documentId, merchantId],
    );
    if (rows.length === 0) return null;
    return this.box.open(rows[0].sealed, associatedData(merchantId, documentId));
  }
}

/** Binds a ciphertext to its merchant and document: copied to another row, it does not open. */
const associatedData = (merchantId: string, documentId: string): string =>
  `merchant-document:${merchantId}:${documentId}`;

export const sha256Of = (content: Buffer): string => createHash('sha256').update(content).digest('hex');
