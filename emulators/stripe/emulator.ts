import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Timers } from '../shopify/timers'
import { loadStateFile, saveStateFile } from '../state-file'
import { makeAvailable, pendingOf, releaseDue, withBalances } from './balance'
import { FaultScript, type StripeFault, type StripeOperation } from './faults'
import { Idempotency } from './idempotency'
import { RateLimiter, type StripeRateLimits } from './rate-limit'
import { addIntent, type NewPaymentIntent } from './payment-intents'
import { refundCharge } from './refunds'
import { requestListener, type Call } from './routes'
import { seedSandbox } from './seed'
import {
  emptyState,
  newId,
  type EmulatorState,
  type ReversalRecord,
  type TransferRecord,
  unixSeconds,
  type Runtime,
} from './state'

// A local Stripe: the API v1 surface Tandem's Stripe adapter talks to (connected accounts and
// their balances, PaymentIntents, transfers and their reversals, idempotency keys) plus the
// controls tests and demos need to make Stripe misbehave. stripe-node reaches it with
// `{ host: '127.0.0.1', port, protocol: 'http' }`.

export type { StripeFault, StripeOperation } from './faults'
export {
  STRIPE_LIVE_RATE_LIMITS,
  STRIPE_SANDBOX_RATE_LIMITS,
  type StripeRateLimits,
} from './rate-limit'

export const SANDBOX_STRIPE_SECRET_KEY = 'sk_test_tandem_sandbox'

export interface StripeEmulatorOptions {
  /** 0 or absent: a free port on 127.0.0.1. */
  port?: number
  /** The platform key it accepts; SANDBOX_STRIPE_SECRET_KEY when absent. */
  secretKey?: string
  /** The sandbox of docs/product-rules.md unless false; ignored when the state file exists. */
  seed?: boolean
  /** Loaded at start when present, rewritten after each change; in memory only when absent. */
  stateFile?: string
  /** The emulator's clock: `created` timestamps, the 24-hour idempotency window, the rate limits. */
  now?: () => Date
  /**
   * Stripe's rate limits (STRIPE_LIVE_RATE_LIMITS, STRIPE_SANDBOX_RATE_LIMITS or any), answering
   * 429 over them; absent, the emulator takes any rate, as the tests of everything else need.
   */
  rateLimits?: StripeRateLimits
  /**
   * How long a charge's funds stay pending on the platform's balance, and the transfers made
   * from it on the accounts they went to, on the emulator's clock (balance.ts); 0 or absent:
   * available at once, as the sandbox and the tests of everything else need.
   */
  fundsPendingForSeconds?: number
}

/** A transfer as a test reads it; its reversals are read apart. */
export type EmulatedTransfer = Omit<TransferRecord, 'destinationPayment' | 'reversals'>

/** A transfer reversal as a test reads it, with the transfer it took money back from. */
export type EmulatedReversal = Pick<
  ReversalRecord,
  'id' | 'amount' | 'metadata' | 'description' | 'created'
> & { transfer: string; destination: string; currency: string }

