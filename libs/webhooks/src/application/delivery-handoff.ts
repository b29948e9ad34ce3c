import type { ClaimedDelivery } from './delivery-queue';

/** A fresh delivery the projector leased to this process, with when it falls due (platform clock). */
export interface HandedDelivery extends ClaimedDelivery {
  dueAt: Date;
}

/**
 * Fresh deliveries, from the `webhooks` projector straight to this process's delivery worker
 * (docs/adr/0006-webhook-delivery.md, "Fresh deliveries skip the claim").
 *
 * While a worker is attached, the projector inserts the deliveries it creates already leased to
 * this process (the lease the worker's claim would have taken), and after its transaction commits
 * hands them over with everything an attempt needs (endpoint, URL, envelope body), which it had
 * in memory anyway. The worker sends them at once: no NOTIFY, no claim statement, no second read of
 * what was just written. Nothing is lost if this process dies between the commit and the attempt:
 * the lease runs out and any process claims the delivery (at least once, as for a process killed
 * mid-attempt).
 */
export class DeliveryHandoff {
  private worker: ((deliveries: HandedDelivery[]) => void) | null = null;
  private lease = 0;

  /** The worker takes fresh deliveries from now on, leased for `leaseSeconds`. */
  attach(leaseSeconds: number, take: (deliveries: HandedDelivery[]) => void): void {
    this.lease = leaseSeconds;
    this.worker = take;
  }

  /** The worker is stopping: fresh deliveries are left unleased, for the claims of any process. */
  detach(): void {
    this.worker = null;
  }

  /** The lease to give fresh deliveries, or null while no worker takes them. */
  leaseSeconds(): number | null {
    return this.worker ? this.lease : null;
  }

  /**
   * After the commit that created them. False when no worker takes them any more: their leases
   * then run out and they are claimed like any other.
   */
  deliver(deliveries: HandedDelivery[]): boolean {
    if (!this.worker) return false;
    this.worker(deliveries);
    return true;
  }
}
