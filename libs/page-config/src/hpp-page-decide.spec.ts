import { deciderSpec } from '../../../test/support/decider-spec';
import { statusForCode } from '../../platform/src/problem';
import { DEFAULT_APPEARANCE, PRESETS, resolveAppearance, type Appearance } from './appearance';
import { EMBEDDING_DOMAINS_MAX } from './embedding-domains';
import {
  evolveHppMerchantPage,
  evolveHppTemplate,
  initialHppMerchantPageState,
  initialHppTemplateState,
  type HppMerchantPageState,
  type HppTemplateState,
} from './hpp-page';
import {
  decideHppMerchantPage,
  decideHppTemplate,
  type HppMerchantPageCommand,
  type HppTemplateCommand,
  type SetHppOverride,
  type SetHppTemplate,
} from './hpp-page-decide';
import {
  EmbeddingDomainsLimit,
  HPP_PAGE_PROBLEM_STATUS,
  HppPageConfigInvalid,
  HppPageConfigNotFound,
} from './hpp-page-errors';
import type { HppMerchantPageEvent, HppPageTemplateEvent } from './hpp-page-events';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const MERCHANT = '9d3e5f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const CONFIG_1 = '0b6a4b8e-0c57-4b6e-9a37-6a2f0c3f9d11';
const CONFIG_2 = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');

const fieldsOf = (error: unknown) => ((error as HppPageConfigInvalid).errors ?? []).map((e) => e.field);
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the partner template', () => {
  const given = deciderSpec<HppTemplateCommand, HppTemplateState, HppPageTemplateEvent>({
    decide: decideHppTemplate,
    evolve: evolveHppTemplate,
    initialState: initialHppTemplateState,
  });
  const setTemplate = (extra: Partial<SetHppTemplate> = {}): SetHppTemplate => ({
    type: 'SetHppTemplate',
    partnerId: PARTNER,
    configId: CONFIG_1,
    appearance: {},
    at: T0,
    ...extra,
  });
  const templateSet = (
    appearance: Appearance,
    isActive = true,
    at = T0,
    configId = CONFIG_1,
  ): HppPageTemplateEvent => ({
    type: 'HppPageTemplateSet',
    data: { partnerId: PARTNER, configId, appearance, isActive, setAt: at.toISOString() },
  });

  it('mints the template with the command’s id, resolved, active by default', () =>
    given([])
      .when(setTemplate({ appearance: { presetKey: 'dark', header: { fontSize: 22 } } }))
      .then([templateSet({ ...PRESETS.dark, header: { ...PRESETS.dark.header, fontSize: 22 } })]));

  it('records an explicit is_active false', () =>
    given([])
      .when(setTemplate({ isActive: false }))
      .then([templateSet(DEFAULT_APPEARANCE, false)]));

  it('treats a null is_active as omitted (active)', () =>
    given([])
      .when(setTemplate({ isActive: null }))
      .then([templateSet(DEFAULT_APPEARANCE, true)]));

  it('keeps its id across updates, whatever id the command brings', () =>
    given([templateSet(DEFAULT_APPEARANCE)])
      .when(setTemplate({ configId: CONFIG_2, appearance: { presetKey: 'minimal' }, at: T1 }))
      .then([templateSet(PRESETS.minimal, true, T1, CONFIG_1)]));

  it('replaces the whole appearance: keys left out return to the preset', () =>
    given([templateSet(resolveAppearance({ header: { fontSize: 30 } }))])
      .when(setTemplate({ appearance: { page: { bg: '#eeeeee' } }, at: T1 }))
      .then([templateSet(resolveAppearance({ page: { bg: '#eeeeee' } }), true, T1)]));

  it('reactivates on a PUT without is_active', () =>
    given([templateSet(DEFAULT_APPEARANCE, false)])
      .when(setTemplate({ at: T1 }))
      .then([templateSet(DEFAULT_APPEARANCE, true, T1)]));

  it('records nothing when the same values are set again', () =>
    given([templateSet(PRESETS.dark)])
      .when(setTemplate({ appearance: { presetKey: 'dark' }, at: T1 }))
      .then([]));

  it('records nothing for the same values in another case or key order (jsonb)', () => {
    const stored = JSON.parse(JSON.stringify(resolveAppearance({ page: { bg: '#abcdef' } }))) as Appearance;
    const reordered = Object.fromEntries(Object.entries(stored).reverse()) as unknown as Appearance;
    return given([templateSet(reordered)])
      .when(setTemplate({ appearance: { page: { bg: '#ABCDEF' } }, at: T1 }))
      .then([]);
  });

  it('records a change of is_active alone', () =>
    given([templateSet(DEFAULT_APPEARANCE)])
      .when(setTemplate({ isActive: false, at: T1 }))
      .then([templateSet(DEFAULT_APPEARANCE, false, T1)]));

  it('refuses an invalid appearance with every broken rule', () =>
    given([])
      .when(
        setTemplate({
          appearance: { header: { bg: 'red; background:url(javascript:alert(1))', fontSize: 99 } },
        }),
      )
      .thenThrows(HppPageConfigInvalid, {
        code: 'validation_error',
        errors: [
          { field: 'appearance.header.bg', message: expect.any(String) },
          { field: 'appearance.header.fontSize', message: expect.any(String) },
        ],
      }));

  it.each([
    ['missing', undefined, ['appearance']],
    ['null', null, ['appearance']],
    ['an unknown key', { css: 'body{}' }, ['appearance.css']],
    [
      'an SVG logo',
      { logo: { mode: 'image', dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=' } },
      ['appearance.logo.dataUrl'],
    ],
  ])('refuses an appearance that is %s', (_what, appearance, expected) => {
    const error = thrown(() => decideHppTemplate(setTemplate({ appearance }), initialHppTemplateState()));
    expect(error).toBeInstanceOf(HppPageConfigInvalid);
    expect(fieldsOf(error)).toEqual(expected);
  });

  it('refuses an is_active that is not a boolean, with the appearance errors', () => {
    const command = setTemplate({ appearance: { page: { bg: 'x' } }, isActive: 'yes' as unknown as boolean });
    expect(fieldsOf(thrown(() => decideHppTemplate(command, initialHppTemplateState())))).toEqual([
      'appearance.page.bg',
      'is_active',
    ]);
  });
});

