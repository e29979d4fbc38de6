import { randomUUID } from 'node:crypto'
import { TRANSFER_ERRORS } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import {
  LeaseLostError,
  type createTransferRepository,
  type StoredTransfer,
} from './transfer-repository'

// Claiming a creator order's transfer for one request: the lease that lets one request at a time
// process it, and another take over from one that died or stalled once the lease ran out. Every
// write made under it renews it and names its token (transfer-repository.ts's underLease), so a
// request overtaken meanwhile changes nothing and says so; the lease is given up when processing
// ends, unless a call may still land.

/**
 * Not one of the specification's messages (docs/product-rules.md "Order transfers"): the answer
 * to a request that lost the race for the lease.
 */
const TRANSFER_IN_PROGRESS = 'Order transfer is already being processed'
const TRANSFER_TAKEN_OVER =
  'Order transfer was taken over by another request while this one was held up: the preview shows where it stands'

type TransferRepository = ReturnType<typeof createTransferRepository>

/** The writes of the request holding a transfer's lease, each fenced by it. */
export type Lease = ReturnType<TransferRepository['underLease']>

/** What the request that claimed a transfer holds while it processes it. */
export interface Claim {
  lease: Lease
  /**
   * Set when a call ran past its deadline: it may still land, so the lease must not be given up
   * early.
   */
  unsettled: { call: boolean }
}

/** Whether another request holds the transfer's lease at `now`. */
const leaseHeld = (transfer: StoredTransfer, now: string) =>
  transfer.claimed_by !== null &&
  transfer.lease_expires_at !== null &&
  transfer.lease_expires_at > now

/**
 * What a request overtaken while it was held up answers: never a false COMPLETED, but a 409 that
 * says so. Any other error is answered as it is.
 */
export const overtakenAnswer = (error: unknown): unknown =>
  error instanceof LeaseLostError ? new Refusal('conflict', TRANSFER_TAKEN_OVER) : error

/**
 * The orders each app's requests are checking before they claim a transfer, by the app's
 * database handle: one app is one server process (tests run several in one).
 */
const checking = new WeakMap<object, Set<string>>()

export function transferClaims(
  deps: Pick<RouteDeps, 'db' | 'now'>,
  transfers: TransferRepository,
  leaseMs: number,
) {
  const timestamp = () => deps.now().toISOString()
  const leaseEnd = () => new Date(deps.now().getTime() + leaseMs).toISOString()

  return {
    /**
     * Refuses (409) a request that finds another holding the transfer's lease, at once rather
     * than making it wait: the holder reports the outcome, and a preview shows it.
     */
    refuseWhileHeld(existing: StoredTransfer | null): void {
      if (existing && leaseHeld(existing, timestamp())) {
        throw new Refusal('conflict', TRANSFER_IN_PROGRESS)
      }
    },

    /**
     * Runs `checks` (what a request asks of Shopify and Stripe before it claims the transfer)
     * unless another request of this process is running them for the same order: this one is then
     * refused (409) at once, as the lease would refuse it a moment later, rather than ask Shopify
     * and Stripe again what the first is asking (a console's double click, an automatic attempt
     * beside an administrator's). Only the checks: once claimed, a request that stalls can still
     * be taken over when its lease runs out. Other processes' requests are left to the lease.
     */
    async checkAlone<T>(creatorOrderId: string, checks: () => Promise<T>): Promise<T> {
      const mine = checking.get(deps.db) ?? new Set<string>()
      checking.set(deps.db, mine)
      if (mine.has(creatorOrderId)) throw new Refusal('conflict', TRANSFER_IN_PROGRESS)
      mine.add(creatorOrderId)
      try {
        return await checks()
      } finally {
        mine.delete(creatorOrderId)
      }
    },

    /**
     * Claims the transfer for `adminEmail`'s request and runs `work` under the claim, then gives
     * the lease up. Refused (409) when another request holds it or it completed since it was read.
     */
    async withClaim<T>(
      creatorOrderId: string,
      adminEmail: string | null,
      work: (claim: Claim) => Promise<T>,
    ): Promise<T> {
      const token = randomUUID()
      if (
        !(await transfers.claim(
          creatorOrderId,
          { token, adminEmail },
          timestamp(),
          leaseEnd(),
          leaseMs,
        ))
      ) {
        // Either another request holds it, or it completed since the first read.
        const current = await transfers.find(creatorOrderId)
        throw new Refusal(
          'conflict',
          current?.status === 'COMPLETED' ? TRANSFER_ERRORS.alreadyProcessed : TRANSFER_IN_PROGRESS,
        )
      }
      const claim: Claim = {
        lease: transfers.underLease(creatorOrderId, token, leaseEnd),
        unsettled: { call: false },
      }
      try {
        return await work(claim)
      } finally {
        // A call past its deadline may still land: the lease runs out rather than being given up,
        // so that the next attempt reconciles only once the call can no longer arrive.
        if (!claim.unsettled.call) await claim.lease.release()
      }
    },
  }
}
