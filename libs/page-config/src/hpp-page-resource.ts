import { z } from 'zod';
import { Uuid } from '../../platform/src/openapi/wire-schemas';
import { AppearanceSchema, DEFAULT_APPEARANCE, type Appearance } from './appearance';
import type { HppMerchantPageState, HppPageConfigState, HppTemplateState } from './hpp-page';

const configurationShape = {
  id: Uuid,
  partner_id: Uuid,
  merchant_id: Uuid.nullable().meta({ description: 'Null for the partner’s template.' }),
  is_template: z.boolean(),
  is_active: z.boolean(),
  appearance: AppearanceSchema,
};

/** The spec's "HPP page configuration" (snake_case at the top, the spec's camelCase appearance). */
export const HppPageConfigurationSchema = z
  .strictObject(configurationShape)
  .meta({ id: 'HppPageConfiguration' });
export type HppPageConfiguration = z.infer<typeof HppPageConfigurationSchema>;

export type HppPageConfigurationSource = 'override' | 'template' | 'default';

/**
 * The effective form (`GET /config/hpp-page?merchant_id=…`, and what the hosted page renders).
 * Extensions beyond the spec's fields (it allows more, "not shown"): `source` says where it came
 * from and `embedding_domains` is the merchant's iframe allow-list (`[]` for a partner-level
 * read). With source `default` nothing is stored: `id` is null and `is_template` false.
 */
export const EffectiveHppPageConfigurationSchema = z
  .strictObject({
    ...configurationShape,
    id: Uuid.nullable(),
    source: z.enum(['override', 'template', 'default']),
    embedding_domains: z.array(z.string()),
  })
  .meta({ id: 'EffectiveHppPageConfiguration' });
export type EffectiveHppPageConfiguration = z.infer<typeof EffectiveHppPageConfigurationSchema>;

/** A merchant's iframe embedding allow-list (the embedding-domains writes). */
export const EmbeddingDomainsSchema = z
  .strictObject({ merchant_id: Uuid, embedding_domains: z.array(z.string()) })
  .meta({ id: 'EmbeddingDomains' });

/** A stored template (`merchantId` null) or override, as the spec's resource. */
export function toHppPageConfiguration(
  config: HppPageConfigState,
  merchantId: string | null,
): HppPageConfiguration {
  return {
    id: config.configId,
    partner_id: config.partnerId,
    merchant_id: merchantId,
    is_template: merchantId === null,
    is_active: config.isActive,
    appearance: copy(config.appearance),
  };
}

/**
 * What a merchant's page renders with: its override if active, else the partner's template if
 * active, else the platform defaults. An inactive configuration is kept (and listed) but skipped
 * here, so deactivating an override falls back to the template, not to the defaults. The template
 * form keeps its own identity (`merchant_id` null, `is_template` true). `merchantId` null reads
 * the partner level: the template, else the defaults.
 */
export function effectiveHppPageConfiguration(
  template: HppTemplateState,
  merchantState: HppMerchantPageState | null,
  merchantId: string | null,
  partnerId: string,
): EffectiveHppPageConfiguration {
  const embeddingDomains = merchantId !== null && merchantState ? [...merchantState.embeddingDomains] : [];
  const override = merchantId !== null ? merchantState?.override : null;
  if (override?.isActive) {
    return {
      ...toHppPageConfiguration(override, merchantId),
      source: 'override',
      embedding_domains: embeddingDomains,
    };
  }
  if (template.template?.isActive) {
    return {
      ...toHppPageConfiguration(template.template, null),
      source: 'template',
      embedding_domains: embeddingDomains,
    };
  }
  return {
    id: null,
    partner_id: partnerId,
    merchant_id: merchantId,
    is_template: false,
    is_active: true,
    appearance: copy(DEFAULT_APPEARANCE),
    source: 'default',
    embedding_domains: embeddingDomains,
  };
}

/**
 * `GET /config/hpp-page` without `merchant_id`: the partner's template as it stands, active or not
 * (`is_template: true`); until the partner saves one, the platform's defaults in its place (no
 * `id`, `source: 'default'`), which is what every merchant page of the partner renders with then.
 */
export function partnerTemplateConfiguration(
  template: HppTemplateState,
  partnerId: string,
): EffectiveHppPageConfiguration {
  if (template.template) {
    return { ...toHppPageConfiguration(template.template, null), source: 'template', embedding_domains: [] };
  }
  return {
    id: null,
    partner_id: partnerId,
    merchant_id: null,
    is_template: true,
    is_active: true,
    appearance: copy(DEFAULT_APPEARANCE),
    source: 'default',
    embedding_domains: [],
  };
}

/**
 * `GET /config/hpp-page/configs`: every stored configuration of the partner, active or not; the
 * template first, then the overrides in the order given.
 */
export function hppPageConfigurationList(
  template: HppTemplateState,
  overrides: readonly { merchantId: string; override: HppPageConfigState | null }[],
): HppPageConfiguration[] {
  const list: HppPageConfiguration[] = [];
  if (template.template) list.push(toHppPageConfiguration(template.template, null));
  for (const { merchantId, override } of overrides) {
    if (override) list.push(toHppPageConfiguration(override, merchantId));
  }
  return list;
}

/** The resource never shares objects with the state (nor with the frozen presets). */
function copy(appearance: Appearance): Appearance {
  return JSON.parse(JSON.stringify(appearance)) as Appearance;
}
