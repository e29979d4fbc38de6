// The payment provider as the server needs it, shaped after Stripe Connect: a connected account
// per brand store, and Transfers created with an Idempotency-Key so a retry never pays twice.

interface ConnectedAccount {
  accountId: string
  email: string
}

export interface TransferRequest {
  amountMinor: number
  currency: string
  destinationAccountId: string
  /** Stripe's Idempotency-Key: the same key answers the same transfer, for 24 hours. */
  idempotencyKey: string
  /** Stripe's transfer_group: how the transfers of one creator order are found again. */
  transferGroup: string
  description: string
}

export interface PaymentsPort {
  connectedAccount(shop: string): Promise<ConnectedAccount | null>
  createTransfer(request: TransferRequest): Promise<{ id: string }>
  /** Transfers of a group to one destination (`transfers.list`), oldest first. */
  findTransfers(query: {
    transferGroup: string
    destinationAccountId: string
  }): Promise<{ id: string; amountMinor: number }[]>
}

/** A failure of the provider itself: answered as a 502. */
export class PaymentsError extends Error {
  override name = 'PaymentsError'
}
