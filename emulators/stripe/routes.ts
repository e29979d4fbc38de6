import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Timers } from '../shopify/timers'
import { retrieveAccount } from './accounts'
import { releaseDue, retrieveBalance } from './balance'
import { retrieveCharge } from './charges'
import type { FaultScript, StripeFault, StripeOperation } from './faults'
import {
  maskKey,
  parseParams,
  readBody,
  textParam,
  send,
  stripeError,
  type Answer,
  type Prepared,
} from './http'
import { fingerprint, type Idempotency } from './idempotency'
import { prepareCreatePaymentIntent, retrievePaymentIntent } from './payment-intents'
import { prepareRefund } from './refunds'
import { rateLimited, type RateLimiter } from './rate-limit'
import { findTransfer, newId, type Runtime } from './state'
import { listReversals, prepareReversal } from './reversals'
import { listTransfers, prepareTransfer, retrieveTransfer } from './transfers'

// The HTTP surface: Stripe API v1's routes for the operations Tandem uses, and those the sandbox's
// customer and payment app use (`npm run sandbox`: a payment, a refund). Each request is recorded,
// authenticated, offered to the fault script, then to idempotency, before its endpoint runs.

export interface Call {
  operation: StripeOperation | null
  method: string
  path: string
  idempotencyKey: string | null
  /** null while it runs, and for good when its connection was dropped. */
  status: number | null
}

export interface Surface {
  runtime: Runtime
  faults: FaultScript
  idempotency: Idempotency
  timers: Timers
  calls: Call[]
  /** Absent: no request is ever refused for its rate. */
  rateLimiter?: RateLimiter
}

interface Route {
  operation: StripeOperation | null
  /** What a fault's target is matched against. */
  target?: string
  /** What the endpoint would do under the fault the request drew. */
  prepare: (fault: StripeFault | undefined) => Prepared
}

const answering = (answer: () => Answer) => () => ({ work: answer })

