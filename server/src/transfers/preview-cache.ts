import type { CommercePort } from '../adapters/commerce/commerce-port'
import type { PaymentsPort } from '../adapters/payments/payments-port'
import { sharedWork } from '../lib/shared-work'

// What a transfer's preview, receipt and the inbox's readiness read from Shopify (the creator
// order, each brand's variants) and Stripe (the order's PaymentIntent and charge, for the rate its
// charge settled at), kept for a few seconds so that an
// administrator looking at an order does not have the order and 20 brands' stores read again on
// each click. Only previews read through it: processing, refunds, reversals and accepting a price
// exception read Shopify fresh (transfer-service.ts), so nothing cached decides any money.
//
// Stripe's reads are kept by their ids and only expire: a charge's settlement never changes.
//
// A signed webhook from a shop (a brand's products/update or products/delete, a creator's
// refunds/create or orders/cancelled …) forgets what was kept of that shop at once, in the process
// it reached; other server processes keep their own cache, whose expiry bounds what they show. A
// read that began before such a webhook is not kept: it may hold what the webhook says changed.
// An edit of a creator order sends no webhook Tandem subscribes to: the expiry bounds it too. What
// Shopify finds of fraud sends none either, and an administrator's release must be seen to meet
// what Shopify found since: the fraud read is made afresh on each preview (one call). The inbox's
// readiness (a line per order, 50 to a page, read again each time the inbox is) reads that too
// through the cache: it decides nothing, and the order's preview shows what Shopify finds now.
//
// Readers asking for what is being read already wait for that read rather than send their own
// (a page of the inbox opened on several consoles at once): like an entry kept, it is not shared
// once a webhook from its shop arrived after it began.

/** How long an entry is shown, and how much the cache may hold (entries and estimated bytes). */
export interface PreviewCacheLimits {
  ttlMs: number
  maxEntries: number
  maxBytes: number
}

/**
 * Entries: a page of the inbox keeps each order's, its fraud reading's and its brands' catalogues
 * (50 × 5 for orders of three brands); previews more. Their bytes bound the memory.
 */
export const PREVIEW_CACHE_LIMITS: PreviewCacheLimits = {
  ttlMs: 5_000,
  maxEntries: 1_000,
  maxBytes: 8 * 1024 * 1024,
}

/** What Stripe's entries are kept under: no shop's webhook clears them. */
const STRIPE = 'stripe'

/** A read that took longer than this is not kept (its shop's webhooks are remembered as long). */
const READ_HORIZON_MS = 60_000

/** The reads a preview makes of Shopify; what it reads through the cache. */
type PreviewReads = Pick<CommercePort, 'findCreatorOrder' | 'readBrandVariants'>
/** And what the inbox's readiness reads through it besides. */
type ReadinessReads = PreviewReads & Pick<CommercePort, 'readFraudSignals'>

export interface PreviewCache {
  /** `commerce` with its preview reads answered from the cache while fresh. */
  reads(commerce: CommercePort): CommercePort
  /** The same, and what Shopify found of fraud: for the inbox's readiness only. */
  readinessReads(commerce: CommercePort): CommercePort
  /** `payments` with the order's PaymentIntent and charge answered from the cache while fresh. */
  payments(payments: PaymentsPort): PaymentsPort
  /** A signed webhook from `shop` arrived: what was kept of it is read again. */
  forgetShop(shop: string): void
  /** How many entries and estimated bytes it holds (for tests and benchmarks). */
  size(): { entries: number; bytes: number }
}

interface Entry {
  shop: string
  value: unknown
  bytes: number
  expiresAt: number
}

/** Strings are two bytes a character in V8 at worst; Maps are counted as their entries. */
const estimatedBytes = (value: unknown) =>
  2 * JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v)).length

