import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import {
  cardNumberProblem,
  detectBrand,
  lastFour,
  normalizePan,
  parseExpMonth,
  parseExpYear,
  type CardFunding,
  PaymentGateway,
} from '../../../gateway/src';
import { isAbaRoutingNumber } from '../../../platform/src/banking/aba';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';
import type { BankAccountType, BankDisplay, CardDisplay } from '../domain/stored-credential-events';
import { isVaultTokenFormat, VAULT_TOKEN_RANDOM_BYTES, vaultTokenFrom } from '../domain/vault-token';

const SCHEMA = `
create schema if not exists platform;
create table if not exists platform.vault_entries (
  token text primary key,
  partner_id uuid not null,
  merchant_id uuid not null,
  kind text not null check (kind in ('card', 'ach')),
  sealed bytea not null,
  created_at timestamptz not null default now()
);`;

/** Advisory lock key of the vault's schema migration ('VAUL', 1). */
export const VAULT_MIGRATION_LOCK: [number, number] = [0x5641554c, 1];

/**
 * A card as the vault keeps it. There is deliberately no CVC: the CVC is used once, at
 * tokenization (the gateway call of the save-card session), and discarded; it is never sealed,
 * stored, logged or put in an event (PCI DSS 3.3.2).
 */
export interface VaultCard {
  kind: 'card';
  pan: string;
  expMonth: number;
  expYear: number;
  /** Billing postal code, for address verification on later charges (not card data). */
  postalCode?: string | null;
}

export interface VaultBankAccount {
  kind: 'ach';
  routingNumber: string;
  accountNumber: string;
  accountType: BankAccountType;
}

export type VaultInstrument = VaultCard | VaultBankAccount;

/** What may leave the vault: the display data of one entry (maps straight onto the event). */
export type VaultDisplay =
  | { paymentMethodType: 'card'; card: CardDisplay; bank: null }
  | { paymentMethodType: 'ach'; card: null; bank: BankDisplay };

/** A vault entry that fails to open: its bytes or its owner columns were altered. */
export class VaultIntegrityError extends Error {
  constructor(token: string) {
    // Names the token's prefix only; the token itself is a credential.
    super(`vault entry ${token.slice(0, 8)}… failed its integrity check`);
    this.name = 'VaultIntegrityError';
  }
}

