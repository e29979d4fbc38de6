import { randomInt } from 'node:crypto'

// Everything the emulator remembers, as plain JSON so that it can be written to and read back from
// the state file unchanged. Amounts are minor units; currencies lower-case, as Stripe writes them;
// `created` is in unix seconds, as Stripe's objects carry it.

export interface AccountRecord {
  id: string
  email: string | null
  transfersActive: boolean
  created: number
  /**
   * Its available balance by currency: what transfers brought it, less what reversals took back
   * and what it spent (a payout, which a test sets).
   */
  available: Record<string, number>
  /**
   * What transfers from a charge whose funds are still pending brought it: available when the
   * charge's funds are (balance.ts).
   */
  pending: PendingFunds[]
}

/** Funds not yet available, in minor units of `currency`, until `availableOn` (unix seconds). */
export interface PendingFunds {
  /** The charge (on the platform) or the transfer (on a connected account) they came from. */
  source: string
  currency: string
  amount: number
  availableOn: number
}

/** A balance as Stripe keeps one: what can be spent now, and what will become available. */
export interface BalanceRecord {
  available: Record<string, number>
  pending: PendingFunds[]
}

export type PaymentIntentStatus =
  'succeeded' | 'processing' | 'requires_payment_method' | 'requires_capture' | 'canceled'

export interface PaymentIntentRecord {
  id: string
  amount: number
  currency: string
  status: PaymentIntentStatus
  /** Written by the platform when it created the intent; the creator's store cannot change it. */
  metadata: Record<string, string>
  /** The charge behind it; Stripe shows it as latest_charge only once the payment went through. */
  chargeId: string
  /** What was refunded of the charge, in minor units of `currency`. */
  amountRefunded: number
  /** The charge's balance transaction: the charge in the platform's settlement currency. */
  balanceTransaction: BalanceTransactionRecord
  created: number
  /** When the charge's funds become available in the platform's balance (Stripe's available_on). */
  availableOn: number
}

export interface BalanceTransactionRecord {
  id: string
  /** The platform's settlement currency, lower case. */
  currency: string
  /** The charge's amount converted; Stripe's `exchange_rate` (null when nothing was converted). */
  amount: number
  exchangeRate: number | null
}

export interface TransferRecord {
  id: string
  amount: number
  currency: string
  destination: string
  transferGroup: string | null
  sourceTransaction: string | null
  metadata: Record<string, string>
  description: string | null
  created: number
  /** The payment the transfer made on the connected account. */
  destinationPayment: string
  /** Oldest first; they never add up to more than `amount`. */
  reversals: ReversalRecord[]
}

/** A transfer reversal, in its transfer's currency. */
export interface ReversalRecord {
  id: string
  amount: number
  metadata: Record<string, string>
  /** Sent with the reversal; Stripe shows it in its Dashboard, not in the API's object. */
  description: string | null
  created: number
  /** The platform's balance transaction: the reversal's money back on the platform. */
  balanceTransaction: string
  /** The refund of the transfer's payment on the connected account. */
  destinationPaymentRefund: string
}

/** The first answer to a POST with an Idempotency-Key, replayed to later requests with the key. */
export interface SavedResponse {
  /** The request's parameters, canonical, to refuse the key's reuse with others. */
  params: string
  status: number
  body: unknown
  requestId: string
  /** Epoch ms on the emulator's clock. */
  savedAt: number
}

export interface EmulatorState {
  /** The platform's own balance: its charges' funds, less its transfers, plus its reversals. */
  platform: BalanceRecord
  accounts: Record<string, AccountRecord>
  paymentIntents: Record<string, PaymentIntentRecord>
  /** Oldest first. */
  transfers: TransferRecord[]
  /** By `${method} ${path} ${key}`: Stripe scopes a key to the endpoint it was first used on. */
  idempotency: Record<string, SavedResponse>
}

/** What every part of the emulator shares for its lifetime. */
export interface Runtime {
  state: EmulatorState
  secretKey: string
  now(): Date
  /** How long a new charge's funds stay pending (StripeEmulatorOptions.fundsPendingForSeconds). */
  fundsPendingForSeconds: number
  /** Persists the state after a change (a no-op without a state file). */
  save(): void
}

export const emptyState = (): EmulatorState => ({
  platform: { available: {}, pending: [] },
  accounts: {},
  paymentIntents: {},
  transfers: [],
  idempotency: {},
})

/** Moves `amount` (negative: takes it) into the balance's available funds in `currency`. */
export function addToBalance(
  balance: { available: Record<string, number> },
  currency: string,
  amount: number,
): void {
  balance.available[currency] = (balance.available[currency] ?? 0) + amount
}

/** Whether the charge's funds are still pending at `now`. */
export const isPending = (intent: PaymentIntentRecord, now: Date): boolean =>
  intent.availableOn > unixSeconds(now)

export const findTransfer = (state: EmulatorState, id: string): TransferRecord | undefined =>
  state.transfers.find((transfer) => transfer.id === id)

export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000)

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** An id in Stripe's form: the object's prefix and random letters ('tr_1PqX…'). */
export function newId(prefix: string, length = 24): string {
  let id = `${prefix}_`
  for (let i = 0; i < length; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
  return id
}
