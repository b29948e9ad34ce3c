import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';

const SCHEMA = `
create schema if not exists platform;
create table if not exists platform.merchant_bank_accounts (
  ref uuid primary key,
  merchant_id uuid not null,
  partner_id uuid not null,
  sealed bytea not null,
  created_at timestamptz not null default now()
);`;

export interface BankAccountNumbers {
  routingNumber: string;
  accountNumber: string;
}

/**
 * The full routing and account numbers of settlement accounts, sealed under the vault key and
 * bound to their merchant. Events only name the record (`accountRef`). The record is written
 * before its event, so an event never points at nothing; a record left by a crash before the
 * event is unreachable and harmless.
 */
@Injectable()
export class BankAccountVault implements OnModuleInit {
  constructor(
    private readonly pool: Pool,
    private readonly box: SealedBox,
  ) {}

  async onModuleInit(): Promise<void> {
    await migrateWithLock(this.pool, [0x1de0, 3], SCHEMA);
  }

  async put(ref: string, merchantId: string, partnerId: string, numbers: BankAccountNumbers): Promise<void> {
    const sealed = this.box.seal(Buffer.from(JSON.stringify(numbers)), aad(merchantId, ref));
    await this.pool.query(
      `insert into platform.merchant_bank_accounts (ref, merchant_id, partner_id, sealed)
       values ($1, $2, $3, $4) on conflict (ref) do nothing`,
      [ref, merchantId, partnerId, sealed],
    );
  }

  async get(ref: string, merchantId: string): Promise<BankAccountNumbers | null> {
    const { rows } = await this.pool.query<{ sealed: Buffer }>(
      'select sealed from platform.merchant_bank_accounts where ref = $1 and merchant_id = $2',
      [ref, merchantId],
    );
    if (!rows[0]) return null;
    return JSON.parse(
      this.box.open(rows[0].sealed, aad(merchantId, ref)).toString('utf8'),
    ) as BankAccountNumbers;
  }
}

function aad(merchantId: string, ref: string): string {
  return `merchant-bank-account:${merchantId}:${ref}`;
}
