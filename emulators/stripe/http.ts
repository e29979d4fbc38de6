import type { IncomingMessage, ServerResponse } from 'node:http'
import { formatMinorUnits } from '../../server/src/domain/money'

// Handlers compute an Answer instead of writing to the response, so that idempotency can save it
// and the fault layer can decide afterwards whether the caller gets it or a dropped connection.

export interface Answer {
  status: number
  headers?: Record<string, string>
  body: unknown
}

/**
 * What an endpoint makes of a request before acting: a refusal of its parameters (before the
 * endpoint began: nothing saved under the request's idempotency key), a decline once it began
 * (saved, as Stripe saves its answers "regardless of whether it succeeds or fails"), or the work.
 */
export type Prepared = { refusal: Answer } | { declined: Answer } | { work: () => Answer }

/** The `error` of every Stripe error answer; stripe-node picks its error class from the status. */
export interface StripeErrorBody {
  type: 'api_error' | 'idempotency_error' | 'invalid_request_error'
  code?: string
  doc_url?: string
  message: string
  param?: string
}

export const ok = (body: unknown): Answer => ({ status: 200, body })

export const stripeError = (status: number, error: StripeErrorBody): Answer => ({
  status,
  body: { error },
})

/** Stripe's 404 for an id it does not know: "No such transfer: 'tr_…'". */
export const resourceMissing = (object: string, id: string, param = 'id'): Answer =>
  stripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${object}: '${id}'`,
    param,
  })

/** Money that is not there: a charge that cannot fund a transfer, an account a reversal. */
export const balanceInsufficient = (message: string): Answer =>
  stripeError(400, { type: 'invalid_request_error', code: 'balance_insufficient', message })

/** Stripe's own wording for a refused parameter; `code` when Stripe gives one. */
export const invalidParam = (param: string, message: string, code?: string): Answer =>
  stripeError(400, { type: 'invalid_request_error', code, message, param })

/** The parameter as an integer within bounds, or Stripe's refusal of it. */
export function integerParam(
  param: string,
  value: string,
  min: number,
  max?: number,
): number | Answer {
  const refuse = (message: string) => invalidParam(param, message, 'parameter_invalid_integer')
  if (!/^-?\d+$/.test(value)) return refuse(`Invalid integer: ${value}`)
  const number = Number(value)
  if (number < min) return refuse(`This value must be greater than or equal to ${min}.`)
  if (max !== undefined && number > max)
    return refuse(`This value must be less than or equal to ${max}.`)
  return number
}

/** An amount as Stripe's messages write it: 4754 usd is '$47.54'. */
export const displayAmount = (minor: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
    formatMinorUnits(minor, currency.toUpperCase()) as Intl.StringNumericLiteral,
  )

/** Stripe's `sk_test_****abcd`: the key's prefix and last four characters, nothing else. */
export function maskKey(key: string): string {
  const prefix = /^[a-z]{2}_(test|live)_/.exec(key)?.[0] ?? ''
  const rest = key.slice(prefix.length)
  const shown = rest.length > 4 ? rest.slice(-4) : ''
  return prefix + '*'.repeat(rest.length - shown.length) + shown
}

/**
 * A form body or query as Stripe reads it: `metadata[k]=v` becomes `{ metadata: { k: v } }`. One
 * level of brackets is all the operations emulated here take.
 */
export type Params = Record<string, string | Record<string, string>>

export function parseParams(search: URLSearchParams): Params {
  const params: Params = {}
  for (const [name, value] of search) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(name)
    if (!bracket) {
      params[name] = value
      continue
    }
    const [, field = '', key = ''] = bracket
    const nested = params[field]
    params[field] = { ...(typeof nested === 'object' ? nested : {}), [key]: value }
  }
  return params
}

/** A text parameter; absent and empty alike are undefined, as Stripe unsets a field sent empty. */
export function textParam(params: Params, name: string): string | undefined {
  const value = params[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The `metadata[…]` parameters, {} when none were sent. */
export const metadataParam = (params: Params): Record<string, string> =>
  typeof params.metadata === 'object' ? params.metadata : {}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function send(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers })
  response.end(JSON.stringify(answer.body))
}
