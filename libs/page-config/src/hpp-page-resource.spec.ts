import { DEFAULT_APPEARANCE, PRESETS } from './appearance';
import type { HppMerchantPageState, HppPageConfigState, HppTemplateState } from './hpp-page';
import {
  effectiveHppPageConfiguration,
  hppPageConfigurationList,
  toHppPageConfiguration,
  type HppPageConfigurationSource,
} from './hpp-page-resource';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const MERCHANT = '9d3e5f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const OTHER_MERCHANT = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const TEMPLATE_ID = '0b6a4b8e-0c57-4b6e-9a37-6a2f0c3f9d11';
const OVERRIDE_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const T0 = '2026-11-01T10:00:00.000Z';

const config = (configId: string, appearance = DEFAULT_APPEARANCE, isActive = true): HppPageConfigState => ({
  configId,
  partnerId: PARTNER,
  appearance,
  isActive,
  updatedAt: T0,
});
const templateState = (template: HppPageConfigState | null): HppTemplateState => ({ template });
const merchantState = (
  override: HppPageConfigState | null,
  domains: string[] = [],
): HppMerchantPageState => ({
  override,
  embeddingDomains: domains,
  embeddingDomainsChangedAt: domains.length > 0 ? T0 : null,
});

describe('the spec resource', () => {
  it('renders a template with exactly the spec’s fields', () =>
    expect(toHppPageConfiguration(config(TEMPLATE_ID, PRESETS.dark, false), null)).toEqual({
      id: TEMPLATE_ID,
      partner_id: PARTNER,
      merchant_id: null,
      is_template: true,
      is_active: false,
      appearance: PRESETS.dark,
    }));

  it('renders an override', () =>
    expect(toHppPageConfiguration(config(OVERRIDE_ID), MERCHANT)).toEqual({
      id: OVERRIDE_ID,
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      is_template: false,
      is_active: true,
      appearance: DEFAULT_APPEARANCE,
    }));

  it('does not share the appearance with the state', () => {
    const state = config(OVERRIDE_ID, JSON.parse(JSON.stringify(PRESETS.dark)));
    const resource = toHppPageConfiguration(state, MERCHANT);
    resource.appearance.header.bg = '#000000';
    expect(state.appearance.header.bg).toBe(PRESETS.dark.header.bg);
  });
});

describe('the effective configuration', () => {
  const override = (active: boolean) => config(OVERRIDE_ID, PRESETS.minimal, active);
  const template = (active: boolean) => config(TEMPLATE_ID, PRESETS.dark, active);
  // [override, template, source, id]
  const cases: [
    HppPageConfigState | null,
    HppPageConfigState | null,
    HppPageConfigurationSource,
    string | null,
  ][] = [
    [override(true), template(true), 'override', OVERRIDE_ID],
    [override(true), null, 'override', OVERRIDE_ID],
    [override(true), template(false), 'override', OVERRIDE_ID],
    [override(false), template(true), 'template', TEMPLATE_ID],
    [null, template(true), 'template', TEMPLATE_ID],
    [override(false), template(false), 'default', null],
    [override(false), null, 'default', null],
    [null, template(false), 'default', null],
    [null, null, 'default', null],
  ];
  it.each(cases)('override %o, template %o → %s', (overrideConfig, templateConfig, source, id) => {
    const effective = effectiveHppPageConfiguration(
      templateState(templateConfig),
      merchantState(overrideConfig, ['shop.example.com']),
      MERCHANT,
      PARTNER,
    );
    expect(effective.source).toBe(source);
    expect(effective.id).toBe(id);
    expect(effective.is_active).toBe(true);
    expect(effective.embedding_domains).toEqual(['shop.example.com']);
    expect(effective.appearance).toEqual(
      { override: PRESETS.minimal, template: PRESETS.dark, default: DEFAULT_APPEARANCE }[source],
    );
  });

  it('answers with the override’s identity', () =>
    expect(
      effectiveHppPageConfiguration(
        templateState(template(true)),
        merchantState(override(true)),
        MERCHANT,
        PARTNER,
      ),
    ).toEqual({
      id: OVERRIDE_ID,
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      is_template: false,
      is_active: true,
      appearance: PRESETS.minimal,
      source: 'override',
      embedding_domains: [],
    }));

  it('answers with the template’s own identity when it falls back to it', () =>
    expect(
      effectiveHppPageConfiguration(
        templateState(template(true)),
        merchantState(null, ['a.example.com']),
        MERCHANT,
        PARTNER,
      ),
    ).toEqual({
      id: TEMPLATE_ID,
      partner_id: PARTNER,
      merchant_id: null,
      is_template: true,
      is_active: true,
      appearance: PRESETS.dark,
      source: 'template',
      embedding_domains: ['a.example.com'],
    }));

  it('answers the defaults with no id when nothing is stored', () =>
    expect(
      effectiveHppPageConfiguration(templateState(null), merchantState(null), MERCHANT, PARTNER),
    ).toEqual({
      id: null,
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      is_template: false,
      is_active: true,
      appearance: DEFAULT_APPEARANCE,
      source: 'default',
      embedding_domains: [],
    }));

  it('reads the partner level (no merchant): the template, never an override', () => {
    const effective = effectiveHppPageConfiguration(
      templateState(template(true)),
      merchantState(override(true), ['a.example.com']),
      null,
      PARTNER,
    );
    expect(effective.source).toBe('template');
    expect(effective.embedding_domains).toEqual([]);
  });

  it('reads the partner level with nothing stored as the defaults', () => {
    const effective = effectiveHppPageConfiguration(templateState(null), null, null, PARTNER);
    expect(effective).toMatchObject({
      id: null,
      merchant_id: null,
      source: 'default',
      appearance: DEFAULT_APPEARANCE,
    });
  });

  it('takes a merchant with no stream yet', () =>
    expect(effectiveHppPageConfiguration(templateState(null), null, MERCHANT, PARTNER).source).toBe(
      'default',
    ));

  it('hands out copies, never the frozen defaults or the state', () => {
    const state = merchantState(null, ['a.example.com']);
    const effective = effectiveHppPageConfiguration(templateState(null), state, MERCHANT, PARTNER);
    expect(() => {
      effective.appearance.page.bg = '#000000';
      effective.embedding_domains.push('b.example.com');
    }).not.toThrow();
    expect(DEFAULT_APPEARANCE.page.bg).not.toBe('#000000');
    expect(state.embeddingDomains).toEqual(['a.example.com']);
  });
});

describe('the list of configurations', () => {
  it('lists the template first, then every override, active or not', () => {
    const list = hppPageConfigurationList(templateState(config(TEMPLATE_ID, DEFAULT_APPEARANCE, false)), [
      { merchantId: MERCHANT, override: config(OVERRIDE_ID) },
      { merchantId: OTHER_MERCHANT, override: null },
    ]);
    expect(list.map((c) => [c.id, c.merchant_id, c.is_template, c.is_active])).toEqual([
      [TEMPLATE_ID, null, true, false],
      [OVERRIDE_ID, MERCHANT, false, true],
    ]);
  });

  it('is empty when nothing is stored', () =>
    expect(hppPageConfigurationList(templateState(null), [])).toEqual([]));
});
