import { deciderSpec } from '../../../../../test/support/decider-spec';
import { decide } from '../decide';
import { evolve, initialState } from '../partner';
import type { PartnerEvent } from '../partner-events';
import { IpAllowlistExcludesCaller, PartnerSettingsInvalid } from './configuration-errors';
import type { UpdatePartnerSettings } from './configuration-decide';
import { allowlistAdmits } from './partner-settings-validation';

/**
 * Issue: a partner could set an `ip_allowlist` without its own address, after which every call
 * (the one that would undo it included) was 403, and the operator could not change the list.
 */
const ID = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const given = deciderSpec({ decide, evolve, initialState });

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
const listSet = (ipAllowlist: string[]): PartnerEvent => ({
  type: 'PartnerSettingsChanged',
  data: { partnerId: ID, ipAllowlist, changedAt: T1.toISOString() },
});
const fromPartner = (ipAllowlist: string[], callerAddress: string): UpdatePartnerSettings => ({
  type: 'UpdatePartnerSettings',
  partnerId: ID,
  ipAllowlist,
  environment: 'production',
  callerAddress,
  at: T1,
});

describe("a partner's own ip_allowlist change", () => {
  it('is refused (422 ip_allowlist_excludes_caller, naming ip_allowlist) when it leaves out the caller', () =>
    given([created()])
      .when(fromPartner(['10.0.0.0/8'], '203.0.113.9'))
      .thenThrows(IpAllowlistExcludesCaller, {
        code: 'ip_allowlist_excludes_caller',
        errors: [{ field: 'ip_allowlist', message: expect.stringContaining('203.0.113.9') }],
      }));

  it('is refused for an IPv6-only list when the caller is IPv4', () =>
    given([created()])
      .when(fromPartner(['::/0'], '127.0.0.1'))
      .thenThrows(IpAllowlistExcludesCaller));

  it('is taken when a range covers the caller', () =>
    given([created()])
      .when(fromPartner(['10.0.0.0/8', '203.0.113.0/24'], '203.0.113.9'))
      .then([listSet(['10.0.0.0/8', '203.0.113.0/24'])]));

  it('matches an IPv4 caller seen through an IPv6 socket as that IPv4 address', () =>
    given([created()])
      .when(fromPartner(['127.0.0.1'], '::ffff:127.0.0.1'))
      .then([listSet(['127.0.0.1/32'])]));

  it('lets the partner lift the restriction with []', () =>
    given([created(), listSet(['203.0.113.0/24'])])
      .when(fromPartner([], '203.0.113.9'))
      .then([listSet([])]));

  it('reports bad entries (400) before the caller check', () =>
    given([created()])
      .when(fromPartner(['1.2.3.4/24'], '203.0.113.9'))
      .thenThrows(PartnerSettingsInvalid, { code: 'validation_error' }));
});

describe("the operator's ip_allowlist change (PATCH /platform/partners/{id}/config)", () => {
  it('resets a list that shuts the partner out', () =>
    given([created(), listSet(['192.0.2.0/24'])])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, ipAllowlist: [], at: T1 })
      .then([listSet([])]));

  it('sets any valid list: the operator is not the partner, so its address is not checked', () =>
    given([created()])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, ipAllowlist: ['198.51.100.7'], at: T1 })
      .then([listSet(['198.51.100.7/32'])]));

  it('records the tier and the list in one decision', () =>
    given([created()])
      .when({
        type: 'ChangePartnerConfig',
        partnerId: ID,
        rateLimitTier: 'ELEVATED',
        ipAllowlist: ['::1'],
        at: T1,
      })
      .then([
        {
          type: 'PartnerConfigChanged',
          data: { partnerId: ID, rateLimitTier: 'ELEVATED', changedAt: T1.toISOString() },
        },
        listSet(['::1/128']),
      ]));

  it('leaves the list alone when it is null or omitted', () =>
    given([created(), listSet(['192.0.2.0/24'])])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, ipAllowlist: null, at: T1 })
      .then([]));

  it('refuses bad entries like the partner', () =>
    given([created()])
      .when({ type: 'ChangePartnerConfig', partnerId: ID, ipAllowlist: ['garbage'], at: T1 })
      .thenThrows(PartnerSettingsInvalid, { code: 'validation_error' }));
});

describe('allowlistAdmits', () => {
  it.each<[string[], string, boolean]>([
    [[], '203.0.113.9', true],
    [['203.0.113.0/24'], '203.0.113.9', true],
    [['203.0.113.0/24'], '203.0.114.9', false],
    [['127.0.0.1/32'], '::ffff:127.0.0.1', true],
    [['::1/128'], '::1', true],
    [['::1/128'], '[::1]', true],
    [['fe80::/10'], 'fe80::1%eth0', true],
    [['::/0'], '127.0.0.1', false],
    [['0.0.0.0/0'], '2001:db8::1', false],
    [['0.0.0.0/0'], 'not an address', false],
  ])('%j admits %s: %p', (entries, address, admitted) =>
    expect(allowlistAdmits(entries, address)).toBe(admitted),
  );
});
