import { describe, expect, it } from 'vitest'
import type { CommercePort } from '../../server/src/adapters/commerce/commerce-port'
import { createPreviewCache } from '../../server/src/transfers/preview-cache'

// The cache previews read Shopify through (transfers/preview-cache.ts): how long it keeps what it
// read, how much it holds, and that a read overtaken by a webhook is not kept. Shopify here is a
// counter of reads, so that what each look cost is seen.

function brandStores() {
  const read: string[] = []
  let priceMinor = 3450
  const commerce = {
    readBrandVariants: async (shop: string, ids: string[]) => {
      read.push(shop)
      return {
        currency: 'USD',
        variants: new Map(ids.map((id) => [id, { priceMinor, productStatus: 'ACTIVE' }])),
      }
    },
  } as unknown as CommercePort
  return { commerce, read, setPrice: (minor: number) => void (priceMinor = minor) }
}

const priceOf = async (commerce: CommercePort, shop: string) =>
  (await commerce.readBrandVariants(shop, ['v1'])).variants.get('v1')?.priceMinor

describe('the preview cache', () => {
  it('keeps a read for its few seconds, then reads Shopify again', async () => {
    let now = 0
    const brands = brandStores()
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 10, maxBytes: 1e6 }, () => now)
    const reads = cache.reads(brands.commerce)
    expect(await priceOf(reads, 'lumen')).toBe(3450)
    brands.setPrice(3600)
    now = 4999
    expect(await priceOf(reads, 'lumen')).toBe(3450)
    now = 5000
    expect(await priceOf(reads, 'lumen')).toBe(3600)
    expect(brands.read).toEqual(['lumen', 'lumen'])
  })

  it('holds no more entries nor bytes than its bounds, forgetting the oldest first', async () => {
    const brands = brandStores()
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 2, maxBytes: 1e6 }, () => 0)
    const reads = cache.reads(brands.commerce)
    for (const shop of ['a', 'b', 'c']) await priceOf(reads, shop)
    expect(cache.size().entries).toBe(2)
    await priceOf(reads, 'b')
    await priceOf(reads, 'a')
    expect(brands.read).toEqual(['a', 'b', 'c', 'a'])

    const small = createPreviewCache({ ttlMs: 5000, maxEntries: 100, maxBytes: 250 }, () => 0)
    const smallReads = small.reads(brands.commerce)
    for (const shop of ['d', 'e', 'f']) await priceOf(smallReads, shop)
    // One catalogue of one variant is about 120 bytes: two do not fit in 250.
    expect(small.size()).toMatchObject({ entries: 1 })
    expect(small.size().bytes).toBeLessThanOrEqual(250)
  })

  it("does not keep a read that a webhook from its shop overtook: it may hold the webhook's change", async () => {
    let now = 0
    const brands = brandStores()
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 10, maxBytes: 1e6 }, () => now)
    const reads = cache.reads(brands.commerce)
    const slow = {
      ...brands.commerce,
      readBrandVariants: async (shop: string, ids: string[]) => {
        const answer = await brands.commerce.readBrandVariants(shop, ids)
        // Shopify answered with the old price; the change's webhook arrives before the answer.
        now = 1
        cache.forgetShop(shop)
        brands.setPrice(3600)
        return answer
      },
    } as CommercePort
    expect(await priceOf(cache.reads(slow), 'lumen')).toBe(3450)
    now = 2
    expect(await priceOf(reads, 'lumen')).toBe(3600)
    // Another shop's webhook leaves what was kept of this one.
    cache.forgetShop('northwind')
    expect(await priceOf(reads, 'lumen')).toBe(3600)
    expect(brands.read).toEqual(['lumen', 'lumen'])
  })

  it('has readers of what is being read wait for that read, unless a webhook from its shop came since', async () => {
    const brands = brandStores()
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 10, maxBytes: 1e6 }, () => 0)
    const reads = cache.reads(brands.commerce)
    // Two consoles open the same page at once: Shopify is read once.
    expect(await Promise.all([priceOf(reads, 'lumen'), priceOf(reads, 'lumen')])).toEqual([
      3450, 3450,
    ])
    expect(brands.read).toEqual(['lumen'])

    // Northwind's read is under way when its price changes and the webhook says so.
    const before = priceOf(reads, 'northwind')
    cache.forgetShop('northwind')
    brands.setPrice(3600)
    expect(await priceOf(reads, 'northwind')).toBe(3600)
    expect(await before).toBe(3450)
    expect(brands.read).toEqual(['lumen', 'northwind', 'northwind'])
  })

  it('goes on reading for a console still waiting when another leaves, and stops once none waits', async () => {
    let answer!: () => void
    const signals: AbortSignal[] = []
    const commerce = {
      readBrandVariants: (_shop: string, ids: string[], options?: { signal?: AbortSignal }) => {
        signals.push(options!.signal!)
        return new Promise((resolve) => {
          answer = () =>
            resolve({
              currency: 'USD',
              variants: new Map(ids.map((id) => [id, { priceMinor: 3450 }])),
            })
        })
      },
    } as unknown as CommercePort
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 10, maxBytes: 1e6 }, () => 0)
    const reads = cache.reads(commerce)
    const [first, second] = [new AbortController(), new AbortController()]
    const read = (caller: AbortController) =>
      reads.readBrandVariants('lumen', ['v1'], { signal: caller.signal })
    const firstRead = read(first)
    const secondRead = read(second)
    first.abort(new Error('the first console closed its inbox'))
    await expect(firstRead).rejects.toThrow('the first console closed its inbox')
    // One read of Shopify, still under way for the second console, which gets its answer.
    expect(signals).toHaveLength(1)
    expect(signals[0]!.aborted).toBe(false)
    answer()
    expect((await secondRead).variants.get('v1')).toEqual({ priceMinor: 3450 })

    // Both leave a read of Urban Trail's: its read is stopped, and the next reader reads afresh.
    const both = [new AbortController(), new AbortController()]
    const left = both.map((caller) =>
      reads.readBrandVariants('urban', ['v1'], { signal: caller.signal }),
    )
    for (const caller of both) caller.abort(new Error('closed'))
    await Promise.allSettled(left)
    expect(signals).toHaveLength(2)
    expect(signals[1]!.aborted).toBe(true)
    void reads.readBrandVariants('urban', ['v1'])
    expect(signals).toHaveLength(3)
    expect(signals[2]!.aborted).toBe(false)
  })

  it("keeps what Shopify found of fraud for the inbox's readiness, never for a preview", async () => {
    const asked: string[] = []
    const commerce = {
      readFraudSignals: async (shop: string, orderId: number) => {
        asked.push(`${shop} ${orderId}`)
        return { recommendation: 'ACCEPT', assessments: [], holds: [] }
      },
    } as unknown as CommercePort
    const cache = createPreviewCache({ ttlMs: 5000, maxEntries: 10, maxBytes: 1e6 }, () => 0)
    const readiness = cache.readinessReads(commerce)
    await readiness.readFraudSignals('maya', 1001)
    await readiness.readFraudSignals('maya', 1001)
    expect(asked).toEqual(['maya 1001'])
    // The preview reads it afresh, every time.
    await cache.reads(commerce).readFraudSignals('maya', 1001)
    await cache.reads(commerce).readFraudSignals('maya', 1001)
    expect(asked).toHaveLength(3)
    // A webhook from the creator's store: read again.
    cache.forgetShop('maya')
    await readiness.readFraudSignals('maya', 1001)
    expect(asked).toHaveLength(4)
  })
})
