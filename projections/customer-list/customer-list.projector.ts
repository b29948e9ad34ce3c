import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  evolve,
  type Customer,
  CUSTOMER_EVENT_TYPES,
  type CustomerEvent,
  CUSTOMER_STREAM_PREFIX,
} from '../../libs/customers/src';

/**
 * `customer_list`: one row per customer (for `GET /merchants/{id}/customers`), rebuilt by folding
 * the aggregate's own `evolve` over a JSON snapshot, so the list can never disagree with the
 * customer read. A deleted customer keeps its row with `deleted = true` (the list leaves it out).
 */
export class CustomerListProjector {
  readonly name = 'customer-list';
  readonly eventTypes = CUSTOMER_EVENT_TYPES;
  readonly tables = ['customer_list'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice(CUSTOMER_STREAM_PREFIX.length);
    const rows = (await tx.query('select snapshot, created_position from customer_list where id = $1', [
      id,
    ])) as { snapshot: Customer; created_position: string }[];
    const customer = evolve(rows[0]?.snapshot ?? null, {
      type: recorded.type,
      data: recorded.data,
    } as CustomerEvent);
    if (!customer) return;
    await tx.query(
      `insert into customer_list (id, merchant_id, partner_id, email, display_name, deleted, created_at,
         created_position, version, snapshot)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (id) do update set
         email = excluded.email, display_name = excluded.display_name, deleted = excluded.deleted,
         version = excluded.version, snapshot = excluded.snapshot`,
      [
        customer.id,
        customer.merchantId,
        customer.partnerId,
        customer.email,
        customer.displayName,
        customer.deleted,
        customer.createdAt,
        rows[0]?.created_position ?? recorded.globalPosition.toString(),
        customer.version,
        JSON.stringify(customer),
      ],
    );
  }
}
