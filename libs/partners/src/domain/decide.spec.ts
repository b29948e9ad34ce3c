import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, type PartnerCommand } from './decide';
import { evolve, initialState } from './partner';
import type { PartnerEvent } from './partner-events';
import { ApiKeyNotFound, PartnerAlreadyExists, PartnerNotFound } from './partner-errors';
import {
  CERTIFICATION_TRANSITIONS,
  nextCertificationStatus,
  CERTIFICATION_STATUSES,
} from './partner-transitions';

const ID = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const given = deciderSpec({ decide, evolve, initialState });

const create: PartnerCommand = {
  type: 'CreatePartner',
  partnerId: ID,
  name: 'Acme Software',
  contactEmail: 'ops@acme.test',
  contactName: 'Ada Acme',
  at: T0,
};
const created = (): PartnerEvent => ({
  type: 'PartnerCreated',
  data: {
    partnerId: ID,
    name: 'Acme Software',
    contactEmail: 'ops@acme.test',
    contactName: 'Ada Acme',
    dba: null,
    partnerType: 'ISV',
    commercialModel: 'RESELLER',
    businessAddress: null,
    rateLimitTier: 'STANDARD',
    avsDeclinePolicy: 'NEVER_DECLINE',
    createdAt: T0.toISOString(),
  },
});
const certified = (): PartnerEvent => ({
  type: 'PartnerCertified',
  data: { partnerId: ID, certifiedAt: T0.toISOString() },
});

describe('partner creation', () => {
  it('creates a PENDING partner with the platform defaults', () => given([]).when(create).then([created()]));

  it('starts PENDING, uncertified, at version 1', () =>
    given([])
      .when(create)
      .thenState((partner) =>
        expect(partner).toMatchObject({ state: 'PENDING', certificationStatus: 'PENDING', version: 1 }),
      ));

  it('refuses to create the same partner twice', () =>
    given([created()]).when(create).thenThrows(PartnerAlreadyExists, { code: 'partner_already_exists' }));
});

describe('partner configuration (operator-managed fields)', () => {
  it('records only the fields that change', () =>
    given([created()])
      .when({
        type: 'ChangePartnerConfig',
        partnerId: ID,
        rateLimitTier: 'ELEVATED',
        avsDeclinePolicy: 'NEVER_DECLINE',
        at: T1,
      })
      .then([
        {
          type: 'PartnerConfigChanged',
          data: { partnerId: ID, rateLimitTier: 'ELEVATED', changedAt: T1.toISOString() },
        },
      ]));

  it('records nothing when nothing changes', () =>
    given([created()])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, rateLimitTier: 'STANDARD', at: T1 })
      .then([]));

  it('bumps the version with each change', () =>
    given([created()])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, avsDeclinePolicy: 'DECLINE_ON_NO_MATCH', at: T1 })
      .thenState((partner) =>
        expect(partner).toMatchObject({ avsDeclinePolicy: 'DECLINE_ON_NO_MATCH', version: 2 }),
      ));

  it('answers partner_not_found for an unknown partner', () =>
    given([])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, rateLimitTier: 'ELEVATED', at: T1 })
      .thenThrows(PartnerNotFound, { code: 'partner_not_found' }));
});

describe('certification transitions', () => {
  it('PENDING → CERTIFIED (certify) makes the partner ACTIVE', () =>
    given([created()])
      .when({ type: 'SetCertificationStatus', partnerId: ID, status: 'CERTIFIED', at: T1 })
      .thenState((partner, events) => {
        expect(events).toEqual([
          { type: 'PartnerCertified', data: { partnerId: ID, certifiedAt: T1.toISOString() } },
        ]);
        expect(partner).toMatchObject({ certificationStatus: 'CERTIFIED', state: 'ACTIVE' });
      }));

  it('CERTIFIED → PENDING (reset_certification) takes the partner back to PENDING', () =>
    given([created(), certified()])
      .when({ type: 'SetCertificationStatus', partnerId: ID, status: 'PENDING', at: T1 })
      .thenState((partner, events) => {
        expect(events).toEqual([
          { type: 'PartnerCertificationReset', data: { partnerId: ID, resetAt: T1.toISOString() } },
        ]);
        expect(partner).toMatchObject({ certificationStatus: 'PENDING', state: 'PENDING' });
      }));

  it('setting the status it already has records nothing', () =>
    given([created(), certified()])
      .when({ type: 'SetCertificationStatus', partnerId: ID, status: 'CERTIFIED', at: T1 })
      .then([]));

  // Every row of the table, allowed and forbidden.
  for (const [action, rule] of Object.entries(CERTIFICATION_TRANSITIONS)) {
    for (const from of CERTIFICATION_STATUSES) {
      const allowed = (rule.from as readonly string[]).includes(from);
      it(`${action} from ${from} is ${allowed ? `allowed (→ ${rule.to})` : 'refused'}`, () => {
        const move = () => nextCertificationStatus(action as keyof typeof CERTIFICATION_TRANSITIONS, from);
        if (allowed) expect(move()).toBe(rule.to);
        else expect(move).toThrow(InvalidStateTransition);
      });
    }
  }
});

