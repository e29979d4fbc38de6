import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createStripePaidOrder } from '../../emulators/stripe-paid-order'
import { sql } from 'kysely'
import { followBrandProduct } from '../../server/src/catalog/brand-news'
import { BRAND_PRODUCT_JOB, LISTING_SYNC_JOB } from '../../server/src/catalog/catalog-jobs'
import { sandboxApp } from '../../server/src/seed/sandbox-data'
import { NORTHWIND } from '../support/sandbox-figures'
import {
  catalogWorld,
  FOR_JOBS,
  MAYA,
  OVERSHIRT,
  OVERSHIRT_VARIANT,
  URBAN,
} from './support/catalog-world'
import { jobTableOf } from './support/job-states'
import { postWebhook, signBody } from './support/signed-webhook'

// Issue 34: an administrator lists a brand's product on a creator's store through Tandem, which
// creates it there (productSet) and records which creator variant stands for which brand variant;
// the brand's price, stock and status changes then reach every creator store listing it, once.

const world = catalogWorld()
afterEach(() => world.server().close())

describe('listing a brand product on a creator store', () => {
  it("creates the product in the creator's store at the brand's price and stock, and records the mapping", async () => {
    const server = await world.start()
    const brandStock = server.shopify.stockOf(OVERSHIRT_VARIANT)
    const [listing] = await world.list(MAYA, [OVERSHIRT])
    expect(listing).toMatchObject({ title: 'Linen Overshirt', status: 'ACTIVE', price: null })

    expect(await world.listings(MAYA)).toEqual([
      expect.objectContaining({
        brandStoreShop: NORTHWIND,
        brandProductId: OVERSHIRT,
        syncState: 'IN_SYNC',
        syncMessage: null,
        brandStatus: 'ACTIVE',
        creatorProductId: expect.stringMatching(/^gid:\/\/shopify\/Product\/\d+$/),
      }),
    ])
    const product = await world.creatorProduct(MAYA)
    expect(product).toMatchObject({
      title: 'Linen Overshirt',
      status: 'ACTIVE',
      handle: expect.stringMatching(/^linen-overshirt-[0-9a-f]{8}$/),
      variants: [expect.objectContaining({ price: '68.00', inventoryQuantity: brandStock })],
    })
    // The mapping transfers trust: Tandem's own record of the variant it made.
    const link = await server.db
      .selectFrom('variant_links')
      .selectAll()
      .where('creator_variant_id', '=', product!.variants[0]!.id)
      .executeTakeFirst()
    expect(link).toMatchObject({
      creator_store_shop: MAYA,
      brand_store_shop: NORTHWIND,
      brand_variant_id: OVERSHIRT_VARIANT,
    })
    expect(await world.activity('catalog.list')).toEqual([
      expect.objectContaining({
        target: MAYA,
        details: { brandStoreShop: NORTHWIND, titles: ['Linen Overshirt'] },
      }),
    ])
  })

  it('sells at a higher price when one is set, and refuses one below the brand’s', async () => {
    await world.start()
    const below = await world.call('POST', '/admin-list-products', {
      creatorStoreShop: MAYA,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT],
      price: '60.00',
    })
    expect(below.statusCode).toBe(422)
    expect(below.json().message).toBe(
      "60.00 USD is below Linen Overshirt's brand price of 68.00 USD: leave the price empty to sell at the brand's",
    )
    await world.list(MAYA, [OVERSHIRT], '75.00')
    expect((await world.creatorProduct(MAYA))?.variants[0]?.price).toBe('75.00')
  })

  it('answers each product it cannot list with why, and lists the others', async () => {
    await world.start()
    await world.list(MAYA, [OVERSHIRT])
    const again = await world.call('POST', '/admin-list-products', {
      creatorStoreShop: MAYA,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT, 'gid://shopify/Product/102', 'gid://shopify/Product/999'],
    })
    expect(again.statusCode).toBe(200)
    expect(again.json().listed).toEqual([expect.objectContaining({ title: 'Merino Crew Socks' })])
    expect(again.json().refused).toEqual([
      { productId: OVERSHIRT, message: `Linen Overshirt is listed on ${MAYA} already` },
      {
        productId: 'gid://shopify/Product/999',
        message: `${NORTHWIND} has no such product in its synced catalogue: sync its products, then pick again`,
      },
    ])
    const onBrand = await world.call('POST', '/admin-list-products', {
      creatorStoreShop: NORTHWIND,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT],
    })
    expect(onBrand.statusCode).toBe(422)
    expect(onBrand.json().message).toBe(
      `${NORTHWIND} is a brand store: products are listed on creator stores`,
    )
  })
})

