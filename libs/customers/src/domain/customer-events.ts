/**
 * Stored customer events (stream `customer-{id}`). Stored types are never renamed or reshaped;
 * add new ones instead. Every event names its customer, merchant and partner and carries its time
 * as an ISO-8601 string.
 */

interface Ids {
  customerId: string;
  merchantId: string;
  partnerId: string;
}

/** A postal address as stored (camelCase); `line2` is null when there is none. */
export interface CustomerAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

/** The fields a partner writes; `null` means "not set" (cleared, or never given). */
export interface CustomerWritableFields {
  email: string;
  displayName: string | null;
  phone: string | null;
  address: CustomerAddress | null;
}

export interface CustomerCreated {
  type: 'CustomerCreated';
  data: Ids & CustomerWritableFields & { createdAt: string };
}

/** A PATCH; only the fields that changed are present (`null`: the field was cleared). */
export interface CustomerUpdated {
  type: 'CustomerUpdated';
  data: Ids & Partial<CustomerWritableFields> & { updatedAt: string };
}

/** Soft delete: the stream stays (audit), the customer reads as absent from then on. */
export interface CustomerDeleted {
  type: 'CustomerDeleted';
  data: Ids & { deletedAt: string };
}

/**
 * The customer now has an active payment method in the vault (at the gateway): the first stored
 * credential minted for it. `gateway_linked` reads true from here on.
 */
export interface CustomerGatewayLinked {
  type: 'CustomerGatewayLinked';
  data: Ids & { storedCredentialId: string; linkedAt: string };
}

/** Its last active stored credential was revoked: no payment method of it is at the gateway. */
export interface CustomerGatewayUnlinked {
  type: 'CustomerGatewayUnlinked';
  data: Ids & { storedCredentialId: string; unlinkedAt: string };
}

/** Everything on `customer-{id}`. */
export type CustomerEvent =
  CustomerCreated | CustomerUpdated | CustomerDeleted | CustomerGatewayLinked | CustomerGatewayUnlinked;

export type CustomerEventType = CustomerEvent['type'];

/** The webhook types customer events map to (`GET /webhook-event-types`). */
export const CUSTOMER_WEBHOOK_TYPES = ['customer.created', 'customer.updated', 'customer.deleted'] as const;
export type CustomerWebhookType = (typeof CUSTOMER_WEBHOOK_TYPES)[number];

/**
 * Event type → the webhook type a partner sees. Every customer event is visible to its partner.
 * The record makes the compiler check that every event type is mapped.
 */
export const CUSTOMER_WEBHOOK_EVENT_TYPES: Readonly<Record<CustomerEventType, CustomerWebhookType>> = {
  CustomerCreated: 'customer.created',
  CustomerUpdated: 'customer.updated',
  CustomerDeleted: 'customer.deleted',
  // `gateway_linked` is a field of the customer resource: its change is an update.
  CustomerGatewayLinked: 'customer.updated',
  CustomerGatewayUnlinked: 'customer.updated',
};

/** Every customer event type (the record above makes the compiler check the list is complete). */
export const CUSTOMER_EVENT_TYPES = Object.keys(CUSTOMER_WEBHOOK_EVENT_TYPES) as CustomerEventType[];