describe('a merchant’s override and embedding domains', () => {
  const given = deciderSpec<HppMerchantPageCommand, HppMerchantPageState, HppMerchantPageEvent>({
    decide: decideHppMerchantPage,
    evolve: evolveHppMerchantPage,
    initialState: initialHppMerchantPageState,
  });
  const ids = { merchantId: MERCHANT, partnerId: PARTNER };
  const setOverride = (extra: Partial<SetHppOverride> = {}): SetHppOverride => ({
    type: 'SetHppOverride',
    ...ids,
    configId: CONFIG_1,
    appearance: {},
    at: T0,
    ...extra,
  });
  const overrideSet = (
    appearance: Appearance,
    isActive = true,
    at = T0,
    configId = CONFIG_1,
  ): HppMerchantPageEvent => ({
    type: 'HppPageOverrideSet',
    data: { ...ids, configId, appearance, isActive, setAt: at.toISOString() },
  });
  const deleteOverride: HppMerchantPageCommand = { type: 'DeleteHppOverride', ...ids, at: T1 };
  const overrideDeleted: HppMerchantPageEvent = {
    type: 'HppPageOverrideDeleted',
    data: { ...ids, deletedAt: T1.toISOString() },
  };
  const replace = (
    domains: unknown,
    environment: 'sandbox' | 'production' = 'production',
  ): HppMerchantPageCommand => ({
    type: 'ReplaceEmbeddingDomains',
    ...ids,
    domains,
    environment,
    at: T1,
  });
  const add = (
    domains: unknown,
    environment: 'sandbox' | 'production' = 'production',
  ): HppMerchantPageCommand => ({
    type: 'AddEmbeddingDomains',
    ...ids,
    domains,
    environment,
    at: T1,
  });
  const replaced = (domains: string[], at = T1): HppMerchantPageEvent => ({
    type: 'HppEmbeddingDomainsReplaced',
    data: { ...ids, domains, changedAt: at.toISOString() },
  });
  const many = (n: number, prefix = 'shop') =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}.example.com`);

  describe('override', () => {
    it('creates one with the command’s id', () =>
      given([])
        .when(setOverride({ appearance: { presetKey: 'minimal' } }))
        .then([overrideSet(PRESETS.minimal)]));

    it('keeps its id across updates', () =>
      given([overrideSet(DEFAULT_APPEARANCE)])
        .when(setOverride({ configId: CONFIG_2, appearance: { presetKey: 'dark' }, at: T1 }))
        .then([overrideSet(PRESETS.dark, true, T1, CONFIG_1)]));

    it('records nothing for the same values', () =>
      given([overrideSet(PRESETS.dark)])
        .when(setOverride({ appearance: { presetKey: 'dark' } }))
        .then([]));

    it('records a deactivation', () =>
      given([overrideSet(DEFAULT_APPEARANCE)])
        .when(setOverride({ isActive: false, at: T1 }))
        .then([overrideSet(DEFAULT_APPEARANCE, false, T1)]));

    it('refuses an invalid appearance', () =>
      given([])
        .when(setOverride({ appearance: { typography: { fontFamily: 'x;}</style><script>' } } }))
        .thenThrows(HppPageConfigInvalid, {
          errors: [{ field: 'appearance.typography.fontFamily', message: expect.any(String) }],
        }));

    it('deletes an existing one', () =>
      given([overrideSet(DEFAULT_APPEARANCE)])
        .when(deleteOverride)
        .then([overrideDeleted]));

    it('deletes an inactive one too', () =>
      given([overrideSet(DEFAULT_APPEARANCE, false)])
        .when(deleteOverride)
        .then([overrideDeleted]));

    it('answers 404 hpp_page_config_not_found when there is none', () =>
      given([])
        .when(deleteOverride)
        .thenThrows(HppPageConfigNotFound, { code: 'hpp_page_config_not_found', merchantId: MERCHANT }));

    it('answers 404 for a second delete', () =>
      given([overrideSet(DEFAULT_APPEARANCE), overrideDeleted])
        .when(deleteOverride)
        .thenThrows(HppPageConfigNotFound));

    it('mints a new id when set again after a delete', () =>
      given([overrideSet(DEFAULT_APPEARANCE), overrideDeleted])
        .when(setOverride({ configId: CONFIG_2, at: T1 }))
        .then([overrideSet(DEFAULT_APPEARANCE, true, T1, CONFIG_2)]));
  });

  describe('replacing the embedding domains', () => {
    it('stores the normalised list', () =>
      given([])
        .when(replace(['Shop.Example.com', '*.example.org', 'shop.example.com']))
        .then([replaced(['shop.example.com', '*.example.org'])]));

    it('empties the list with []', () =>
      given([replaced(['a.example.com'], T0)])
        .when(replace([]))
        .then([replaced([])]));

    it('records nothing when the list is already empty', () => given([]).when(replace([])).then([]));

    it('records nothing for the same list', () =>
      given([replaced(['a.example.com', 'b.example.com'], T0)])
        .when(replace(['A.example.com', 'b.example.com']))
        .then([]));

    it('records a reordering (the list is echoed as written)', () =>
      given([replaced(['a.example.com', 'b.example.com'], T0)])
        .when(replace(['b.example.com', 'a.example.com']))
        .then([replaced(['b.example.com', 'a.example.com'])]));

    it(`accepts ${EMBEDDING_DOMAINS_MAX}`, () =>
      given([])
        .when(replace(many(EMBEDDING_DOMAINS_MAX)))
        .then([replaced(many(EMBEDDING_DOMAINS_MAX))]));

    it(`refuses ${EMBEDDING_DOMAINS_MAX + 1} as a validation error`, () =>
      given([])
        .when(replace(many(EMBEDDING_DOMAINS_MAX + 1)))
        .thenThrows(HppPageConfigInvalid, { errors: [{ field: 'domains', message: expect.any(String) }] }));

    it('refuses bad entries by index', () =>
      given([])
        .when(replace(['ok.example.com', 'https://evil.example', "x.com 'unsafe-inline'"]))
        .thenThrows(HppPageConfigInvalid, {
          code: 'validation_error',
          errors: [
            { field: 'domains[1]', message: expect.any(String) },
            { field: 'domains[2]', message: expect.any(String) },
          ],
        }));

    it('refuses localhost in production and takes it in sandbox', () => {
      given([])
        .when(replace(['localhost'], 'production'))
        .thenThrows(HppPageConfigInvalid);
      given([])
        .when(replace(['localhost'], 'sandbox'))
        .then([replaced(['localhost'])]);
    });

    it('refuses a body that is not an array', () =>
      given([])
        .when(replace('a.example.com'))
        .thenThrows(HppPageConfigInvalid, { errors: [{ field: 'domains', message: expect.any(String) }] }));
  });

  describe('adding embedding domains', () => {
    it('appends the new ones to the list', () =>
      given([replaced(['a.example.com'], T0)])
        .when(add(['B.example.com', 'a.example.com', 'b.example.com']))
        .then([replaced(['a.example.com', 'b.example.com'])]));

    it('starts a list', () =>
      given([])
        .when(add(['a.example.com']))
        .then([replaced(['a.example.com'])]));

    it('records nothing when every one is already there', () =>
      given([replaced(['a.example.com', 'b.example.com'], T0)])
        .when(add(['B.EXAMPLE.COM']))
        .then([]));

    it('records nothing for an empty addition', () =>
      given([replaced(['a.example.com'], T0)])
        .when(add([]))
        .then([]));

    it(`fills the list up to ${EMBEDDING_DOMAINS_MAX}`, () =>
      given([replaced(many(EMBEDDING_DOMAINS_MAX - 1), T0)])
        .when(add(['last.example.com']))
        .then([replaced([...many(EMBEDDING_DOMAINS_MAX - 1), 'last.example.com'])]));

    it(`answers 422 embedding_domains_limit past ${EMBEDDING_DOMAINS_MAX}`, () =>
      given([replaced(many(EMBEDDING_DOMAINS_MAX), T0)])
        .when(add(['one-more.example.com']))
        .thenThrows(EmbeddingDomainsLimit, {
          code: 'embedding_domains_limit',
          limit: EMBEDDING_DOMAINS_MAX,
          resulting: EMBEDDING_DOMAINS_MAX + 1,
        }));

    it('counts a large addition against the limit, not as a malformed body', () =>
      given([])
        .when(add(many(EMBEDDING_DOMAINS_MAX + 5)))
        .thenThrows(EmbeddingDomainsLimit, { resulting: EMBEDDING_DOMAINS_MAX + 5 }));

    it('re-adding what is there does not hit the limit', () =>
      given([replaced(many(EMBEDDING_DOMAINS_MAX), T0)])
        .when(add(['shop0.example.com']))
        .then([]));

    it('refuses bad entries before counting', () =>
      given([replaced(many(EMBEDDING_DOMAINS_MAX), T0)])
        .when(add(['*.com']))
        .thenThrows(HppPageConfigInvalid, {
          errors: [{ field: 'domains[0]', message: expect.any(String) }],
        }));

    it('refuses a body that is not an array', () =>
      given([])
        .when(add({ domains: ['a.example.com'] }))
        .thenThrows(HppPageConfigInvalid));
  });
});

describe('error codes and statuses', () => {
  it.each([
    [new HppPageConfigInvalid([{ field: 'domains', message: 'x' }]), 'validation_error', 400],
    [new HppPageConfigNotFound(MERCHANT), 'hpp_page_config_not_found', 404],
    [new EmbeddingDomainsLimit(20, 21), 'embedding_domains_limit', 422],
  ])('%p', (error, code, status) => {
    expect(error.code).toBe(code);
    expect(HPP_PAGE_PROBLEM_STATUS[code]).toBe(status);
  });

  it('agrees with the platform table where it already has the rows', () => {
    expect(statusForCode('validation_error')).toBe(400);
    expect(statusForCode('embedding_domains_limit')).toBe(422);
  });
});