describe("the brand's changes", () => {
  /** Both creators list the overshirt; answers each store's writes so far. */
  async function listedOnBoth() {
    await world.start()
    await world.list(MAYA, [OVERSHIRT])
    await world.list(URBAN, [OVERSHIRT])
    return {
      maya: world.writes(MAYA),
      urban: world.writes(URBAN),
      northwindReads: world.server().shopify.calls(NORTHWIND, 'product'),
    }
  }

  it('reach every listing creator store exactly once, even delivered twice and out of order', async () => {
    const before = await listedOnBoth()
    const server = world.server()
    const secret = sandboxApp(NORTHWIND).clientSecret
    const updateBody = (price: string, updatedAt: string) =>
      JSON.stringify({
        id: 101,
        admin_graphql_api_id: OVERSHIRT,
        title: 'Linen Overshirt',
        updated_at: updatedAt,
        status: 'active',
        variants: [{ price }],
      })
    const deliver = (body: string) =>
      postWebhook(server, {
        shop: NORTHWIND,
        topic: 'products/update',
        body,
        signature: signBody(body, secret),
        id: randomUUID(),
      })

    // The price: 68.00 → 72.00 in Northwind's admin, then the same news again, then older news.
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7200 })
    for (const creator of [MAYA, URBAN]) {
      await expect
        .poll(async () => (await world.creatorProduct(creator))?.variants[0]?.price, FOR_JOBS)
        .toBe('72.00')
    }
    // Northwind's product was read once for both stores.
    await world.settled(MAYA)
    await world.settled(URBAN)
    expect(server.shopify.calls(NORTHWIND, 'product')).toBe(before.northwindReads + 1)
    expect((await deliver(updateBody('72.00', new Date().toISOString()))).statusCode).toBe(200)
    expect((await deliver(updateBody('68.00', '2026-01-01T00:00:00Z'))).statusCode).toBe(200)
    await world.settled(MAYA)
    await world.settled(URBAN)
    expect((await world.creatorProduct(MAYA))?.variants[0]?.price).toBe('72.00')
    expect(world.writes(MAYA)).toEqual({ ...before.maya, productSet: before.maya.productSet + 1 })
    expect(world.writes(URBAN)).toEqual({
      ...before.urban,
      productSet: before.urban.productSet + 1,
    })

    // The stock: 9 units in Northwind's admin; the stock buffer of 2 keeps 7 for creators.
    const set = await world.call('POST', '/admin-set-stock-buffer', {
      brandStoreShop: NORTHWIND,
      units: 2,
    })
    expect(set.json()).toEqual({ brandStoreShop: NORTHWIND, stockBuffer: 2 })
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 9)
    for (const creator of [MAYA, URBAN]) {
      await expect
        .poll(
          async () => (await world.creatorProduct(creator))?.variants[0]?.inventoryQuantity,
          FOR_JOBS,
        )
        .toBe(7)
    }
    await world.settled(MAYA)
    expect(world.writes(MAYA).productSet).toBe(before.maya.productSet + 1)

    // Archived by the brand: a draft on every creator store, its units kept.
    await server.shopify.setProductStatus(NORTHWIND, OVERSHIRT, 'ARCHIVED')
    for (const creator of [MAYA, URBAN]) {
      await expect
        .poll(async () => (await world.creatorProduct(creator))?.status, FOR_JOBS)
        .toBe('DRAFT')
    }
    await world.settled(URBAN)
    expect(world.writes(URBAN).productSet).toBe(before.urban.productSet + 2)
    expect(await world.listings(URBAN)).toEqual([
      expect.objectContaining({ syncState: 'IN_SYNC', brandStatus: 'ARCHIVED' }),
    ])
  })

  it('fold into the run not started, run once more for news during a run, and reach both stores in one job', async () => {
    const before = await listedOnBoth()
    const server = world.server()
    const listingIds = (await world.listings(MAYA))
      .concat(await world.listings(URBAN))
      .map((listing) => listing.id)
    const jobsBefore = await sentJobs()
    // The first run's brand read is held: what comes meanwhile waits beside it.
    server.shopify.script({ operation: 'product', shop: NORTHWIND, mode: 'delay', delayMs: 4000 })
    const news = () =>
      followBrandProduct(
        { db: server.db, jobs: server.jobs, now: () => new Date() },
        NORTHWIND,
        OVERSHIRT,
      )
    await news()
    await expect
      .poll(() => server.shopify.calls(NORTHWIND, 'product'), FOR_JOBS)
      .toBe(before.northwindReads + 1)
    // During that run: the price and the stock change (each announced by a webhook), and the
    // same news twice more.
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7400 })
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 11)
    await news()
    await news()
    await world.settled(MAYA)
    await world.settled(URBAN)

    for (const creator of [MAYA, URBAN]) {
      expect((await world.creatorProduct(creator))?.variants[0]).toMatchObject({
        price: '74.00',
        inventoryQuantity: 11,
      })
    }
    expect(world.writes(MAYA)).toEqual({
      productSet: before.maya.productSet + 1,
      inventorySetQuantities: before.maya.inventorySetQuantities + 1,
    })
    expect(world.writes(URBAN)).toEqual({
      productSet: before.urban.productSet + 1,
      inventorySetQuantities: before.urban.inventorySetQuantities + 1,
    })
    // Two reads of the product for five pieces of news: the held run, and one after it.
    const earlier = new Set(jobsBefore.map((job) => job.id))
    const sent = (await sentJobs()).filter((job) => !earlier.has(job.id))
    expect(sent.filter((job) => job.name === BRAND_PRODUCT_JOB)).toHaveLength(2)
    expect(server.shopify.calls(NORTHWIND, 'product')).toBe(before.northwindReads + 2)
    // Each run's listings in one job, both stores together, not a job per listing (the creators'
    // own news of Tandem's writes sends a job of each store's, which reads its store again).
    const syncs = sent.filter((job) => job.name === LISTING_SYNC_JOB && !job.payload.recheck)
    expect(syncs.length).toBeGreaterThanOrEqual(1)
    expect(syncs.length).toBeLessThanOrEqual(2)
    expect([...syncs[0]!.payload.listingIds].sort()).toEqual([...listingIds].sort())
  })

  it("reach a store whose write fails in its batch, without holding up or writing again the other's", async () => {
    const before = await listedOnBoth()
    const server = world.server()
    server.shopify.script({ operation: 'productSet', shop: MAYA, mode: 'error', times: 2 })
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7600 })
    await world.settled(MAYA)
    await world.settled(URBAN)

    for (const creator of [MAYA, URBAN]) {
      expect((await world.creatorProduct(creator))?.variants[0]?.price).toBe('76.00')
    }
    // Urban Trail's write was made once; the batch's runs again were Maya's alone.
    expect(world.writes(URBAN).productSet).toBe(before.urban.productSet + 1)
    const failures = server.jobLog
      .filter((line) => line.details.job === LISTING_SYNC_JOB)
      .map((line) => (line.details.err as Error).message)
    expect(failures.length).toBeGreaterThanOrEqual(1)
    for (const failure of failures) expect(failure).toMatch(/^1 of 2 listings did not follow/)
  })

  it("leaves a deleted brand product a draft on the creator's store, confirmed by Shopify", async () => {
    await listedOnBoth()
    const server = world.server()
    await server.shopify.deleteProduct(NORTHWIND, OVERSHIRT)
    await expect
      .poll(async () => (await world.creatorProduct(MAYA))?.status, FOR_JOBS)
      .toBe('DRAFT')
    expect(await world.settled(MAYA)).toEqual([
      expect.objectContaining({ brandStatus: 'GONE', syncState: 'IN_SYNC' }),
    ])
    // Its title and variants stay as they were: a customer's past order still names them.
    expect(await world.creatorProduct(MAYA)).toMatchObject({
      title: 'Linen Overshirt',
      variants: [expect.objectContaining({ price: '68.00' })],
    })
  })

  it('ignores a signed products/delete of a product Shopify says the brand still has', async () => {
    const before = await listedOnBoth()
    const server = world.server()
    const body = JSON.stringify({ id: 101 })
    const sent = await postWebhook(server, {
      shop: NORTHWIND,
      topic: 'products/delete',
      body,
      signature: signBody(body, sandboxApp(NORTHWIND).clientSecret),
    })
    expect(sent.statusCode).toBe(200)
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.status).toBe('ACTIVE')
    expect(world.writes(MAYA)).toEqual(before.maya)
  })
})

