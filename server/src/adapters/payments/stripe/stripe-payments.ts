import { setTimeout as sleep } from 'node:timers/promises'
import Stripe from 'stripe'
import { checkStripeAmount } from '../../../domain/money'
import { PaymentsError, type MadeTransfer, type PaymentsPort } from '../payments-port'

// The one way the server reaches Stripe: the `stripe` package with its own retries off, wrapped
// by a caller that retries what Stripe says may be retried, until the caller stops waiting. Every
// transfer carries our idempotency key, so resending one after a lost answer replays the first
// transfer rather than paying again; a read is always safe to resend. (Even with its retries off,
// stripe-node resends once, under the same key, a request whose connection closed before its
// answer: so one try may take two requests timeouts and half a second.)

export interface StripeOptions {
  /** STRIPE_SECRET_KEY; null makes every call fail, saying so. */
  secretKey: string | null
  /** TANDEM_STRIPE_ENDPOINT: the emulator in place of api.stripe.com; null for Stripe. */
  endpoint: string | null
  /** How long one HTTP request may take before it counts as a lost answer. */
  requestTimeoutMs?: number
  /** Waits between attempts; the tests shorten them. */
  wait?: (ms: number) => Promise<void>
}

/** Attempts in all for a call Stripe may be asked again (lost connection, 409, 429, 5xx). */
export const STRIPE_ATTEMPTS = 4
const BACKOFF_MS = 250
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000
const TRANSFERS_PAGE = 100

export function connectStripe(options: StripeOptions): PaymentsPort {
  const wait = options.wait ?? ((ms: number) => sleep(ms))
  const client = options.secretKey ? stripeClient(options.secretKey, options) : null

  /** Runs `request`, again after a failure Stripe says is worth retrying, unless `signal` aborted. */
  async function call<T>(
    request: (stripe: Stripe) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (!client) throw new PaymentsError('Stripe is not configured: STRIPE_SECRET_KEY is not set')
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) {
        throw new PaymentsError('Not sent to Stripe: the caller stopped waiting for it')
      }
      try {
        return await request(client)
      } catch (error) {
        if (attempt >= STRIPE_ATTEMPTS || !worthRetrying(error)) throw asPaymentsError(error)
        await wait(BACKOFF_MS * 2 ** (attempt - 1))
      }
    }
  }

  /** A read whose "no such thing" answers null rather than fail. */
  async function lookup<T>(
    read: (stripe: Stripe) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T | null> {
    try {
      return await call(read, signal)
    } catch (error) {
      if (error instanceof PaymentsError && isMissing(error.cause)) return null
      throw error
    }
  }

  return {
    async connectedAccount(accountId, { signal } = {}) {
      const account = await lookup((stripe) => stripe.accounts.retrieve(accountId), signal)
      if (!account) return null
      return {
        accountId: account.id,
        email: account.email || null,
        transfersActive: account.capabilities?.transfers === 'active',
      }
    },

    async paymentIntent(id, { signal } = {}) {
      const intent = await lookup((stripe) => stripe.paymentIntents.retrieve(id), signal)
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
        createdAt: charge.created,
        settlement: {
          currency: settled.currency.toUpperCase(),
          // A JSON number printed back as Stripe wrote it ("1.085"), read exactly from there on.
          exchangeRate: settled.exchange_rate === null ? '1' : String(settled.exchange_rate),
        },
      }
    },

    async createTransfer(request, { signal } = {}) {
      // Stripe's own rule for the currency (BHD in tens, ISK in hundreds), before anything is sent.
      const amount = checkStripeAmount(request.amountMinor, request.currency)
      const transfer = await call(
        (stripe) =>
          stripe.transfers.create(
            {
              amount,
              currency: request.currency.toLowerCase(),
              destination: request.destinationAccountId,
              source_transaction: request.sourceTransaction,
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

    async findTransfers({ transferGroup, destinationAccountId, createdSince }, { signal } = {}) {
      const found: MadeTransfer[] = []
      let startingAfter: string | undefined
      for (;;) {
        const page = await call(
          (stripe) =>
            stripe.transfers.list({
              ...(transferGroup ? { transfer_group: transferGroup } : {}),
              ...(destinationAccountId ? { destination: destinationAccountId } : {}),
              ...(createdSince !== undefined ? { created: { gte: createdSince } } : {}),
              limit: TRANSFERS_PAGE,
              ...(startingAfter ? { starting_after: startingAfter } : {}),
            }),
          signal,
        )
        found.push(
          ...page.data.map((transfer) => ({
            id: transfer.id,
            amountMinor: transfer.amount,
            currency: transfer.currency.toUpperCase(),
            metadata: transfer.metadata,
            sourceTransaction:
              typeof transfer.source_transaction === 'string'
                ? transfer.source_transaction
                : (transfer.source_transaction?.id ?? null),
            amountReversedMinor: transfer.amount_reversed,
          })),
        )
        const last = page.data.at(-1)
        if (!page.has_more || !last) break
        startingAfter = last.id
      }
      // Stripe lists newest first.
      return found.reverse()
    },
  }
}

function stripeClient(secretKey: string, options: StripeOptions): Stripe {
  const endpoint = options.endpoint ? new URL(options.endpoint) : null
  return new Stripe(secretKey, {
    // Ours instead (above), which also retry a 429 and stop once the caller stops waiting; the
    // resend of a closed connection it keeps (see the top of this file).
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

/** Stripe's advice first (Stripe-Should-Retry), then what the status says. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError) return true
  if (!(error instanceof Stripe.errors.StripeError)) return false
  const advice = error.headers?.['stripe-should-retry']
  if (advice === 'true' || advice === 'false') return advice === 'true'
  const status = error.statusCode ?? 0
  return status === 409 || status === 429 || status >= 500
}

/** An account not connected to the platform answers 403; an unknown object 404. */
function isMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    (error.statusCode === 404 || error.statusCode === 403) &&
    (error.code === 'resource_missing' || error.code === 'account_invalid')
  )
}

function asPaymentsError(error: unknown): PaymentsError {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentsError('The connection to Stripe was lost before its answer arrived', {
      cause: error,
    })
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentsError(error.message, { cause: error })
  }
  return new PaymentsError(error instanceof Error ? error.message : String(error), {
    cause: error,
  })
}
