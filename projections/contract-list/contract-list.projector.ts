import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import { SnapshotListProjector } from '../../libs/projections/src';
import {
  CONTRACT_EVENT_TYPES,
  CONTRACT_STREAM_PREFIX,
  evolve,
  nextChargeDate,
  type Contract,
  type ContractEvent,
} from '../../libs/recurring/src';

/**
 * `contract_list`: one row per contract, the aggregate's own `evolve` folded over a JSON snapshot
 * (so the list never disagrees with a read), with the columns the list filters on and the
 * scheduler's: `next_charge_date` (partial index over ACTIVE contracts), `in_flight`, `held_for`
 * (the platform's hold), `activation_deadline`.
 *
 * `contract_charges`: every installment charge that recorded a transaction, with its outcome
 * (CHARGED, FAILED, RETURNED), written in the same transaction from the same events. The scheduler
 * joins it with `transaction_list` to find returned ACH installments. Both tables are rebuilt and
 * swapped together.
 */
export class ContractListProjector extends SnapshotListProjector<Contract> {
  override readonly tables = ['contract_list', 'contract_charges'];

  constructor() {
    super({
      name: 'contract-list',
      table: 'contract_list',
      eventTypes: CONTRACT_EVENT_TYPES,
      streamPrefix: CONTRACT_STREAM_PREFIX,
      evolve: (state, event) => evolve(state, event as ContractEvent),
      columns: (c) => ({
        partner_id: c.partnerId,
        merchant_id: c.merchantId,
        state: c.state,
        rail: c.paymentMethodType,
        card_last4: c.paymentMethod?.card?.last4 ?? null,
        amount_minor: c.amountMinor,
        currency: c.currency,
        frequency: c.frequency,
        next_charge_date: nextChargeDate(c),
        in_flight: c.inFlight !== null,
        held_for: c.state === 'PAUSED' && c.pause?.by === 'system' ? c.pause.reasonCode : null,
        activation_deadline: c.activationDeadline,
        created_at: c.createdAt,
        version: c.version,
      }),
    });
  }

  /** `contract_charges`, from the same events as the row (and the state each one left). */
  protected override async applied(
    tx: EntityManager,
    recorded: RecordedEvent,
    state: Contract | null,
  ): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as ContractEvent;
    const charge = (row: {
      transactionId: string;
      installment: number;
      attempt: number;
      rail: string;
      outcome: string;
      at: string;
    }) =>
      tx.query(
        `insert into contract_charges
           (transaction_id, contract_id, partner_id, installment, attempt, rail, outcome, charged_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (transaction_id) do update set outcome = excluded.outcome`,
        [
          row.transactionId,
          event.data.contractId,
          event.data.partnerId,
          row.installment,
          row.attempt,
          row.rail,
          row.outcome,
          row.at,
        ],
      );
    switch (event.type) {
      case 'ContractActivated': {
        const rail = event.data.paymentMethod.card ? 'CARD' : 'ACH';
        const { initialTransactionId, activatedAt } = event.data;
        await charge({
          transactionId: initialTransactionId,
          installment: 1,
          attempt: 0,
          rail,
          outcome: 'CHARGED',
          at: activatedAt,
        });
        return;
      }
      case 'ContractInstallmentCharged': {
        const d = event.data;
        await charge({ ...d, outcome: 'CHARGED', at: d.chargedAt });
        return;
      }
      case 'ContractInstallmentFailed': {
        const d = event.data;
        if (d.transactionId === null) return;
        // The row's rail column, as this event leaves the contract.
        const rail = state?.paymentMethodType ?? 'CARD';
        await charge({ ...d, transactionId: d.transactionId, rail, outcome: 'FAILED', at: d.failedAt });
        return;
      }
      case 'ContractInstallmentReturned':
        await tx.query(`update contract_charges set outcome = 'RETURNED' where transaction_id = $1`, [
          event.data.transactionId,
        ]);
        return;
      default:
        return;
    }
  }
}