describe('an administrator’s changes to a listing', () => {
  it('pauses (a draft), resumes and removes (archived) the creator’s product, each audited', async () => {
    await world.start()
    const [listing] = await world.list(MAYA, [OVERSHIRT])
    const set = (status: string) =>
      world.call('POST', '/admin-set-listing', { listingId: listing!.id, status })

    expect((await set('PAUSED')).json()).toMatchObject({ status: 'PAUSED', syncState: 'PENDING' })
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.status).toBe('DRAFT')
    await set('ACTIVE')
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.status).toBe('ACTIVE')
    await set('REMOVED')
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.status).toBe('ARCHIVED')
    expect((await world.activity('catalog.set-listing')).map((entry) => entry.details.to)).toEqual(
      expect.arrayContaining(['PAUSED', 'ACTIVE', 'REMOVED']),
    )
  })

  it('fails the listing with the reason when the creator deleted its product in Shopify', async () => {
    await world.start()
    await world.list(MAYA, [OVERSHIRT])
    const server = world.server()
    const product = await world.creatorProduct(MAYA)
    await server.shopify.deleteProduct(MAYA, product!.id)
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7000 })
    await expect
      .poll(async () => (await world.listings(MAYA))[0]?.syncState, FOR_JOBS)
      .toBe('FAILED')
    expect((await world.listings(MAYA))[0]?.syncMessage).toBe(
      "The creator's store no longer has the listed product (deleted in its Shopify admin): remove the listing and list the product again",
    )
  })
})

