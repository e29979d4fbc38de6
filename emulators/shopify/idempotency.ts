import { GraphQLError, getDirectiveValues, type GraphQLResolveInfo } from 'graphql'
import type { RequestContext } from './context'
import type { IdempotencyRecord } from './state'

// The @idempotent(key:) directive of API 2026-04 and later, on the mutations that require it
// (refundCreate and inventorySetQuantities, among those the emulator serves), one rule for both as
// Shopify's guide gives it for every @idempotent mutation ("Implementing idempotency",
// shopify.dev/docs/api/usage/implementing-idempotency, with the codes of Admin API 2026-10's
// InventorySetQuantitiesUserErrorCode): a key whose call made its change answers that change again
// instead of acting; the same key with other arguments is refused
// (IDEMPOTENCY_KEY_PARAMETER_MISMATCH); a key whose call was refused (userErrors) is refused for
// good, whatever its arguments now (IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: "A previous request with
// this idempotency key failed. Retry with a new idempotency key."); a call without the directive
// fails outright. Shopify keeps keys 24 hours: a retry after that acts again, which is why a caller
// that lost an answer still reads the order's refunds (or the stock) to be sure.

const RETENTION_MS = 24 * 60 * 60 * 1000

const badRequest = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } })

/** The key on the field being resolved; throws Shopify's BAD_REQUEST when it is missing or blank. */
function idempotencyKey(info: GraphQLResolveInfo): string {
  const directive = info.schema.getDirective('idempotent')
  const node = info.fieldNodes[0]
  const values = directive && node && getDirectiveValues(directive, node, info.variableValues)
  const key = values?.key
  if (typeof key !== 'string')
    throw badRequest(
      'The @idempotent directive is required for this mutation but was not provided.',
    )
  if (key.trim() === '')
    throw badRequest('The idempotency key cannot be an empty string or whitespace only.')
  return key
}

/** The arguments as one string, key order aside, so that a retry matches its first call. */
export function fingerprintOf(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, field]) => field !== undefined)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, field]) => [name, sorted(field)]),
          )
        : v
  return JSON.stringify(sorted(value))
}

/** Why a key was not acted on, in Shopify's code and words. */
export interface KeyRefusal {
  code: 'IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED' | 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH'
  message: string
}

const PREVIOUS_ATTEMPT_FAILED: KeyRefusal = {
  code: 'IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED',
  message: 'A previous request with this idempotency key failed. Retry with a new idempotency key.',
}
const KEY_REUSED: KeyRefusal = {
  code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH',
  message: 'The same idempotency key cannot be used with different operation parameters.',
}

/** What a call that acted made: a refund, or a group of inventory changes. */
export type Made = Pick<IdempotencyRecord, 'refundId' | 'adjustmentGroup'>

/** One @idempotent mutation's payloads: its own work, its first call's again, or a refusal. */
export interface IdempotentCall<Payload> {
  /** Acts: its payload, and what it made, or null when it was refused (its userErrors). */
  act(): { payload: Payload; made: Made | null }
  /** The payload of the first call's change as it stands now; null when it is gone. */
  replay(made: Made): Payload | null
  refuse(refusal: KeyRefusal): Payload
}

/** Runs the mutation being resolved under its key, by the rule above. */
export function idempotent<Payload>(
  { shop, runtime }: RequestContext,
  info: GraphQLResolveInfo,
  args: unknown,
  call: IdempotentCall<Payload>,
): Payload {
  const key = idempotencyKey(info)
  const fingerprint = fingerprintOf({ [info.fieldName]: args })
  const now = Date.now()
  shop.idempotencyKeys = (shop.idempotencyKeys ?? []).filter((k) => now - k.at < RETENTION_MS)
  const seen = shop.idempotencyKeys.find((k) => k.key === key)
  if (seen?.failed) return call.refuse(PREVIOUS_ATTEMPT_FAILED)
  if (seen && seen.fingerprint !== fingerprint) return call.refuse(KEY_REUSED)
  const again = seen && call.replay(seen)
  if (again) return again
  const { payload, made } = call.act()
  const record = { key, fingerprint, at: Date.now(), ...(made ?? { failed: true }) }
  shop.idempotencyKeys = [...shop.idempotencyKeys.filter((k) => k !== seen), record]
  runtime.save()
  return payload
}
