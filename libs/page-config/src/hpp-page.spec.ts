import { DEFAULT_APPEARANCE, PRESETS } from './appearance';
import {
  evolveHppMerchantPage,
  evolveHppTemplate,
  hppMerchantPageEvolver,
  hppTemplateEvolver,
  initialHppMerchantPageState,
  initialHppTemplateState,
} from './hpp-page';
import {
  HPP_MERCHANT_PAGE_EVENT_TYPES,
  HPP_PAGE_EVENT_TYPES,
  HPP_PAGE_TEMPLATE_EVENT_TYPES,
  isHppMerchantPageEvent,
  isHppPageTemplateEvent,
  type HppMerchantPageEvent,
  type HppPageTemplateEvent,
} from './hpp-page-events';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const MERCHANT = '9d3e5f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const CONFIG = '0b6a4b8e-0c57-4b6e-9a37-6a2f0c3f9d11';
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-02T10:00:00.000Z';

describe('template state', () => {
  it('starts with no template', () => expect(initialHppTemplateState()).toEqual({ template: null }));

  it('holds the last template set', () => {
    const events: HppPageTemplateEvent[] = [
      {
        type: 'HppPageTemplateSet',
        data: {
          partnerId: PARTNER,
          configId: CONFIG,
          appearance: DEFAULT_APPEARANCE,
          isActive: true,
          setAt: T0,
        },
      },
      {
        type: 'HppPageTemplateSet',
        data: { partnerId: PARTNER, configId: CONFIG, appearance: PRESETS.dark, isActive: false, setAt: T1 },
      },
    ];
    expect(events.reduce(hppTemplateEvolver.evolve, hppTemplateEvolver.initialState())).toEqual({
      template: {
        configId: CONFIG,
        partnerId: PARTNER,
        appearance: PRESETS.dark,
        isActive: false,
        updatedAt: T1,
      },
    });
  });

  it('ignores the partner stream’s other events', () => {
    const state = initialHppTemplateState();
    const other = { type: 'PartnerCreated', data: {} } as unknown as HppPageTemplateEvent;
    expect(evolveHppTemplate(state, other)).toBe(state);
  });
});

describe('merchant page state', () => {
  const set = (isActive = true, at = T0): HppMerchantPageEvent => ({
    type: 'HppPageOverrideSet',
    data: {
      merchantId: MERCHANT,
      partnerId: PARTNER,
      configId: CONFIG,
      appearance: PRESETS.minimal,
      isActive,
      setAt: at,
    },
  });
  const deleted: HppMerchantPageEvent = {
    type: 'HppPageOverrideDeleted',
    data: { merchantId: MERCHANT, partnerId: PARTNER, deletedAt: T1 },
  };
  const domains = (list: string[], at = T0): HppMerchantPageEvent => ({
    type: 'HppEmbeddingDomainsReplaced',
    data: { merchantId: MERCHANT, partnerId: PARTNER, domains: list, changedAt: at },
  });
  const fold = (events: HppMerchantPageEvent[]) =>
    events.reduce(hppMerchantPageEvolver.evolve, hppMerchantPageEvolver.initialState());

  it('starts with no override and no domains', () =>
    expect(initialHppMerchantPageState()).toEqual({
      override: null,
      embeddingDomains: [],
      embeddingDomainsChangedAt: null,
    }));

  it('holds the override', () =>
    expect(fold([set(false, T1)]).override).toEqual({
      configId: CONFIG,
      partnerId: PARTNER,
      appearance: PRESETS.minimal,
      isActive: false,
      updatedAt: T1,
    }));

  it('forgets a deleted override but keeps the domains', () =>
    expect(fold([domains(['a.example.com']), set(), deleted])).toEqual({
      override: null,
      embeddingDomains: ['a.example.com'],
      embeddingDomainsChangedAt: T0,
    }));

  it('takes each replaced list whole', () => {
    const state = fold([domains(['a.example.com', 'b.example.com']), domains(['c.example.com'], T1)]);
    expect(state.embeddingDomains).toEqual(['c.example.com']);
    expect(state.embeddingDomainsChangedAt).toBe(T1);
  });

  it('does not share the event’s array', () => {
    const event = domains(['a.example.com']);
    const state = fold([event]);
    (event.data as { domains: string[] }).domains.push('b.example.com');
    expect(state.embeddingDomains).toEqual(['a.example.com']);
  });

  it('never throws, even on a malformed event', () => {
    const bad = {
      type: 'HppEmbeddingDomainsReplaced',
      data: { changedAt: T0 },
    } as unknown as HppMerchantPageEvent;
    expect(evolveHppMerchantPage(initialHppMerchantPageState(), bad).embeddingDomains).toEqual([]);
  });

  it('ignores the merchant stream’s other events', () => {
    const state = fold([set()]);
    const other = { type: 'MerchantSubmitted', data: {} } as unknown as HppMerchantPageEvent;
    expect(evolveHppMerchantPage(state, other)).toBe(state);
  });
});

describe('event types', () => {
  it('lists every type once, by stream', () => {
    expect(HPP_PAGE_TEMPLATE_EVENT_TYPES).toEqual(['HppPageTemplateSet']);
    expect([...HPP_MERCHANT_PAGE_EVENT_TYPES].sort()).toEqual(
      ['HppEmbeddingDomainsReplaced', 'HppPageOverrideDeleted', 'HppPageOverrideSet'].sort(),
    );
    expect(new Set(HPP_PAGE_EVENT_TYPES).size).toBe(4);
  });

  it('tells its events from the streams’ other events', () => {
    expect(isHppPageTemplateEvent({ type: 'HppPageTemplateSet' })).toBe(true);
    expect(isHppPageTemplateEvent({ type: 'HppPageOverrideSet' })).toBe(false);
    expect(isHppMerchantPageEvent({ type: 'HppEmbeddingDomainsReplaced' })).toBe(true);
    expect(isHppMerchantPageEvent({ type: 'MerchantSubmitted' })).toBe(false);
  });
});
