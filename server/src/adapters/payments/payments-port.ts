// The payment provider as the server needs it, shaped after Stripe Connect: a connected account
// per brand store, the creator order's PaymentIntent, and Transfers from its charge created with
// an Idempotency-Key so that a retry never pays twice.

export interface ConnectedAccount {
  accountId: string
  /** Null when the account has none: processing refuses to pay it. */
  email: string | null
  /** Whether its `transfers` capability is active: transfers to it are refused otherwise. */
  transfersActive: boolean
}

/**
 * The keys of a PaymentIntent's metadata that name the creator order it pays for. The platform
 * writes them when it creates the intent; a creator's store can name an intent, never change it.
 */
export const PAYMENT_INTENT_METADATA = {
  creatorShop: 'creator_shop',
  creatorOrderId: 'creator_order_id',
} as const

export interface PaymentIntent {
  id: string
  /** `succeeded` once the customer's money is in. */
  status: string
  /** The charge transfers are made from (`source_transaction`); null until there is one. */
  latestChargeId: string | null
  /** What the customer paid, in minor units of `currency` (upper case, as orders have it). */
  amountReceivedMinor: number
  currency: string
  /** Written by the platform: PAYMENT_INTENT_METADATA names the creator order it pays for. */
  metadata: Record<string, string>
}

/** A charge, what is left of it, and how it settled in the platform's balance. */
export interface Charge {
  id: string
  /** Upper case, as orders have it; the amounts below are minor units of it. */
  currency: string
  capturedMinor: number
  refundedMinor: number
  /** Its balance transaction: the platform's settlement currency, and Stripe's rate into it. */
  settlement: {
    currency: string
    /** Stripe's `exchange_rate` as a decimal ("1.085"): `currency` times it is `settlement`'s; "1" when nothing was converted. */
    exchangeRate: string
  }
  /**
   * While its funds are pending on the platform's balance: when Stripe makes them available (its
   * balance transaction's `available_on`, ISO 8601), and with them the transfers made from it on
   * the accounts they went to. Null once they are available.
   */
  fundsAvailableAt: string | null
}

/** A balance in one currency, in its minor units: what can be spent now, and what is pending. */
export interface Balance {
  availableMinor: number
  pendingMinor: number
}

/** A transfer as Stripe lists it. */
export interface MadeTransfer {
  id: string
  amountMinor: number
  /** Upper case, as orders have it. */
  currency: string
  metadata: Record<string, string>
  /** The charge it was paid out of, if any. */
  sourceTransaction: string | null
  /** What was reversed of it since. */
  amountReversedMinor: number
}

/** Once `signal` aborts (the caller stopped waiting), nothing more is sent. */
export interface CallOptions {
  signal?: AbortSignal
}

export interface TransferRequest {
  amountMinor: number
  currency: string
  destinationAccountId: string
  /**
   * The charge the money comes from: Stripe then pays out of it, not the platform's balance. Null
   * pays out of the platform's available balance.
   */
  sourceTransaction: string | null
  /** Stripe's Idempotency-Key: the same key answers the same transfer, for 24 hours. */
  idempotencyKey: string
  /** Stripe's transfer_group: how the transfers of one creator order are found again. */
  transferGroup: string
  description: string
  metadata: Record<string, string>
}

/** A reversal of part or all of a transfer: the money goes back from the connected account. */
export interface ReversalRequest {
  transferId: string
  amountMinor: number
  /** The transfer's currency: a reversal is always in it. */
  currency: string
  /** Stripe's Idempotency-Key: the same key answers the same reversal, for 24 hours. */
  idempotencyKey: string
  description: string
  metadata: Record<string, string>
}

/** A reversal as Stripe lists it under its transfer. */
export interface MadeReversal {
  id: string
  amountMinor: number
  metadata: Record<string, string>
}

export interface PaymentsPort {
  /** Null when Stripe does not know the account, or it is not connected to the platform. */
  connectedAccount(accountId: string, options?: CallOptions): Promise<ConnectedAccount | null>
  /** Null when Stripe does not know it. */
  paymentIntent(id: string, options?: CallOptions): Promise<PaymentIntent | null>
  /** The charge with its balance transaction; null when Stripe does not know it. */
  charge(id: string, options?: CallOptions): Promise<Charge | null>
  createTransfer(request: TransferRequest, options?: CallOptions): Promise<{ id: string }>
  /**
   * The transfers of a group (to one destination when given) (`transfers.list`), oldest first.
   * Always by group: the platform's transfers as a whole grow with every order paid.
   */
  findTransfers(
    query: { transferGroup: string; destinationAccountId?: string },
    options?: CallOptions,
  ): Promise<MadeTransfer[]>
  /**
   * Reverses part of a transfer (`transfers.createReversal`). Refused (a decline) beyond what is
   * left of the transfer, or when the account's balance cannot cover it (`code`
   * `balance_insufficient`).
   */
  reverseTransfer(request: ReversalRequest, options?: CallOptions): Promise<{ id: string }>
  /**
   * The balance in `currency` of the platform (`accountId` null: what a transfer without a source
   * is paid from) or of a connected account (`balance.retrieve` as it, with Stripe-Account: what
   * a reversal of a transfer to it takes back from).
   */
  balance(accountId: string | null, currency: string, options?: CallOptions): Promise<Balance>
  /** The transfer's reversals (`transfers.listReversals`), oldest first. */
  transferReversals(transferId: string, options?: CallOptions): Promise<MadeReversal[]>
}

/**
 * Stripe's error code for a balance that cannot cover a transfer or a reversal
 * (https://docs.stripe.com/error-codes#balance-insufficient).
 */
export const BALANCE_INSUFFICIENT = 'balance_insufficient'

/** A failure of the provider itself, or its silence: answered as a 502. */
export class PaymentsError extends Error {
  override name = 'PaymentsError'
  /**
   * The provider answered that it refused the request and did nothing (a transfer it declines):
   * a definite outcome. False for every failure whose outcome is unknown: no answer, a timeout, a
   * 5xx, a conflict over the idempotency key, a rate limit.
   */
  readonly declined: boolean
  /** Stripe's error code, when it gave one (`balance_insufficient` …). */
  readonly code: string | null

  constructor(
    message: string,
    options: ErrorOptions & { declined?: boolean; code?: string | null } = {},
  ) {
    super(message, options)
    this.declined = options.declined ?? false
    this.code = options.code ?? null
  }
}
