import { GraphQLError, getDirectiveValues, type GraphQLResolveInfo } from 'graphql'
import type { IdempotencyRecord, ShopRecord } from './state'

// The @idempotent(key:) directive of API 2026-04 and later, on the mutations that require it
// (refundCreate and inventorySetQuantities, among those the emulator serves). A key Shopify has
// seen answers the result of its first call instead of acting again; the same key with other
// arguments is refused, and so is, whatever its arguments, a key whose refundCreate was refused
// (IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: "A previous request with this idempotency key failed.
// Retry with a new idempotency key."); a call without the directive fails outright. (A refused
// inventorySetQuantities does not keep its key here yet: the listing sync sends a refused stock
// write again under its key.) Shopify keeps keys 24 hours:
// a retry after that acts again, which is why a caller that lost an answer still reads the order's
// refunds (or the stock) to be sure.

const RETENTION_MS = 24 * 60 * 60 * 1000

const badRequest = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } })

/** The key on the field being resolved; throws Shopify's BAD_REQUEST when it is missing or blank. */
export function idempotencyKey(info: GraphQLResolveInfo): string {
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

export const PREVIOUS_ATTEMPT_FAILED =
  'A previous request with this idempotency key failed. Retry with a new idempotency key.'

/**
 * What a key already did in this shop: what its call made, a refusal (whatever the arguments now),
 * or another call's arguments.
 */
export function recall(
  shop: ShopRecord,
  key: string,
  fingerprint: string,
): IdempotencyRecord | 'failed before' | 'other arguments' | undefined {
  const now = Date.now()
  shop.idempotencyKeys = (shop.idempotencyKeys ?? []).filter((k) => now - k.at < RETENTION_MS)
  const seen = shop.idempotencyKeys.find((k) => k.key === key)
  if (!seen) return undefined
  if (seen.failed) return 'failed before'
  return seen.fingerprint === fingerprint ? seen : 'other arguments'
}

/** A call that made its refund or changes keeps its key, and so does a refused one (`failed`). */
export function remember(shop: ShopRecord, record: Omit<IdempotencyRecord, 'at'>): void {
  shop.idempotencyKeys = [...(shop.idempotencyKeys ?? []), { ...record, at: Date.now() }]
}