describe('a transfer of a listed product', () => {
  it('is refused while its listing is paused, and once the brand product is gone, with the reason', async () => {
    await world.start()
    const [listing] = await world.list(MAYA, [OVERSHIRT])
    const server = world.server()
    const variantId = (await world.creatorProduct(MAYA))!.variants[0]!.id
    const { orderId } = await createStripePaidOrder(
      server,
      MAYA,
      { lines: [{ variantId, quantity: 1 }] },
      { amountMinor: 6800, currency: 'usd' },
    )
    const preview = () =>
      world.call('GET', `/admin-preview-order-transfer?creatorOrderId=${orderId}`)
    const line = String.raw`Line "Linen Overshirt" cannot be transferred to northwind apparel`

    // Its listing's own variant: Northwind's line, at Northwind's price.
    expect((await preview()).json().preview.brands).toEqual([
      expect.objectContaining({ brandStoreShop: NORTHWIND, brandAmount: '51.00' }),
    ])
    await world.call('POST', '/admin-set-listing', { listingId: listing!.id, status: 'PAUSED' })
    const paused = await preview()
    expect(paused.statusCode).toBe(422)
    expect(paused.json().message).toMatch(
      new RegExp(
        `^${line}: its listing on the creator's store is paused: resume it on the creator's store page$`,
      ),
    )

    await world.call('POST', '/admin-set-listing', { listingId: listing!.id, status: 'ACTIVE' })
    await server.shopify.deleteProduct(NORTHWIND, OVERSHIRT)
    await world.settled(MAYA)
    const gone = await world.call('POST', '/admin-create-order-transfer', {
      creatorOrderId: orderId,
    })
    expect(gone.statusCode).toBe(422)
    expect(gone.json().message).toMatch(
      new RegExp(`^${line}: its store no longer has the variant it was linked to`),
    )
    expect(
      server.shopify.orders(NORTHWIND).filter((o) => o.tags.includes(`tandem-transfer-${orderId}`)),
    ).toEqual([])
  })
})

describe('a lost answer while listing', () => {
  it("of productSet: the next run writes the same product again, and the creator's store has it once", async () => {
    const server = await world.start()
    server.shopify.script({ operation: 'productSet', mode: 'drop_after_write', shop: MAYA })
    await world.list(MAYA, [OVERSHIRT])
    expect(await world.listings(MAYA)).toEqual([
      expect.objectContaining({ syncState: 'IN_SYNC', syncMessage: null }),
    ])
    const listed = server.shopify
      .products(MAYA)
      .filter((product) => product.handle.startsWith('linen-overshirt-'))
    expect(listed).toHaveLength(1)
    expect(server.shopify.calls(MAYA, 'productSet')).toBe(2)
    expect((await world.creatorProduct(MAYA))?.id).toBe(listed[0]!.id)
  })

  it('of inventorySetQuantities: set once, under the same key', async () => {
    const server = await world.start()
    await world.list(MAYA, [OVERSHIRT])
    server.shopify.script({
      operation: 'inventorySetQuantities',
      mode: 'drop_after_write',
      shop: MAYA,
    })
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 40)
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.variants[0]?.inventoryQuantity).toBe(40)
    expect(server.shopify.calls(MAYA, 'inventorySetQuantities')).toBe(2)
  })
})