export interface StripeEmulator {
  url: string
  secretKey: string
  close(): Promise<void>
  script(fault: StripeFault): void
  /** Forgets the faults not yet used up: Stripe behaves again. */
  unscript(): void
  /** A connected account; answers its id (generated `acct_…` when not given). email null = an account without email. */
  addAccount(account?: { id?: string; email?: string | null; transfersActive?: boolean }): string
  /** Stripe turns the account's transfers capability on or off. */
  setTransfersActive(accountId: string, active: boolean): void
  /** The account's owner sets its email in Stripe (null: removes it). */
  setEmail(accountId: string, email: string | null): void
  /**
   * A PaymentIntent with its charge (latest_charge); status 'succeeded' unless given. The charge
   * settles in USD, at `exchangeRate` when given, else at the emulator's rate for the currency.
   */
  addPaymentIntent(intent: NewPaymentIntent): { id: string; chargeId: string }
  /** Stripe refunds `amount` more of the charge (minor units of its currency). */
  refund(chargeId: string, amount: number): void
  /** Every transfer made, oldest first. */
  transfers(): EmulatedTransfer[]
  /** Every transfer reversal made: the oldest transfer's first, each transfer's oldest first. */
  reversals(): EmulatedReversal[]
  /**
   * The account's available balance by currency (minor units): what transfers brought it, less
   * what reversals took back, as last set by setBalance.
   */
  balance(accountId: string): Record<string, number>
  /** The account's pending balance by currency: transfers from charges whose funds are pending. */
  pendingBalance(accountId: string): Record<string, number>
  /** The account's available balance in `currency` becomes `amount`, as after a payout of the rest. */
  setBalance(accountId: string, currency: string, amount: number): void
  /** The platform's own balance by currency: available and pending. */
  platformBalance(): { available: Record<string, number>; pending: Record<string, number> }
  /**
   * The platform's available balance in `currency` becomes `amount`, as after its payout of the
   * rest, or a top-up.
   */
  setPlatformBalance(currency: string, amount: number): void
  /** The charge's funds become available now, and with them the transfers made from it. */
  makeFundsAvailable(chargeId: string): void
  /** Every request received, oldest first: what tests count. */
  calls(): {
    operation: StripeOperation | null
    method: string
    path: string
    idempotencyKey: string | null
    status: number | null
  }[]
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

export async function startStripeEmulator(
  options: StripeEmulatorOptions = {},
): Promise<StripeEmulator> {
  const now = options.now ?? (() => new Date())
  const file = options.stateFile ? loadStateFile<EmulatorState>(options.stateFile) : undefined
  const loaded = file && withBalances(file)
  const state = loaded ?? emptyState()
  const secretKey = options.secretKey ?? SANDBOX_STRIPE_SECRET_KEY
  const runtime: Runtime = {
    state,
    secretKey,
    now,
    fundsPendingForSeconds: options.fundsPendingForSeconds ?? 0,
    save: () => {
      if (options.stateFile) saveStateFile(options.stateFile, state)
    },
  }
  if (!loaded && options.seed !== false) seedSandbox(runtime)
  if (!loaded) runtime.save()
  /** Balances as they stand now: what became available since is moved first. */
  const released = () => {
    releaseDue(state, now())
    return state
  }

  const accountOf = (accountId: string) => {
    const account = state.accounts[accountId]
    if (!account) throw new Error(`The emulator has no account ${accountId}`)
    return account
  }

  const chargeOf = (chargeId: string) => {
    const intent = Object.values(state.paymentIntents).find((i) => i.chargeId === chargeId)
    if (!intent) throw new Error(`The emulator has no charge ${chargeId}`)
    return intent
  }

  const server = createServer()
  const url = `http://127.0.0.1:${await listen(server, options.port ?? 0)}`
  const faults = new FaultScript()
  const timers = new Timers()
  const calls: Call[] = []
  const idempotency = new Idempotency(runtime)
  const rateLimiter =
    options.rateLimits && new RateLimiter(options.rateLimits, () => now().getTime())
  server.on(
    'request',
    requestListener({ runtime, faults, idempotency, timers, calls, rateLimiter }),
  )

  return {
    url,
    secretKey,
    close: () => {
      timers.clear()
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
    },
    script: (fault) => faults.add(fault),
    unscript: () => faults.clear(),
    addAccount: (account = {}) => {
      const id = account.id ?? newId('acct', 16)
      if (state.accounts[id]) throw new Error(`The emulator already has account ${id}`)
      state.accounts[id] = {
        id,
        email: account.email === undefined ? `payouts@${id}.example` : account.email,
        transfersActive: account.transfersActive ?? true,
        created: unixSeconds(now()),
        available: {},
        pending: [],
      }
      runtime.save()
      return id
    },
    setTransfersActive: (accountId, active) => {
      accountOf(accountId).transfersActive = active
      runtime.save()
    },
    setEmail: (accountId, email) => {
      accountOf(accountId).email = email
      runtime.save()
    },
    addPaymentIntent: (intent) => {
      const { id, chargeId } = addIntent(runtime, intent)
      return { id, chargeId }
    },
    refund: (chargeId, amount) => {
      const intent = chargeOf(chargeId)
      if (intent.amountRefunded + amount > intent.amount) {
        throw new Error(`Charge ${chargeId} has less than ${amount} left to refund`)
      }
      refundCharge(runtime, intent, amount)
    },
    transfers: () =>
      state.transfers.map((transfer) => ({
        id: transfer.id,
        amount: transfer.amount,
        currency: transfer.currency,
        destination: transfer.destination,
        transferGroup: transfer.transferGroup,
        sourceTransaction: transfer.sourceTransaction,
        metadata: { ...transfer.metadata },
        description: transfer.description,
        created: transfer.created,
      })),
    reversals: () =>
      state.transfers.flatMap((transfer) =>
        transfer.reversals.map((reversal) => ({
          id: reversal.id,
          amount: reversal.amount,
          metadata: { ...reversal.metadata },
          description: reversal.description,
          created: reversal.created,
          transfer: transfer.id,
          destination: transfer.destination,
          currency: transfer.currency,
        })),
      ),
    balance: (accountId) => {
      released()
      return { ...accountOf(accountId).available }
    },
    pendingBalance: (accountId) => {
      released()
      return pendingOf(accountOf(accountId))
    },
    setBalance: (accountId, currency, amount) => {
      released()
      accountOf(accountId).available[currency.toLowerCase()] = amount
      runtime.save()
    },
    platformBalance: () => {
      const { platform } = released()
      return { available: { ...platform.available }, pending: pendingOf(platform) }
    },
    setPlatformBalance: (currency, amount) => {
      released().platform.available[currency.toLowerCase()] = amount
      runtime.save()
    },
    makeFundsAvailable: (chargeId) => {
      makeAvailable(runtime, chargeOf(chargeId))
      runtime.save()
    },
    calls: () => calls.map((call) => ({ ...call })),
  }
}
