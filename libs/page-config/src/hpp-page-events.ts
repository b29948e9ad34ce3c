import type { Appearance } from './appearance';

/**
 * Stored events of hosted-payment-page configuration. The partner's template lives in the
 * partner's stream (`partner-{id}`), next to the partner's other events; a merchant's override
 * and iframe allow-list live in the merchant's stream (`merchant-{id}`). Stored types are never
 * renamed or reshaped. Appearances are stored fully resolved (every key present).
 */

export interface HppPageTemplateSet {
  type: 'HppPageTemplateSet';
  data: {
    partnerId: string;
    /** Minted by the first set; kept by every later one. */
    configId: string;
    appearance: Appearance;
    isActive: boolean;
    setAt: string;
  };
}

export interface HppPageOverrideSet {
  type: 'HppPageOverrideSet';
  data: {
    merchantId: string;
    partnerId: string;
    /** Minted when the override is created; kept until it is deleted. */
    configId: string;
    appearance: Appearance;
    isActive: boolean;
    setAt: string;
  };
}

export interface HppPageOverrideDeleted {
  type: 'HppPageOverrideDeleted';
  data: { merchantId: string; partnerId: string; deletedAt: string };
}

/** The whole allow-list after the change, for a replace and for an add alike. */
export interface HppEmbeddingDomainsReplaced {
  type: 'HppEmbeddingDomainsReplaced';
  data: { merchantId: string; partnerId: string; domains: string[]; changedAt: string };
}

export type HppPageTemplateEvent = HppPageTemplateSet;
export type HppMerchantPageEvent = HppPageOverrideSet | HppPageOverrideDeleted | HppEmbeddingDomainsReplaced;
export type HppPageEvent = HppPageTemplateEvent | HppMerchantPageEvent;

/** Partner stream. */
export const HPP_PAGE_TEMPLATE_EVENT_TYPES: readonly HppPageTemplateEvent['type'][] = ['HppPageTemplateSet'];

/** Merchant stream. */
export const HPP_MERCHANT_PAGE_EVENT_TYPES: readonly HppMerchantPageEvent['type'][] = [
  'HppPageOverrideSet',
  'HppPageOverrideDeleted',
  'HppEmbeddingDomainsReplaced',
];

export const HPP_PAGE_EVENT_TYPES: readonly HppPageEvent['type'][] = [
  ...HPP_PAGE_TEMPLATE_EVENT_TYPES,
  ...HPP_MERCHANT_PAGE_EVENT_TYPES,
];

/** For folding a partner stream that also holds other partner events. */
export function isHppPageTemplateEvent(event: { type: string }): event is HppPageTemplateEvent {
  return (HPP_PAGE_TEMPLATE_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** For folding a merchant stream that also holds other merchant events. */
export function isHppMerchantPageEvent(event: { type: string }): event is HppMerchantPageEvent {
  return (HPP_MERCHANT_PAGE_EVENT_TYPES as readonly string[]).includes(event.type);
}
