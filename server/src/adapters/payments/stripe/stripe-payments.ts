import { setTimeout as sleep } from 'node:timers/promises'
import Stripe from 'stripe'
import { checkStripeAmount } from '../../../domain/money'
import {
  PaymentsError,
  type MadeReversal,
  type MadeTransfer,
  type PaymentsPort,
} from '../payments-port'
import type { StripeRate } from './stripe-rate'

// The one way the server reaches Stripe: the `stripe` package with its own retries off, wrapped
// by a caller that paces requests under Stripe's rate limits (stripe-rate.ts) and retries what
// Stripe says may be retried, until the caller stops waiting. Every transfer carries our
// idempotency key, so resending one after a lost answer replays the first transfer rather than
// paying again; a read is always safe to resend, and so is a request Stripe refused with a 429,
// which did nothing. (Even with its retries off, stripe-node resends once, under the same key, a
// request whose connection closed before its answer: so one try may take two requests timeouts
// and half a second.)

export interface StripeOptions {
  /** STRIPE_SECRET_KEY; null makes every call fail, saying so. */
  secretKey: string | null
  /** TANDEM_STRIPE_ENDPOINT: the emulator in place of api.stripe.com; null for Stripe. */
  endpoint: string | null
  /** How long one HTTP request may take before it counts as a lost answer. */
  requestTimeoutMs?: number
  /** Paces requests to this process's share of Stripe's rate limits; absent, not paced (tests). */
  rate?: StripeRate
  /** Waits between attempts, cut short when `signal` aborts; the tests shorten them. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** Attempts in all for a call Stripe may be asked again (lost connection, 409, 5xx). */
export const STRIPE_ATTEMPTS = 4
/**
 * Attempts in all for a call Stripe keeps refusing with 429s (another process, or Stripe's own
 * judgement, took the rate): it did nothing, so it is asked again while its caller waits.
 */
const RATE_LIMITED_ATTEMPTS = 20
const BACKOFF_MS = 250
const MAX_BACKOFF_MS = 4000
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000
const LIST_PAGE = 100

export function connectStripe(options: StripeOptions): PaymentsPort {
  // An abort ends the wait early; the attempt after it is then not sent.
  const wait =
    options.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined))
  const client = options.secretKey ? stripeClient(options.secretKey, options) : null
  const rate = options.rate ?? null
  const notSent = () => new PaymentsError('Not sent to Stripe: the caller stopped waiting for it')

  /**
   * Runs `request` to `endpoint` (Stripe counts each operation's rate apart) in its turn, again
   * after a failure Stripe says is worth retrying, unless `signal` aborted.
   */
  async function call<T>(
    endpoint: StripeEndpoint,
    request: (stripe: Stripe) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (!client) throw new PaymentsError('Stripe is not configured: STRIPE_SECRET_KEY is not set')
    let failures = 0
    let rateLimited = 0
    for (;;) {
      if (rate) await rate.turn(endpoint, signal, notSent)
      else if (signal?.aborted) throw notSent()
      try {
        return await request(client)
      } catch (error) {
        const givenUp = isRateLimited(error)
          ? ++rateLimited >= RATE_LIMITED_ATTEMPTS
          : ++failures >= STRIPE_ATTEMPTS || !worthRetrying(error)
        if (givenUp) throw asPaymentsError(error)
        const backoff = BACKOFF_MS * 2 ** (failures + rateLimited - 1)
        await wait(Math.min(backoff, MAX_BACKOFF_MS), signal)
      }
    }
  }

  /** A read whose "no such thing" answers null rather than fail. */
  async function lookup<T>(
    endpoint: StripeEndpoint,
    read: (stripe: Stripe) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T | null> {
    try {
      return await call(endpoint, read, signal)
    } catch (error) {
      if (error instanceof PaymentsError && isMissing(error.cause)) return null
      throw error
    }
  }

  /** Every page of a list, oldest first (Stripe lists newest first). */
  async function allPages<T extends { id: string }>(
    endpoint: StripeEndpoint,
    list: (
      stripe: Stripe,
      page: { limit: number; starting_after?: string },
    ) => Promise<Stripe.ApiList<T>>,
    signal?: AbortSignal,
  ): Promise<T[]> {
    const found: T[] = []
    let startingAfter: string | undefined
    for (;;) {
      const page = await call(
        endpoint,
        (stripe) =>
          list(stripe, {
            limit: LIST_PAGE,
            ...(startingAfter ? { starting_after: startingAfter } : {}),
          }),
        signal,
      )
      found.push(...page.data)
      const last = page.data.at(-1)
      if (!page.has_more || !last) return found.reverse()
      startingAfter = last.id
    }
  }

  return {
    async connectedAccount(accountId, { signal } = {}) {
      const account = await lookup(
        'accounts.retrieve',
        (stripe) => stripe.accounts.retrieve(accountId),
        signal,
      )
      if (!account) return null
      return {
        accountId: account.id,
        email: account.email || null,
        transfersActive: account.capabilities?.transfers === 'active',
      }
    },

    async paymentIntent(id, { signal } = {}) {
      const intent = await lookup(
        'paymentIntents.retrieve',
        (stripe) => stripe.paymentIntents.retrieve(id),
        signal,
      )
      if (!intent) return null
      const charge = intent.latest_charge
      return {
        id: intent.id,
        status: intent.status,
        latestChargeId: typeof charge === 'string' ? charge : (charge?.id ?? null),
        amountReceivedMinor: intent.amount_received,
        currency: intent.currency.toUpperCase(),
        metadata: intent.metadata,
      }
    },

    async charge(id, { signal } = {}) {
      const charge = await lookup(
        'charges.retrieve',
        (stripe) => stripe.charges.retrieve(id, { expand: ['balance_transaction'] }),
        signal,
      )
      if (!charge) return null
      const settled = charge.balance_transaction
      if (settled === null || typeof settled === 'string') {
        throw new PaymentsError(`Stripe sent charge ${id} without its balance transaction`)
      }
      return {
        id: charge.id,
        currency: charge.currency.toUpperCase(),
        capturedMinor: charge.amount_captured,
        refundedMinor: charge.amount_refunded,
        settlement: {
          currency: settled.currency.toUpperCase(),
          // A JSON number printed back as Stripe wrote it ("1.085"), read exactly from there on.
          exchangeRate: settled.exchange_rate === null ? '1' : String(settled.exchange_rate),
        },
        fundsAvailableAt:
          settled.status === 'pending' ? new Date(settled.available_on * 1000).toISOString() : null,
      }
    },

    async balance(accountId, currency, { signal } = {}) {
      const balance = await call(
        'balance.retrieve',
        (stripe) =>
          stripe.balance.retrieve({}, accountId === null ? {} : { stripeAccount: accountId }),
        signal,
      )
      // Stripe lists a currency's amount once in each, or not at all when it holds none of it.
      const amountOf = (amounts: { amount: number; currency: string }[]) =>
        amounts.find((amount) => amount.currency === currency.toLowerCase())?.amount ?? 0
      return {
        availableMinor: amountOf(balance.available),
        pendingMinor: amountOf(balance.pending),
      }
    },

    async createTransfer(request, { signal } = {}) {
      // Stripe's own rule for the currency (BHD in tens, ISK in hundreds), before anything is sent.
      const amount = checkStripeAmount(request.amountMinor, request.currency)
      const transfer = await call(
        'transfers.create',
        (stripe) =>
          stripe.transfers.create(
            {
              amount,
              currency: request.currency.toLowerCase(),
              destination: request.destinationAccountId,
              ...(request.sourceTransaction !== null && {
                source_transaction: request.sourceTransaction,
              }),
              transfer_group: request.transferGroup,
              description: request.description,
              metadata: request.metadata,
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        signal,
      )
      return { id: transfer.id }
    },

    async reverseTransfer(request, { signal } = {}) {
      const amount = checkStripeAmount(request.amountMinor, request.currency)
      const reversal = await call(
        'transfers.createReversal',
        (stripe) =>
          stripe.transfers.createReversal(
            request.transferId,
            { amount, description: request.description, metadata: request.metadata },
            { idempotencyKey: request.idempotencyKey },
          ),
        signal,
      )
      return { id: reversal.id }
    },

    async transferReversals(transferId, { signal } = {}) {
      const reversals = await allPages(
        'transfers.listReversals',
        (stripe, page) => stripe.transfers.listReversals(transferId, page),
        signal,
      )
      return reversals.map((reversal): MadeReversal => ({
        id: reversal.id,
        amountMinor: reversal.amount,
        metadata: reversal.metadata ?? {},
      }))
    },

    async findTransfers({ transferGroup, destinationAccountId }, { signal } = {}) {
      const transfers = await allPages(
        'transfers.list',
        (stripe, page) =>
          stripe.transfers.list({
            transfer_group: transferGroup,
            ...(destinationAccountId ? { destination: destinationAccountId } : {}),
            ...page,
          }),
        signal,
      )
      return transfers.map((transfer): MadeTransfer => ({
        id: transfer.id,
        amountMinor: transfer.amount,
        currency: transfer.currency.toUpperCase(),
        metadata: transfer.metadata,
        sourceTransaction:
          typeof transfer.source_transaction === 'string'
            ? transfer.source_transaction
            : (transfer.source_transaction?.id ?? null),
        amountReversedMinor: transfer.amount_reversed,
      }))
    },
  }
}

function stripeClient(secretKey: string, options: StripeOptions): Stripe {
  const endpoint = options.endpoint ? new URL(options.endpoint) : null
  return new Stripe(secretKey, {
    // Ours instead (above): stripe-node resends a 429 only when Stripe-Should-Retry says so (a
    // lock timeout), never one over the rate limit, and its waits do not stop when the caller
    // stops waiting. The resend of a closed connection it keeps (see the top of this file).
    maxNetworkRetries: 0,
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    telemetry: false,
    ...(endpoint && {
      host: endpoint.hostname,
      port: endpoint.port,
      protocol: endpoint.protocol === 'http:' ? 'http' : 'https',
    }),
  })
}

/** The operations Tandem asks of Stripe, each an endpoint of its own rate limit. */
type StripeEndpoint =
  | 'accounts.retrieve'
  | 'balance.retrieve'
  | 'paymentIntents.retrieve'
  | 'charges.retrieve'
  | 'transfers.create'
  | 'transfers.list'
  | 'transfers.createReversal'
  | 'transfers.listReversals'

/**
 * A 429 Stripe does not advise against resending: over a rate limit (which stripe-node's own
 * retries never resend) or a lock timeout, refused before anything was done.
 */
function isRateLimited(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    error.statusCode === 429 &&
    error.headers?.['stripe-should-retry'] !== 'false'
  )
}

/** Stripe's advice first (Stripe-Should-Retry), then what the status says. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError) return true
  if (!(error instanceof Stripe.errors.StripeError)) return false
  const advice = error.headers?.['stripe-should-retry']
  if (advice === 'true' || advice === 'false') return advice === 'true'
  // A 429 never gets here: it is resent as rate-limited (isRateLimited).
  const status = error.statusCode ?? 0
  return status === 409 || status >= 500
}

/** An account not connected to the platform answers 403; an unknown object 404. */
function isMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    (error.statusCode === 404 || error.statusCode === 403) &&
    (error.code === 'resource_missing' || error.code === 'account_invalid')
  )
}

/**
 * Stripe refused the request and did nothing: a 4xx card or invalid-request error (an account
 * that cannot receive transfers, a source without enough left, no such account). Not a 409 or an
 * idempotency error (another request holds the key, or it was first used otherwise: what that one
 * did is unknown), not a 429, not an authentication or permission error (refused before the key
 * was looked at, where an earlier request's transfer would have been replayed), never a 5xx.
 */
function isDecline(error: Stripe.errors.StripeError): boolean {
  const status = error.statusCode ?? 0
  return (
    (error instanceof Stripe.errors.StripeCardError ||
      error instanceof Stripe.errors.StripeInvalidRequestError) &&
    status >= 400 &&
    status < 500 &&
    status !== 409 &&
    status !== 429
  )
}

function asPaymentsError(error: unknown): PaymentsError {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentsError('The connection to Stripe was lost before its answer arrived', {
      cause: error,
    })
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentsError(error.message, {
      cause: error,
      declined: isDecline(error),
      code: error.code ?? null,
    })
  }
  return new PaymentsError(error instanceof Error ? error.message : String(error), {
    cause: error,
  })
}
