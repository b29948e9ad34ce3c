import {
  resolveAppearance,
  sameAppearance,
  validateAppearance,
  type Appearance,
  type AppearanceInput,
} from './appearance';
import {
  EMBEDDING_DOMAINS_MAX,
  mergeEmbeddingDomains,
  normalizeEmbeddingDomains,
  validateEmbeddingDomainEntries,
  validateEmbeddingDomains,
  type HppEnvironment,
} from './embedding-domains';
import type { HppPageConfigState, HppMerchantPageState, HppTemplateState } from './hpp-page';
import {
  EmbeddingDomainsLimit,
  HppPageConfigInvalid,
  HppPageConfigNotFound,
  type FieldError,
} from './hpp-page-errors';
import type { HppMerchantPageEvent, HppPageTemplateEvent } from './hpp-page-events';

/**
 * Decisions on hosted-payment-page configuration. Pure: time and the fresh `configId` arrive with
 * the command (the handler mints a UUID on every call; it is used only when the configuration does
 * not exist yet, so a template or an override keeps its id across updates). Whether the merchant
 * belongs to the partner is checked by the handler before deciding (404 `merchant_not_found`).
 *
 * A set is a replacement (PUT): the body's `appearance` is resolved against its preset and
 * `is_active` omitted or null means true. Setting what is already set records nothing.
 */

/** `PUT /config/hpp-page`: the partner-level template (partner stream). */
export interface SetHppTemplate {
  type: 'SetHppTemplate';
  partnerId: string;
  configId: string;
  appearance: unknown;
  isActive?: boolean | null;
  at: Date;
}

/** `PUT /config/hpp-page/merchants/{merchantId}`: the merchant's override (merchant stream). */
export interface SetHppOverride {
  type: 'SetHppOverride';
  merchantId: string;
  partnerId: string;
  configId: string;
  appearance: unknown;
  isActive?: boolean | null;
  at: Date;
}

/** `DELETE /config/hpp-page/merchants/{merchantId}`: back to the template (or the defaults). */
export interface DeleteHppOverride {
  type: 'DeleteHppOverride';
  merchantId: string;
  partnerId: string;
  at: Date;
}

/** `PUT .../embedding-domains`: the allow-list becomes exactly `domains` (`[]` empties it). */
export interface ReplaceEmbeddingDomains {
  type: 'ReplaceEmbeddingDomains';
  merchantId: string;
  partnerId: string;
  domains: unknown;
  environment: HppEnvironment;
  at: Date;
}

/** `POST .../embedding-domains/add`: `domains` joins the allow-list; those already in it are kept. */
export interface AddEmbeddingDomains {
  type: 'AddEmbeddingDomains';
  merchantId: string;
  partnerId: string;
  domains: unknown;
  environment: HppEnvironment;
  at: Date;
}

export type HppTemplateCommand = SetHppTemplate;
export type HppMerchantPageCommand =
  SetHppOverride | DeleteHppOverride | ReplaceEmbeddingDomains | AddEmbeddingDomains;

/** The wire name of the allow-list in both embedding-domain bodies. */
export const EMBEDDING_DOMAINS_FIELD = 'domains';

export function decideHppTemplate(
  command: HppTemplateCommand,
  state: HppTemplateState,
): HppPageTemplateEvent[] {
  const next = pageWrite(command.appearance, command.isActive, state.template);
  if (!next) return [];
  return [
    {
      type: 'HppPageTemplateSet',
      data: {
        partnerId: command.partnerId,
        configId: state.template?.configId ?? command.configId,
        appearance: next.appearance,
        isActive: next.isActive,
        setAt: command.at.toISOString(),
      },
    },
  ];
}

export function decideHppMerchantPage(
  command: HppMerchantPageCommand,
  state: HppMerchantPageState,
): HppMerchantPageEvent[] {
  switch (command.type) {
    case 'SetHppOverride': {
      const next = pageWrite(command.appearance, command.isActive, state.override);
      if (!next) return [];
      return [
        {
          type: 'HppPageOverrideSet',
          data: {
            merchantId: command.merchantId,
            partnerId: command.partnerId,
            configId: state.override?.configId ?? command.configId,
            appearance: next.appearance,
            isActive: next.isActive,
            setAt: command.at.toISOString(),
          },
        },
      ];
    }
    case 'DeleteHppOverride':
      if (!state.override) throw new HppPageConfigNotFound(command.merchantId);
      return [
        {
          type: 'HppPageOverrideDeleted',
          data: {
            merchantId: command.merchantId,
            partnerId: command.partnerId,
            deletedAt: command.at.toISOString(),
          },
        },
      ];
    case 'ReplaceEmbeddingDomains': {
      const errors = validateEmbeddingDomains(command.domains, EMBEDDING_DOMAINS_FIELD, command.environment);
      if (errors.length > 0) throw new HppPageConfigInvalid(errors);
      const domains = normalizeEmbeddingDomains(command.domains as unknown[], command.environment);
      return domainsReplaced(command, state, domains);
    }
    case 'AddEmbeddingDomains': {
      // Entries are checked alone; the count only after the merge (422, not a malformed body).
      const errors = validateEmbeddingDomainEntries(
        command.domains,
        EMBEDDING_DOMAINS_FIELD,
        command.environment,
      );
      if (errors.length > 0) throw new HppPageConfigInvalid(errors);
      const added = normalizeEmbeddingDomains(command.domains as unknown[], command.environment);
      const domains = mergeEmbeddingDomains(state.embeddingDomains, added);
      if (domains.length === state.embeddingDomains.length) return [];
      if (domains.length > EMBEDDING_DOMAINS_MAX) {
        throw new EmbeddingDomainsLimit(EMBEDDING_DOMAINS_MAX, domains.length);
      }
      return domainsReplaced(command, state, domains);
    }
  }
}

/** The validated, resolved write; null when it would change nothing. */
function pageWrite(
  appearanceInput: unknown,
  isActiveInput: unknown,
  current: HppPageConfigState | null,
): { appearance: Appearance; isActive: boolean } | null {
  const errors: FieldError[] = validateAppearance(appearanceInput);
  if (isActiveInput !== undefined && isActiveInput !== null && typeof isActiveInput !== 'boolean') {
    errors.push({ field: 'is_active', message: 'must be a boolean' });
  }
  if (errors.length > 0) throw new HppPageConfigInvalid(errors);
  const appearance = resolveAppearance(appearanceInput as AppearanceInput);
  const isActive = typeof isActiveInput === 'boolean' ? isActiveInput : true;
  if (current && current.isActive === isActive && sameAppearance(current.appearance, appearance)) return null;
  return { appearance, isActive };
}

/** Order counts: the list is echoed back as the partner last wrote it. */
function domainsReplaced(
  command: ReplaceEmbeddingDomains | AddEmbeddingDomains,
  state: HppMerchantPageState,
  domains: string[],
): HppMerchantPageEvent[] {
  const same =
    domains.length === state.embeddingDomains.length &&
    domains.every((domain, index) => domain === state.embeddingDomains[index]);
  if (same) return [];
  return [
    {
      type: 'HppEmbeddingDomainsReplaced',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        domains,
        changedAt: command.at.toISOString(),
      },
    },
  ];
}
