import { accountInvalid } from './accounts'
import { ok, type Answer } from './http'
import { SETTLEMENT_CURRENCY, settledAmount } from './charges'
import {
  addToBalance,
  type AccountRecord,
  type BalanceRecord,
  type EmulatorState,
  isPending,
  type PaymentIntentRecord,
  type Runtime,
  type TransferRecord,
  unixSeconds,
} from './state'

// Balances, the platform's and each connected account's: what is available and what is pending,
// by currency, and GET /v1/balance (as the platform, or as a connected account with the
// Stripe-Account header: https://docs.stripe.com/api/balance/balance_retrieve). Stripe's rules, as
// the `stripe` package's types (v23, resources/Transfers.d.ts) state them:
// - a charge's funds land pending and become available at its balance transaction's
//   `available_on` (BalanceTransactions.d.ts);
// - a transfer with a `source_transaction` "will transfer immediately but the funds will not
//   become available until the original charge becomes available": it lands pending on the
//   connected account, and is taken from the charge's own funds on the platform;
// - a transfer without one is paid from the platform's available balance, which "must be able to
//   cover the transfer amount, or you'll receive an 'Insufficient Funds' error" (refused in
//   transfers.ts);
// - a reversal needs the connected account's available balance (refused in reversals.ts), and
//   gives the platform back available funds.
// Stripe does not say which part of the balance a refund comes out of: the emulator takes the
// stricter reading, the available balance (which may then go below zero).

/** Moves every pending amount whose time has come into its balance's available funds. */
export function releaseDue(state: EmulatorState, now: Date): void {
  const at = unixSeconds(now)
  for (const balance of [state.platform, ...Object.values(state.accounts)]) {
    for (const funds of balance.pending.filter((pending) => pending.availableOn <= at))
      addToBalance(balance, funds.currency, funds.amount)
    balance.pending = balance.pending.filter((pending) => pending.availableOn > at)
  }
}

/** A succeeded charge's funds land on the platform: pending until its `availableOn`. */
export function creditCharge(runtime: Runtime, intent: PaymentIntentRecord): void {
  if (intent.status !== 'succeeded') return
  const { amount, currency } = intent.balanceTransaction
  const { platform } = runtime.state
  if (isPending(intent, runtime.now())) {
    platform.pending.push({
      source: intent.chargeId,
      currency,
      amount,
      availableOn: intent.availableOn,
    })
  } else addToBalance(platform, currency, amount)
}

/** The platform's available balance in `currency`, as a transfer without a source draws on it. */
export const platformAvailable = (runtime: Runtime, currency: string): number =>
  runtime.state.platform.available[currency] ?? 0

/**
 * A transfer made: taken from its charge's funds still pending on the platform, else from the
 * platform's available balance; landed pending on the account while its charge's funds are.
 */
export function moveTransfer(
  runtime: Runtime,
  account: AccountRecord,
  transfer: TransferRecord,
  source: PaymentIntentRecord | undefined,
): void {
  const { platform } = runtime.state
  const { amount, currency } = transfer
  const charge =
    source &&
    platform.pending.find(
      (funds) => funds.source === source.chargeId && funds.currency === currency,
    )
  const fromPending = charge ? Math.min(charge.amount, amount) : 0
  if (charge) charge.amount -= fromPending
  if (amount > fromPending) addToBalance(platform, currency, fromPending - amount)
  if (source && isPending(source, runtime.now())) {
    account.pending.push({ source: transfer.id, currency, amount, availableOn: source.availableOn })
  } else addToBalance(account, currency, amount)
}

/** Stripe refunds `amount` of the charge's currency: out of the platform's available balance. */
export function refundFromPlatform(runtime: Runtime, intent: PaymentIntentRecord, amount: number) {
  const settled = settledAmount(amount, intent.currency, intent.balanceTransaction.exchangeRate)
  addToBalance(runtime.state.platform, intent.balanceTransaction.currency, -settled)
}

/** The charge's funds, and the transfers' from it, become available now. */
export function makeAvailable(runtime: Runtime, intent: PaymentIntentRecord): void {
  const at = unixSeconds(runtime.now())
  intent.availableOn = Math.min(intent.availableOn, at)
  const fromCharge = new Set([
    intent.chargeId,
    ...runtime.state.transfers
      .filter((transfer) => transfer.sourceTransaction === intent.chargeId)
      .map((transfer) => transfer.id),
  ])
  for (const balance of [runtime.state.platform, ...Object.values(runtime.state.accounts)]) {
    for (const funds of balance.pending) {
      if (fromCharge.has(funds.source)) funds.availableOn = Math.min(funds.availableOn, at)
    }
  }
  releaseDue(runtime.state, runtime.now())
}

/** A balance's pending funds by currency. */
export function pendingOf(balance: BalanceRecord): Record<string, number> {
  const pending: Record<string, number> = {}
  for (const funds of balance.pending) {
    if (funds.amount !== 0) pending[funds.currency] = (pending[funds.currency] ?? 0) + funds.amount
  }
  return pending
}

const byCurrency = (amounts: Record<string, number>, currencies: string[]) =>
  currencies.map((currency) => {
    const amount = amounts[currency] ?? 0
    return { amount, currency, source_types: { card: amount } }
  })

/** GET /v1/balance: the platform's, or the connected account's named by Stripe-Account. */
export function retrieveBalance(runtime: Runtime, accountId: string | null): Answer {
  const account = accountId === null ? undefined : runtime.state.accounts[accountId]
  if (accountId !== null && !account) return accountInvalid(runtime, accountId)
  const balance = account ?? runtime.state.platform
  const pending = pendingOf(balance)
  const currencies = [
    ...new Set([SETTLEMENT_CURRENCY, ...Object.keys(balance.available), ...Object.keys(pending)]),
  ].sort()
  return ok({
    object: 'balance',
    available: byCurrency(balance.available, currencies),
    pending: byCurrency(pending, currencies),
    livemode: false,
  })
}

/**
 * A state file written before balances were kept: every account's transfers available, and the
 * platform holding what its charges brought in, less refunds and transfers, plus reversals (no
 * `npm run stack:reset` needed).
 */
export function withBalances(state: EmulatorState): EmulatorState {
  for (const account of Object.values(state.accounts) as Partial<AccountRecord>[]) {
    account.available ??= {}
    account.pending ??= []
  }
  for (const intent of Object.values(state.paymentIntents) as Partial<PaymentIntentRecord>[])
    intent.availableOn ??= intent.created
  for (const transfer of state.transfers) {
    if ((transfer as Partial<TransferRecord>).reversals) continue
    transfer.reversals = []
    const account = state.accounts[transfer.destination]
    if (account) addToBalance(account, transfer.currency, transfer.amount)
  }
  if (!(state as Partial<EmulatorState>).platform) {
    const platform: BalanceRecord = { available: {}, pending: [] }
    for (const intent of Object.values(state.paymentIntents)) {
      if (intent.status !== 'succeeded') continue
      const { currency, exchangeRate } = intent.balanceTransaction
      const kept = intent.amount - intent.amountRefunded
      addToBalance(platform, currency, settledAmount(kept, intent.currency, exchangeRate))
    }
    for (const transfer of state.transfers) {
      const reversed = transfer.reversals.reduce((sum, reversal) => sum + reversal.amount, 0)
      addToBalance(platform, transfer.currency, reversed - transfer.amount)
    }
    state.platform = platform
  }
  return state
}