export function createPreviewCache(
  limits: PreviewCacheLimits,
  /** Milliseconds, as the app's clock tells them. */
  clock: () => number,
): PreviewCache {
  // In insertion order: the oldest is the first evicted.
  const entries = new Map<string, Entry>()
  // When a webhook from the shop last arrived: a read begun before it is not kept. Only the last
  // READ_HORIZON_MS matter (an older read is not kept at all), so older marks are swept away.
  const forgotten = new Map<string, number>()
  let bytes = 0
  // The reads under way, by key, tagged with their shop when known before the answer.
  const underWay = sharedWork<unknown, string | null>()

  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.bytes
    entries.delete(key)
  }

  function keep(key: string, shop: string, value: unknown) {
    const size = estimatedBytes(value)
    if (size > limits.maxBytes) return
    drop(key)
    entries.set(key, { shop, value, bytes: size, expiresAt: clock() + limits.ttlMs })
    bytes += size
    for (const oldest of entries.keys()) {
      if (entries.size <= limits.maxEntries && bytes <= limits.maxBytes) break
      drop(oldest)
    }
  }

  /**
   * The value kept under `key` while fresh (a copy: readers may change theirs), else `read`'s (a
   * read under way for it joined: see shared-work.ts), kept unless a webhook from its shop
   * (`shopOf` it: the creator order's is known only from its answer) arrived since the read began.
   */
  async function through<T>(
    key: string,
    shop: string | null,
    read: (options: { signal: AbortSignal }) => Promise<T>,
    caller: { signal?: AbortSignal } | undefined,
    shopOf: (value: T) => string | null = () => shop,
  ): Promise<T> {
    const entry = entries.get(key)
    if (entry && entry.expiresAt > clock()) return structuredClone(entry.value) as T
    drop(key)
    const reading = async (signal: AbortSignal) => {
      const started = clock()
      const value = await read({ signal })
      const owner = shopOf(value)
      const current =
        clock() - started < READ_HORIZON_MS && (forgotten.get(owner ?? '') ?? -Infinity) < started
      if (value !== null && owner !== null && current) keep(key, owner, structuredClone(value))
      return value
    }
    const value = await underWay.join(key, reading, { caller: caller?.signal, tag: shop })
    return structuredClone(value) as T
  }

  function previewReads(commerce: CommercePort): PreviewReads {
    return {
      findCreatorOrder: (orderId, options) =>
        through(
          `order ${orderId}`,
          null,
          (read) => commerce.findCreatorOrder(orderId, read),
          options,
          (order) => order?.storeShop ?? null,
        ),
      readBrandVariants: (shop, variantIds, options) =>
        through(
          `variants ${shop} ${[...variantIds].sort().join(',')}`,
          shop,
          (read) => commerce.readBrandVariants(shop, variantIds, read),
          options,
        ),
    }
  }

  return {
    reads: (commerce) => ({ ...commerce, ...previewReads(commerce) }),
    readinessReads(commerce) {
      const cached: ReadinessReads = {
        ...previewReads(commerce),
        readFraudSignals: (shop, orderId, options) =>
          through(
            `fraud ${shop} ${orderId}`,
            shop,
            (read) => commerce.readFraudSignals(shop, orderId, read),
            options,
          ),
      }
      return { ...commerce, ...cached }
    },
    payments(payments) {
      const cached: Pick<PaymentsPort, 'paymentIntent' | 'charge'> = {
        paymentIntent: (id, options) =>
          through(`intent ${id}`, STRIPE, (read) => payments.paymentIntent(id, read), options),
        charge: (id, options) =>
          through(`charge ${id}`, STRIPE, (read) => payments.charge(id, read), options),
      }
      return { ...payments, ...cached }
    },
    forgetShop(shop) {
      const now = clock()
      for (const [marked, at] of forgotten)
        if (now - at >= READ_HORIZON_MS) forgotten.delete(marked)
      forgotten.set(shop, now)
      for (const [key, entry] of entries) if (entry.shop === shop) drop(key)
      // A read under way may hold what the webhook says changed: the next reader reads again.
      underWay.forget((readShop) => readShop === shop || readShop === null)
    },
    size: () => ({ entries: entries.size, bytes }),
  }
}