describe('API keys', () => {
  const KEY = '9d3e5f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
  const issued = (): PartnerEvent => ({
    type: 'ApiKeyIssued',
    data: {
      partnerId: ID,
      keyId: KEY,
      prefix: 'abcdEFGH',
      keyHash: 'h1',
      scopes: ['partner:read'],
      issuedAt: T0.toISOString(),
    },
  });

  it('issues a key, recording only its prefix and hash', () =>
    given([created()])
      .when({
        type: 'IssueApiKey',
        partnerId: ID,
        keyId: KEY,
        prefix: 'abcdEFGH',
        keyHash: 'h1',
        scopes: ['partner:read'],
        at: T0,
      })
      .then([
        issued(),
        // The first key issued is certification evidence, recorded with it.
        {
          type: 'CertificationFactObserved',
          data: { partnerId: ID, fact: 'API_KEY_ISSUED', observedAt: T0.toISOString() },
        },
      ]));

  it('records the API_KEY_ISSUED fact only once', () =>
    given([
      created(),
      issued(),
      {
        type: 'CertificationFactObserved',
        data: { partnerId: ID, fact: 'API_KEY_ISSUED', observedAt: T0.toISOString() },
      },
    ])
      .when({
        type: 'IssueApiKey',
        partnerId: ID,
        keyId: 'a0000000-0000-4000-8000-000000000002',
        prefix: 'zzzzZZZZ',
        keyHash: 'h9',
        scopes: ['partner:read'],
        at: T1,
      })
      .thenState((_, events) => expect(events.map((e) => e.type)).toEqual(['ApiKeyIssued'])));

  it('rotates a live key: new prefix and hash, same id', () =>
    given([created(), issued()])
      .when({ type: 'RotateApiKey', partnerId: ID, keyId: KEY, prefix: 'zyxwVUTS', keyHash: 'h2', at: T1 })
      .thenState((partner) =>
        expect(partner?.apiKeys[KEY]).toMatchObject({
          prefix: 'zyxwVUTS',
          keyHash: 'h2',
          createdAt: T0.toISOString(),
          secretIssuedAt: T1.toISOString(),
          revokedAt: null,
        }),
      ));

  it('revokes a live key', () =>
    given([created(), issued()])
      .when({ type: 'RevokeApiKey', partnerId: ID, keyId: KEY, at: T1 })
      .then([{ type: 'ApiKeyRevoked', data: { partnerId: ID, keyId: KEY, revokedAt: T1.toISOString() } }]));

  it.each(['RotateApiKey', 'RevokeApiKey'] as const)('%s of an unknown key is api_key_not_found', (type) =>
    given([created()])
      .when(
        type === 'RotateApiKey'
          ? { type, partnerId: ID, keyId: KEY, prefix: 'p', keyHash: 'h', at: T1 }
          : { type, partnerId: ID, keyId: KEY, at: T1 },
      )
      .thenThrows(ApiKeyNotFound, { code: 'api_key_not_found' }),
  );

  it.each(['RotateApiKey', 'RevokeApiKey'] as const)('%s of a revoked key is api_key_not_found', (type) =>
    given([
      created(),
      issued(),
      { type: 'ApiKeyRevoked', data: { partnerId: ID, keyId: KEY, revokedAt: T1.toISOString() } },
    ])
      .when(
        type === 'RotateApiKey'
          ? { type, partnerId: ID, keyId: KEY, prefix: 'p', keyHash: 'h', at: T1 }
          : { type, partnerId: ID, keyId: KEY, at: T1 },
      )
      .thenThrows(ApiKeyNotFound),
  );
});
