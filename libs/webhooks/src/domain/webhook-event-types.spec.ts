import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PARTNER_EVENT_TYPES } from '../../../partners/src/domain';
import { WEBHOOK_ENDPOINT_EVENT_TYPES } from './webhook-endpoint-events';
import {
  DOMAIN_EVENT_WEBHOOK_TYPES,
  INTERNAL_EVENT_TYPES,
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_EVENT_TYPE_CATALOG,
  WEBHOOK_TEST_EVENT_TYPE,
  webhookTypesOf,
} from './webhook-event-types';
import { WEBHOOK_SOURCE_STREAMS } from './webhook-objects';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' ? [] : sources(file);
    return file.endsWith('.ts') && !/\.(spec|e2e)\.ts$/.test(file) ? [file] : [];
  });
}

/**
 * Every stored event type in the code, found the way the code declares one: an interface named
 * after its `type`, whose next member is `data` (`interface X { type: 'X'; data: … }`). Commands
 * (no `data`) and wire shapes are not events. A new event anywhere — a new context, a new stream
 * such as `contract-{id}` — shows up here.
 */
function domainEventTypesInTheCode(): string[] {
  const declaration = /interface\s+(\w+)\s*\{\s*type:\s*'(\w+)';\s*(?:\/\*\*[\s\S]*?\*\/\s*)?data\s*:/g;
  const found = new Set<string>();
  for (const file of [...sources(path.join(ROOT, 'libs')), ...sources(path.join(ROOT, 'apps'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(declaration)) {
      if (match[1] === match[2]) found.add(match[2]);
    }
  }
  return [...found].sort();
}

describe('the webhook event-type mapping', () => {
  const inCode = domainEventTypesInTheCode();

  it('finds the domain events of every stream (the scan itself works)', () => {
    const known = [
      ...PARTNER_EVENT_TYPES,
      ...WEBHOOK_ENDPOINT_EVENT_TYPES,
      ...WEBHOOK_SOURCE_STREAMS.flatMap((source) => source.eventTypes),
      'SandboxClockAdvanced',
      // A terminal's serial-number claim (a uniqueness guard on its own stream, no webhook source).
      'TerminalSerialNumberClaimed',
    ];
    expect([...new Set(known)].sort()).toEqual(inCode);
  });

  it('maps every domain event type a partner may see, or lists it as internal with a reason', () => {
    const unaccounted = inCode.filter(
      (type) => webhookTypesOf(type).length === 0 && INTERNAL_EVENT_TYPES[type] === undefined,
    );
    expect(unaccounted).toEqual([]);
  });

  it('never both maps a type and calls it internal; lists nothing that does not exist', () => {
    expect(inCode.filter((type) => webhookTypesOf(type).length > 0 && INTERNAL_EVENT_TYPES[type])).toEqual(
      [],
    );
    expect(Object.keys(INTERNAL_EVENT_TYPES).filter((type) => !inCode.includes(type))).toEqual([]);
    expect(Object.keys(DOMAIN_EVENT_WEBHOOK_TYPES).filter((type) => !inCode.includes(type))).toEqual([]);
  });

  it('maps to catalog types only, and every subscribable catalog type is sent by some event', () => {
    const mapped = new Set(Object.values(DOMAIN_EVENT_WEBHOOK_TYPES).flat());
    const catalog = WEBHOOK_EVENT_TYPE_CATALOG.map((entry) => entry.type);
    expect([...mapped].filter((type) => !catalog.includes(type))).toEqual([]);
    expect(SUBSCRIBABLE_EVENT_TYPES.filter((type) => !mapped.has(type))).toEqual([]);
    expect(new Set(catalog).size).toBe(catalog.length);
  });

  it('maps the five kinds the spec names', () => {
    expect(webhookTypesOf('TransactionReturned')).toEqual(['transaction.returned']);
    expect(webhookTypesOf('TransactionDisputed')).toEqual(['transaction.disputed', 'chargeback.received']);
    expect(webhookTypesOf('ThreeDsCompleted')).toEqual(['three_ds.completed']);
    expect(webhookTypesOf('HppSessionCompleted')).toEqual(['hpp_session.completed']);
  });

  it('maps merchant lifecycle, transaction, hosted-page, stored-credential and settlement events', () => {
    expect(webhookTypesOf('MerchantWentLive')).toEqual(['merchant.live']);
    expect(webhookTypesOf('TransactionApproved')).toEqual(['transaction.approved']);
    expect(webhookTypesOf('HppSessionExpired')).toEqual(['hpp_session.expired']);
    expect(webhookTypesOf('StoredCredentialRevoked')).toEqual(['stored_credential.revoked']);
    expect(webhookTypesOf('SettlementBatchOpened')).toEqual(['settlement_batch.opened']);
    expect(webhookTypesOf('SettlementBatchReconciled')).toEqual(['settlement_batch.reconciled']);
    expect(webhookTypesOf('ReconciliationExceptionOpened')).toEqual(['reconciliation_exception.opened']);
    expect(webhookTypesOf('SettlementBatchExceptionOutcomeRecorded')).toEqual([]);
    expect(webhookTypesOf('TerminalActivated')).toEqual(['terminal.activated']);
    expect(webhookTypesOf('TerminalHeartbeatRecorded')).toEqual([]);
  });

  it('maps each step of a recurring contract, its dunning included, and keeps its bookkeeping internal', () => {
    expect(webhookTypesOf('ContractCreated')).toEqual(['contract.created']);
    expect(webhookTypesOf('ContractInstallmentCharged')).toEqual(['contract.installment_charged']);
    expect(webhookTypesOf('ContractInstallmentFailed')).toEqual(['contract.installment_failed']);
    expect(webhookTypesOf('ContractRetryScheduled')).toEqual(['contract.retry_scheduled']);
    expect(webhookTypesOf('ContractInstallmentReturned')).toEqual(['contract.installment_returned']);
    expect(webhookTypesOf('ContractFailed')).toEqual(['contract.failed']);
    expect(webhookTypesOf('ContractInstallmentAttempted')).toEqual([]);
    expect(webhookTypesOf('ContractInstallmentAttemptWithdrawn')).toEqual([]);
    expect(webhookTypesOf('HppSessionContractLinked')).toEqual([]);
    const contractTypes = WEBHOOK_EVENT_TYPE_CATALOG.filter((entry) => entry.type.startsWith('contract.'));
    expect(contractTypes.length).toBe(12);
    expect(contractTypes.every((entry) => entry.object === 'contract')).toBe(true);
  });

  it('names each type in the spec’s form with a one-line description and its object', () => {
    for (const entry of WEBHOOK_EVENT_TYPE_CATALOG) {
      expect(entry.type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(entry.description).toMatch(/^[A-Z].+\.$/);
      expect(entry.description).not.toContain('\n');
    }
    expect(WEBHOOK_EVENT_TYPE_CATALOG.filter((entry) => !entry.subscribable).map((e) => e.type)).toEqual([
      WEBHOOK_TEST_EVENT_TYPE,
    ]);
  });
});
