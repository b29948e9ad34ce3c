import type { CustomerAddress, CustomerEvent } from './customer-events';

/** The customer as its events make it: plain JSON (the read model keeps it as a snapshot). */
export interface Customer {
  id: string;
  merchantId: string;
  partnerId: string;
  email: string;
  /** null: never set, or cleared with `""`. */
  displayName: string | null;
  /** E.164; null: never set, or cleared with `""`. */
  phone: string | null;
  address: CustomerAddress | null;
  /** Whether the gateway holds a customer record for it; false until the vault links one. */
  gatewayLinked: boolean;
  createdAt: string;
  /** Number of events applied: the `version` field of the API. */
  version: number;
  /** Soft-deleted: the stream stays for the audit, every read and command answers 404. */
  deleted: boolean;
  deletedAt: string | null;
}

/** Before CustomerCreated the customer does not exist. */
export type CustomerStateOrNone = Customer | null;

export const initialState = (): CustomerStateOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(customer: CustomerStateOrNone, event: CustomerEvent): CustomerStateOrNone {
  if (event.type === 'CustomerCreated') {
    const d = event.data;
    return {
      id: d.customerId,
      merchantId: d.merchantId,
      partnerId: d.partnerId,
      email: d.email,
      displayName: d.displayName,
      phone: d.phone,
      address: d.address,
      gatewayLinked: false,
      createdAt: d.createdAt,
      version: 1,
      deleted: false,
      deletedAt: null,
    };
  }
  if (!customer) return customer;
  const c: Customer = { ...customer, version: customer.version + 1 };
  switch (event.type) {
    case 'CustomerUpdated': {
      const d = event.data;
      return {
        ...c,
        ...(d.email !== undefined && { email: d.email }),
        ...(d.displayName !== undefined && { displayName: d.displayName }),
        ...(d.phone !== undefined && { phone: d.phone }),
        ...(d.address !== undefined && { address: d.address }),
      };
    }
    case 'CustomerDeleted':
      return { ...c, deleted: true, deletedAt: event.data.deletedAt };
    case 'CustomerGatewayLinked':
      return { ...c, gatewayLinked: true };
    case 'CustomerGatewayUnlinked':
      return { ...c, gatewayLinked: false };
  }
}

export const customerEvolver = { initialState, evolve };
