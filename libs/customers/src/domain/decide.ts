import { InvalidStateTransition } from '../../../platform/src/problem';
import type { CustomerStateOrNone } from './customer';
import { CustomerInvalid, CustomerNotFound, type FieldError } from './customer-errors';
import type { CustomerAddress, CustomerEvent, CustomerWritableFields } from './customer-events';
import {
  checkAddress,
  checkDisplayName,
  checkEmail,
  checkPhone,
  sameAddress,
  type Checked,
  type CustomerAddressInput,
} from './customer-rules';

interface Base {
  customerId: string;
  at: Date;
}

/**
 * The customer's commands. In an update `undefined` and `null` both mean "unchanged" (spec PATCH
 * rules); `""` clears `displayName` and `phone`; `clearAddress: true` removes the address.
 */
export type CustomerCommand =
  | (Base & {
      type: 'CreateCustomer';
      merchantId: string;
      partnerId: string;
      email: string;
      displayName?: string | null;
      phone?: string | null;
      address?: CustomerAddressInput | null;
    })
  | (Base & { type: 'LinkCustomerToGateway' | 'UnlinkCustomerFromGateway'; storedCredentialId: string })
  | (Base & {
      type: 'UpdateCustomer';
      email?: string | null;
      displayName?: string | null;
      phone?: string | null;
      address?: CustomerAddressInput | null;
      clearAddress?: boolean | null;
    })
  | (Base & { type: 'DeleteCustomer' });

export type CustomerCommandType = CustomerCommand['type'];

/** Collects the values of the checks, and the broken rules by wire field name. */
class Checks {
  readonly errors: FieldError[] = [];

  take<T>(field: string, checked: Checked<T>): T | undefined {
    if (checked.ok) return checked.value;
    this.errors.push({ field, message: checked.message });
    return undefined;
  }

  address(input: CustomerAddressInput): CustomerAddress {
    const { address, errors } = checkAddress(input);
    this.errors.push(...errors);
    return address;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new CustomerInvalid(this.errors);
  }
}

/** The customer's decisions. Pure: time and ids arrive with the command. */
export function decide(command: CustomerCommand, customer: CustomerStateOrNone): CustomerEvent[] {
  // A deleted customer reads as absent to every command, create included (its id is spent).
  if (customer?.deleted) throw new CustomerNotFound(command.customerId);
  const at = command.at.toISOString();

  if (command.type === 'CreateCustomer') {
    if (customer) throw new InvalidStateTransition('customer', 'CREATED', 'create');
    const checks = new Checks();
    const fields: CustomerWritableFields = {
      email: checks.take('email', checkEmail(command.email)) as string,
      displayName:
        command.displayName == null
          ? null
          : (checks.take('display_name', checkDisplayName(command.displayName)) ?? null),
      phone: command.phone == null ? null : (checks.take('phone', checkPhone(command.phone)) ?? null),
      address: command.address == null ? null : checks.address(command.address),
    };
    checks.throwIfAny();
    return [
      {
        type: 'CustomerCreated',
        data: {
          customerId: command.customerId,
          merchantId: command.merchantId,
          partnerId: command.partnerId,
          ...fields,
          createdAt: at,
        },
      },
    ];
  }

  if (!customer) throw new CustomerNotFound(command.customerId);
  const ids = { customerId: customer.id, merchantId: customer.merchantId, partnerId: customer.partnerId };

  switch (command.type) {
    case 'UpdateCustomer': {
      const checks = new Checks();
      if (command.address != null && command.clearAddress != null) {
        checks.errors.push({
          field: 'clear_address',
          message: 'must not be sent together with address (address replaces it, clear_address removes it)',
        });
      }
      const next: Partial<CustomerWritableFields> = {};
      if (command.email != null) next.email = checks.take('email', checkEmail(command.email));
      if (command.displayName != null) {
        next.displayName = checks.take('display_name', checkDisplayName(command.displayName));
      }
      if (command.phone != null) next.phone = checks.take('phone', checkPhone(command.phone));
      if (command.address != null) next.address = checks.address(command.address);
      else if (command.clearAddress === true) next.address = null;
      checks.throwIfAny();

      const changed: Partial<CustomerWritableFields> = {};
      if (next.email !== undefined && next.email !== customer.email) changed.email = next.email;
      if (next.displayName !== undefined && next.displayName !== customer.displayName) {
        changed.displayName = next.displayName;
      }
      if (next.phone !== undefined && next.phone !== customer.phone) changed.phone = next.phone;
      if (next.address !== undefined && !sameAddress(next.address, customer.address)) {
        changed.address = next.address;
      }
      if (Object.keys(changed).length === 0) return [];
      return [{ type: 'CustomerUpdated', data: { ...ids, ...changed, updatedAt: at } }];
    }
    case 'DeleteCustomer':
      return [{ type: 'CustomerDeleted', data: { ...ids, deletedAt: at } }];
    // Idempotent both ways: linking a linked customer (a second card) records nothing.
    case 'LinkCustomerToGateway':
      if (customer.gatewayLinked) return [];
      return [
        {
          type: 'CustomerGatewayLinked',
          data: { ...ids, storedCredentialId: command.storedCredentialId, linkedAt: at },
        },
      ];
    case 'UnlinkCustomerFromGateway':
      if (!customer.gatewayLinked) return [];
      return [
        {
          type: 'CustomerGatewayUnlinked',
          data: { ...ids, storedCredentialId: command.storedCredentialId, unlinkedAt: at },
        },
      ];
  }
}
