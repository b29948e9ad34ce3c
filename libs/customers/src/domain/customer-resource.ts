import type { Customer } from './customer';

/** The spec's Customer resource, field for field (snake_case, as on the wire). */
export interface CustomerResource {
  id: string;
  merchant_id: string;
  partner_id: string;
  email: string;
  display_name: string | null;
  phone: string | null;
  gateway_linked: boolean;
  address: {
    line1: string;
    line2: string | null;
    city: string;
    state: string;
    postal_code: string;
    country: string;
  } | null;
  created_at: string;
  version: number;
}

/** The resource, also the list form (the spec shows no separate one). */
export function toCustomerResource(c: Customer): CustomerResource {
  return {
    id: c.id,
    merchant_id: c.merchantId,
    partner_id: c.partnerId,
    email: c.email,
    display_name: c.displayName,
    phone: c.phone,
    gateway_linked: c.gatewayLinked,
    address: c.address && {
      line1: c.address.line1,
      line2: c.address.line2,
      city: c.address.city,
      state: c.address.state,
      postal_code: c.address.postalCode,
      country: c.address.country,
    },
    created_at: c.createdAt,
    version: c.version,
  };
}