describe('a stock write Shopify refused', () => {
  // Shopify refuses for good an idempotency key whose call failed (issue 46): one refusal of a
  // listing's stock must not be repeated under its key once its cause is gone.
  it('is made, under a new key, once the creator undid what Shopify refused it for', async () => {
    const server = await world.start()
    await world.list(MAYA, [OVERSHIRT])
    const creatorVariant = (await world.creatorProduct(MAYA))!.variants[0]!
    const creatorStock = async () =>
      (await world.creatorProduct(MAYA))?.variants[0]?.inventoryQuantity
    // Maya makes the listed overshirt a bundle in her admin: Shopify lets no app set its stock.
    await server.shopify.editVariant(MAYA, creatorVariant.id, { bundle: true })
    await world.settled(MAYA)
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 40)
    await expect
      .poll(async () => (await world.listings(MAYA))[0]?.syncState, FOR_JOBS)
      .toBe('FAILED')
    expect((await world.listings(MAYA))[0]?.syncMessage).toBe(
      "The creator's store made a variant of the listed product one whose stock Shopify lets no app set (a bundle of other products, say): its stock was not set; undo that in its Shopify admin and the stock is set again",
    )
    expect(await creatorStock()).toBe(creatorVariant.inventoryQuantity)

    // She undoes it: her products/update has the listing follow again, and the stock is set.
    await server.shopify.editVariant(MAYA, creatorVariant.id, { bundle: false })
    await expect.poll(creatorStock, FOR_JOBS).toBe(40)
    expect(await world.settled(MAYA)).toEqual([
      expect.objectContaining({ syncState: 'IN_SYNC', syncMessage: null }),
    ])
  })
})

