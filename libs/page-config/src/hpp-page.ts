import type { Appearance } from './appearance';
import type { HppMerchantPageEvent, HppPageTemplateEvent } from './hpp-page-events';

/** One stored configuration: the partner's template or a merchant's override. */
export interface HppPageConfigState {
  configId: string;
  partnerId: string;
  appearance: Appearance;
  isActive: boolean;
  updatedAt: string;
}

/** The slice of a partner's stream about its HPP page template. */
export interface HppTemplateState {
  template: HppPageConfigState | null;
}

/** The slice of a merchant's stream about its hosted page: the override and the iframe allow-list. */
export interface HppMerchantPageState {
  override: HppPageConfigState | null;
  embeddingDomains: string[];
  embeddingDomainsChangedAt: string | null;
}

export function initialHppTemplateState(): HppTemplateState {
  return { template: null };
}

export function initialHppMerchantPageState(): HppMerchantPageState {
  return { override: null, embeddingDomains: [], embeddingDomainsChangedAt: null };
}

/** Folds one event. Events are facts: this never throws, and ignores types it does not know. */
export function evolveHppTemplate(state: HppTemplateState, event: HppPageTemplateEvent): HppTemplateState {
  switch (event.type) {
    case 'HppPageTemplateSet': {
      const d = event.data;
      return {
        template: {
          configId: d.configId,
          partnerId: d.partnerId,
          appearance: d.appearance,
          isActive: d.isActive,
          updatedAt: d.setAt,
        },
      };
    }
    default:
      return state;
  }
}

/** Folds one event. Events are facts: this never throws, and ignores types it does not know. */
export function evolveHppMerchantPage(
  state: HppMerchantPageState,
  event: HppMerchantPageEvent,
): HppMerchantPageState {
  switch (event.type) {
    case 'HppPageOverrideSet': {
      const d = event.data;
      return {
        ...state,
        override: {
          configId: d.configId,
          partnerId: d.partnerId,
          appearance: d.appearance,
          isActive: d.isActive,
          updatedAt: d.setAt,
        },
      };
    }
    case 'HppPageOverrideDeleted':
      return { ...state, override: null };
    case 'HppEmbeddingDomainsReplaced': {
      const d = event.data;
      return {
        ...state,
        embeddingDomains: Array.isArray(d.domains) ? [...d.domains] : [],
        embeddingDomainsChangedAt: d.changedAt,
      };
    }
    default:
      return state;
  }
}

export const hppTemplateEvolver = {
  initialState: initialHppTemplateState,
  evolve: evolveHppTemplate,
};

export const hppMerchantPageEvolver = {
  initialState: initialHppMerchantPageState,
  evolve: evolveHppMerchantPage,
};