function route(
  runtime: Runtime,
  method: string,
  url: URL,
  form: URLSearchParams,
  stripeAccount: string | null,
): Route {
  const path = url.pathname
  if (path === '/v1/balance' && method === 'GET')
    return {
      operation: 'balance.retrieve',
      target: stripeAccount ?? undefined,
      prepare: answering(() => retrieveBalance(runtime, stripeAccount)),
    }
  const [, resource, id] =
    /^\/v1\/(accounts|payment_intents|charges|transfers)\/([^/]+)$/.exec(path) ?? []
  if (resource === 'accounts' && id && method === 'GET')
    return {
      operation: 'accounts.retrieve',
      target: id,
      prepare: answering(() => retrieveAccount(runtime, id)),
    }
  if (resource === 'payment_intents' && id && method === 'GET')
    return {
      operation: 'paymentIntents.retrieve',
      target: id,
      prepare: answering(() => retrievePaymentIntent(runtime, id)),
    }
  if (resource === 'charges' && id && method === 'GET')
    return {
      operation: 'charges.retrieve',
      target: id,
      prepare: answering(() => retrieveCharge(runtime, id, url.searchParams)),
    }
  if (resource === 'transfers' && id && method === 'GET')
    return {
      operation: 'transfers.retrieve',
      target: findTransfer(runtime.state, id)?.destination,
      prepare: answering(() => retrieveTransfer(runtime, id)),
    }
  if (path === '/v1/refunds' && method === 'POST') {
    const params = parseParams(form)
    return {
      operation: 'refunds.create',
      target: textParam(params, 'charge') ?? textParam(params, 'payment_intent'),
      prepare: () => prepareRefund(runtime, params),
    }
  }
  if (path === '/v1/payment_intents' && method === 'POST') {
    const params = parseParams(form)
    return {
      operation: 'paymentIntents.create',
      prepare: () => prepareCreatePaymentIntent(runtime, params),
    }
  }
  if (path === '/v1/transfers' && method === 'POST') {
    const params = parseParams(form)
    const target = typeof params.destination === 'string' ? params.destination : undefined
    return {
      operation: 'transfers.create',
      target,
      prepare: () => prepareTransfer(runtime, params),
    }
  }
  if (path === '/v1/transfers' && method === 'GET')
    return {
      operation: 'transfers.list',
      target: url.searchParams.get('destination') ?? undefined,
      prepare: (fault) => ({
        work: () =>
          listTransfers(
            runtime,
            url.searchParams,
            fault?.mode === 'stale' ? (fault.behind ?? 1) : 0,
          ),
      }),
    }
  const [, reversed] = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path) ?? []
  if (reversed) {
    // Faults aim at the account the money would come back from, as for transfers.
    const target = findTransfer(runtime.state, reversed)?.destination
    if (method === 'POST') {
      const params = parseParams(form)
      return {
        operation: 'transfers.createReversal',
        target,
        prepare: () => prepareReversal(runtime, reversed, params),
      }
    }
    if (method === 'GET')
      return {
        operation: 'transfers.listReversals',
        target,
        prepare: answering(() => listReversals(runtime, reversed, url.searchParams)),
      }
  }
  const message =
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can ` +
    'help at https://support.stripe.com/.'
  const refusal = stripeError(404, { type: 'invalid_request_error', message })
  return { operation: null, prepare: () => ({ refusal }) }
}

function authenticate(runtime: Runtime, authorization: string | undefined): Answer | undefined {
  const key = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
  if (key === runtime.secretKey) return undefined
  const message =
    key === undefined
      ? 'You did not provide an API key. You need to provide your API key in the Authorization ' +
        "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
      : `Invalid API Key provided: ${maskKey(key)}`
  return stripeError(401, { type: 'invalid_request_error', message })
}

function faultAnswer(fault: { status?: number; message?: string }): Answer {
  const status = fault.status ?? 500
  if (status === 429) return rateLimited('global-rate', fault.message)
  const type = status < 500 ? 'invalid_request_error' : 'api_error'
  return stripeError(status, { type, message: fault.message ?? 'An unknown error occurred' })
}

/** The answer of an authenticated request, under the fault it drew. */
async function respond(
  surface: Surface,
  routed: Route,
  fault: StripeFault | undefined,
  request: { method: string; path: string; key: string | null; params: string },
  requestId: string,
): Promise<Answer> {
  // Stripe's edge refuses the request before any endpoint or idempotency key sees it.
  if (fault?.mode === 'fail') return faultAnswer(fault)
  const claim = surface.idempotency.claim(request, requestId)
  // The key stays claimed while the request waits, as Stripe's does while its request runs.
  if (fault?.mode === 'delay') await surface.timers.sleep(fault.delayMs)
  if ('answer' in claim) return claim.answer
  try {
    const prepared = routed.prepare(fault)
    if ('refusal' in prepared) {
      claim.release()
      return prepared.refusal
    }
    const answer =
      fault?.mode === 'fail_saved'
        ? faultAnswer(fault)
        : 'declined' in prepared
          ? prepared.declined
          : prepared.work()
    claim.save(answer)
    return answer
  } catch (error) {
    // The emulator's own failure must not leave the key claimed, answering 409 for ever.
    claim.release()
    throw error
  }
}

async function handle(surface: Surface, request: IncomingMessage, response: ServerResponse) {
  const method = request.method ?? 'GET'
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  const form = new URLSearchParams(await readBody(request))
  // Funds whose time came are available to this request, as they are in Stripe by then.
  releaseDue(surface.runtime.state, surface.runtime.now())
  const asAccount = request.headers['stripe-account']
  const routed = route(
    surface.runtime,
    method,
    url,
    form,
    typeof asAccount === 'string' ? asAccount : null,
  )
  const header = request.headers['idempotency-key']
  const key = typeof header === 'string' ? header : null
  const call: Call = {
    operation: routed.operation,
    method,
    path: url.pathname,
    idempotencyKey: key,
    status: null,
  }
  surface.calls.push(call)
  const requestId = newId('req', 14)

  // Stripe counts an account's requests, so only authenticated ones. A request refused here
  // (unauthenticated, or over the rate) reaches no endpoint: it spends no fault scripted for one
  // and saves nothing under its idempotency key.
  const refused =
    authenticate(surface.runtime, request.headers.authorization) ??
    surface.rateLimiter?.admit(routed.operation ?? `${method} ${url.pathname}`)
  const fault =
    refused || !routed.operation ? undefined : surface.faults.take(routed.operation, routed.target)
  const idempotent = { method, path: url.pathname, key, params: fingerprint(form) }
  const answer = refused ?? (await respond(surface, routed, fault, idempotent, requestId))
  // The work is done and kept; only the answer is lost, as when a connection breaks mid-reply.
  if (fault?.mode === 'drop_after_write') return void request.socket.destroy()
  call.status = answer.status
  const keyEcho: Record<string, string> = key && method === 'POST' ? { 'Idempotency-Key': key } : {}
  send(response, { ...answer, headers: { 'Request-Id': requestId, ...keyEcho, ...answer.headers } })
}

export function requestListener(surface: Surface) {
  return (request: IncomingMessage, response: ServerResponse) => {
    handle(surface, request, response).catch((error: unknown) => {
      if (response.headersSent) return
      const message = error instanceof Error ? error.message : String(error)
      send(response, stripeError(500, { type: 'api_error', message }))
    })
  }
}