/** A store call whose instrument is not valid; the message never contains the numbers. */
export class VaultInstrumentInvalid extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field} ${message}`);
    this.name = 'VaultInstrumentInvalid';
  }
}

/**
 * The card and bank vault: full instrument numbers sealed with AES-256-GCM under the vault key,
 * bound to their partner and token by the associated data `vault:<partnerId>:<token>`, so a
 * ciphertext copied to another row or another partner does not open. Tokens are partner-scoped:
 * a token of another partner reads exactly like an unknown one (null). Only {@link VaultDisplay}
 * ever leaves it, except through {@link CardVault.reveal}, which exists for the gateway call.
 */
@Injectable()
export class CardVault implements OnModuleInit {
  constructor(
    private readonly pool: Pool,
    private readonly box: SealedBox,
    /** Card funding (credit, debit, prepaid) is the processor's BIN data, asked at display time. */
    private readonly gateway: PaymentGateway,
  ) {}

  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, VAULT_MIGRATION_LOCK, SCHEMA);
  }

  async onModuleInit(): Promise<void> {
    await CardVault.migrate(this.pool);
  }

  /** Seals the instrument and answers its new token and display data. */
  async store(
    partnerId: string,
    merchantId: string,
    instrument: VaultInstrument,
  ): Promise<{ token: string; display: VaultDisplay }> {
    const kept = canonical(instrument);
    const token = vaultTokenFrom(randomBytes(VAULT_TOKEN_RANDOM_BYTES));
    const sealed = this.box.seal(Buffer.from(JSON.stringify(kept), 'utf8'), aad(partnerId, token));
    await this.pool.query(
      `insert into platform.vault_entries (token, partner_id, merchant_id, kind, sealed)
       values ($1, $2, $3, $4, $5)`,
      [token, partnerId, merchantId, kept.kind, sealed],
    );
    return { token, display: await this.displayOf(kept) };
  }

  /**
   * The full instrument, for the gateway call only (never for a response, a log or an event).
   * null when the token is unknown or belongs to another partner (the same answer).
   * Throws {@link VaultIntegrityError} when the entry was tampered with.
   */
  async reveal(partnerId: string, token: string): Promise<VaultInstrument | null> {
    if (!isVaultTokenFormat(token)) return null;
    const { rows } = await this.pool.query<{ sealed: Buffer }>({
      name: 'vault.reveal',
      text: 'select sealed from platform.vault_entries where token = $1 and partner_id = $2',
      values: [token, partnerId],
    });
    if (!rows[0]) return null;
    let plaintext: Buffer;
    try {
      plaintext = this.box.open(rows[0].sealed, aad(partnerId, token));
    } catch {
      throw new VaultIntegrityError(token);
    }
    return JSON.parse(plaintext.toString('utf8')) as VaultInstrument;
  }

  /** The display data of an entry; null when unknown or another partner's. */
  async display(partnerId: string, token: string): Promise<VaultDisplay | null> {
    const instrument = await this.reveal(partnerId, token);
    return instrument && this.displayOf(instrument);
  }

  private async displayOf(instrument: VaultInstrument): Promise<VaultDisplay> {
    const funding = instrument.kind === 'card' ? await this.gateway.cardFunding(instrument.pan) : null;
    return displayOf(instrument, funding);
  }
}

function aad(partnerId: string, token: string): string {
  return `vault:${partnerId}:${token}`;
}

/**
 * Validates and keeps exactly the fields the vault stores, picked one by one: anything else
 * passed at run time (a `cvc`, a name) is dropped, never sealed.
 */
function canonical(instrument: VaultInstrument): VaultInstrument {
  if (instrument.kind === 'card') {
    const pan = normalizePan(instrument.pan);
    const problem = cardNumberProblem(pan);
    if (problem) throw new VaultInstrumentInvalid('card_number', problem);
    const expMonth = parseExpMonth(instrument.expMonth);
    const expYear = parseExpYear(instrument.expYear);
    if (expMonth === null) throw new VaultInstrumentInvalid('exp_month', 'must be a month from 1 to 12');
    if (expYear === null) throw new VaultInstrumentInvalid('exp_year', 'must be a four-digit year');
    const postalCode = typeof instrument.postalCode === 'string' ? instrument.postalCode.trim() : null;
    if (postalCode !== null && !/^[A-Za-z0-9 -]{3,10}$/.test(postalCode)) {
      throw new VaultInstrumentInvalid('postal_code', 'must be 3 to 10 letters, digits, spaces or dashes');
    }
    return { kind: 'card', pan, expMonth, expYear, postalCode: postalCode || null };
  }
  if (instrument.kind === 'ach') {
    if (!isAbaRoutingNumber(instrument.routingNumber)) {
      throw new VaultInstrumentInvalid('routing_number', 'must be a valid ABA routing number');
    }
    if (!/^[0-9]{4,17}$/.test(instrument.accountNumber)) {
      throw new VaultInstrumentInvalid('account_number', 'must be 4 to 17 digits');
    }
    if (instrument.accountType !== 'CHECKING' && instrument.accountType !== 'SAVINGS') {
      throw new VaultInstrumentInvalid('account_type', 'must be CHECKING or SAVINGS');
    }
    return {
      kind: 'ach',
      routingNumber: instrument.routingNumber,
      accountNumber: instrument.accountNumber,
      accountType: instrument.accountType,
    };
  }
  throw new VaultInstrumentInvalid('kind', 'must be card or ach');
}

function displayOf(instrument: VaultInstrument, funding: CardFunding | null): VaultDisplay {
  if (instrument.kind === 'card') {
    return {
      paymentMethodType: 'card',
      card: {
        brand: detectBrand(instrument.pan),
        last4: lastFour(instrument.pan),
        expMonth: instrument.expMonth,
        expYear: instrument.expYear,
        funding: funding ?? 'credit',
      },
      bank: null,
    };
  }
  return {
    paymentMethodType: 'ach',
    card: null,
    bank: {
      routingLast4: instrument.routingNumber.slice(-4),
      accountLast4: instrument.accountNumber.slice(-4),
      accountType: instrument.accountType,
    },
  };
}
