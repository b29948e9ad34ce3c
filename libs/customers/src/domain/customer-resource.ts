import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { Customer } from './customer';

/** The spec's Customer resource, field for field (snake_case, as on the wire). */
export const CustomerResourceSchema = z
  .strictObject({
    id: Uuid,
    merchant_id: Uuid,
    partner_id: Uuid,
    email: z.string(),
    display_name: z.string().nullable(),
    phone: z.string().nullable().meta({ description: 'E.164' }),
    gateway_linked: z
      .boolean()
      .meta({ description: 'Whether the customer has a vaulted payment method at the gateway.' }),
    address: z
      .strictObject({
        line1: z.string(),
        line2: z.string().nullable(),
        city: z.string(),
        state: z.string(),
        postal_code: z.string(),
        country: z.string(),
      })
      .nullable(),
    created_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'Customer' });

export type CustomerResource = z.infer<typeof CustomerResourceSchema>;

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