// Found by an adversarial review of this issue; each failed before its fix.
describe('what a creator or a repeated change could make of a listing', () => {
  it('sets stock going 10 → 9 → 10 → 9 each time: a stock write is never taken for an earlier one', async () => {
    const server = await world.start()
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 10)
    await world.list(MAYA, [OVERSHIRT])
    const creatorStock = async () =>
      (await world.creatorProduct(MAYA))?.variants[0]?.inventoryQuantity
    for (const units of [9, 10, 9]) {
      await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, units)
      await world.settled(MAYA)
      expect(await creatorStock()).toBe(units)
    }
  })

  it("does not take a creator's own product given the listing's handle for the one Tandem made", async () => {
    const server = await world.start()
    const own = server.shopify.products(MAYA).find((product) => product.title === 'Sticker Pack')!
    // Tandem's first write lands, its answer is lost; the creator then moves Tandem's product
    // away from the handle and gives the handle to its own product.
    server.shopify.script({ operation: 'productSet', mode: 'drop_after_write', shop: MAYA })
    const listed = await world.call('POST', '/admin-list-products', {
      creatorStoreShop: MAYA,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT],
    })
    expect(listed.statusCode).toBe(200)
    let made: { id: string; handle: string } | undefined
    await expect
      .poll(
        () =>
          (made = server.shopify
            .products(MAYA)
            .find((product) => product.handle.startsWith('linen-overshirt-'))),
        FOR_JOBS,
      )
      .toBeDefined()
    await server.shopify.setHandle(MAYA, made!.id, 'moved-away')
    await server.shopify.setHandle(MAYA, own.id, made!.handle)

    await expect
      .poll(async () => (await world.listings(MAYA))[0]?.syncState, { timeout: 40_000 })
      .toBe('FAILED')
    expect((await world.listings(MAYA))[0]).toMatchObject({
      creatorProductId: null,
      syncMessage:
        "The creator's store gave this listing's web address to a product Tandem did not make: nothing was linked to the brand's; remove the listing and list the product again",
    })
    const link = await server.db
      .selectFrom('variant_links')
      .selectAll()
      .where('creator_variant_id', '=', own.variants[0]!.id)
      .executeTakeFirst()
    expect(link).toBeUndefined()
  }, 60_000)

  it('lists anew, as the message says, a product the creator deleted', async () => {
    const server = await world.start()
    const [listing] = await world.list(MAYA, [OVERSHIRT])
    await server.shopify.deleteProduct(MAYA, (await world.creatorProduct(MAYA))!.id)
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 7000 })
    await expect
      .poll(async () => (await world.listings(MAYA))[0]?.syncState, FOR_JOBS)
      .toBe('FAILED')
    await world.call('POST', '/admin-set-listing', { listingId: listing!.id, status: 'REMOVED' })
    await world.settled(MAYA)
    await world.list(MAYA, [OVERSHIRT])
    expect(await world.listings(MAYA)).toEqual([
      expect.objectContaining({ id: listing!.id, status: 'ACTIVE', syncState: 'IN_SYNC' }),
    ])
    expect((await world.creatorProduct(MAYA))?.variants[0]?.price).toBe('70.00')
  })

  it('puts back the price a creator lowered in its own admin, at its own products/update', async () => {
    const server = await world.start()
    await world.list(MAYA, [OVERSHIRT])
    const before = world.writes(MAYA)
    const variant = (await world.creatorProduct(MAYA))!.variants[0]!
    // Maya sells the overshirt at 40.00 rather than the listing's 68.00.
    await server.shopify.editVariant(MAYA, variant.id, { priceMinor: 4000 })
    await expect
      .poll(async () => (await world.creatorProduct(MAYA))?.variants[0]?.price, FOR_JOBS)
      .toBe('68.00')
    await world.settled(MAYA)
    // Written once: Tandem's own write, announced back, is read and left as it is.
    expect(world.writes(MAYA)).toEqual({ ...before, productSet: before.productSet + 1 })
    expect(await world.creatorProduct(MAYA)).toMatchObject({
      status: 'ACTIVE',
      variants: [expect.objectContaining({ id: variant.id, price: '68.00' })],
    })
  }, 60_000)

  it("puts back the price a creator lowered unannounced, at the brand's next news", async () => {
    // Maya's connection was never tested again: she sends Tandem no news of her products.
    const server = await world.start([NORTHWIND])
    await world.list(MAYA, [OVERSHIRT])
    const variant = (await world.creatorProduct(MAYA))!.variants[0]!
    await server.shopify.editVariant(MAYA, variant.id, { priceMinor: 4000 })
    // Northwind's stock changes: nothing of the product Maya's listing writes, but its sync looks.
    await server.shopify.setStock(NORTHWIND, OVERSHIRT_VARIANT, 12)
    await expect
      .poll(
        async () => (await world.creatorProduct(MAYA))?.variants[0]?.inventoryQuantity,
        FOR_JOBS,
      )
      .toBe(12)
    await world.settled(MAYA)
    expect((await world.creatorProduct(MAYA))?.variants[0]?.price).toBe('68.00')
  }, 60_000)

  it('follows the brand product as it is now when a removed listing is set active again', async () => {
    const server = await world.start()
    const [listing] = await world.list(MAYA, [OVERSHIRT])
    await world.call('POST', '/admin-set-listing', { listingId: listing!.id, status: 'REMOVED' })
    await world.settled(MAYA)
    // While it is removed, the brand reprices and archives its product.
    await server.shopify.editVariant(NORTHWIND, OVERSHIRT_VARIANT, { priceMinor: 9900 })
    await server.shopify.setProductStatus(NORTHWIND, OVERSHIRT, 'ARCHIVED')
    await world.settled(MAYA)
    await world.call('POST', '/admin-set-listing', { listingId: listing!.id, status: 'ACTIVE' })
    await world.settled(MAYA)
    expect(await world.creatorProduct(MAYA)).toMatchObject({
      status: 'DRAFT',
      variants: [expect.objectContaining({ price: '99.00' })],
    })
  })
})

/** The jobs the server's queue was sent so far, with their payloads. */
async function sentJobs(): Promise<
  { id: string; name: string; payload: { listingIds: string[]; recheck?: boolean } }[]
> {
  const server = world.server()
  const table = await jobTableOf(server.db, !server.sqliteFile, true)
  const payload = sql.ref(server.sqliteFile ? 'payload' : 'data')
  const rows = await sql<{
    id: string
    name: string
    payload: string | { listingIds: string[]; recheck?: boolean }
  }>`
    SELECT id, name, ${payload} AS payload FROM ${sql.table(table)}
    WHERE name IN (${BRAND_PRODUCT_JOB}, ${LISTING_SYNC_JOB})
  `.execute(server.db)
  return rows.rows.map((row) => ({
    id: String(row.id),
    name: row.name,
    payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
  }))
}
