import { expect } from 'vitest'
import type { CatalogListing } from '@shared/contract'
import { NORTHWIND } from '../../support/sandbox-figures'
import { FOR_JOBS, MAYA } from './refund-world'
import { startListeningServer, syncProducts, type ServerUnderTest } from './server-under-test'

// The marketplace a catalog test works in (issue 34): a listening server whose brand Northwind and
// creators Maya and Urban Trail are connected (Northwind's product and stock changes reach it),
// Northwind's catalogue synced, and the creators' stores as their Shopify admins show them.

export { FOR_JOBS, MAYA } from './refund-world'
export const URBAN = 'urban-trail-edits.myshopify.com'
export const OVERSHIRT = 'gid://shopify/Product/101'
export const OVERSHIRT_VARIANT = 'gid://shopify/ProductVariant/201'

export function catalogWorld() {
  let server!: ServerUnderTest
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: server.asAdmin, payload })

  const world = {
    server: () => server,
    call,
    /**
     * The shops whose connections are tested, and so subscribed (all three unless told): a shop
     * left out sends the server no news.
     */
    async start(connected = [NORTHWIND, MAYA, URBAN]) {
      server = await startListeningServer()
      for (const shop of connected) {
        const tested = await call('POST', '/admin-test-shop-connection', { shop })
        expect(tested.json()).toMatchObject({ state: 'CONNECTED' })
      }
      await expect.poll(() => server.shopify.webhookSubscriptions(NORTHWIND).length).toBe(9)
      expect((await syncProducts(server, NORTHWIND)).statusCode).toBe(200)
      return server
    },
    /** Lists the products on the creator, and waits until its store has them. */
    async list(creator: string, productIds: string[], price?: string) {
      const listed = await call('POST', '/admin-list-products', {
        creatorStoreShop: creator,
        brandStoreShop: NORTHWIND,
        productIds,
        ...(price ? { price } : {}),
      })
      expect(listed.statusCode).toBe(200)
      const { listed: listings } = listed.json() as { listed: CatalogListing[] }
      await world.settled(creator)
      return listings
    },
    async listings(creator: string): Promise<CatalogListing[]> {
      const answer = await call('GET', `/admin-catalog-listings?creatorStoreShop=${creator}`)
      return (answer.json() as { listings: CatalogListing[] }).listings
    },
    /**
     * Waits until the catalog is still: no webhook on its way from Shopify, every delivery acted on
     * (its listings' jobs sent), no listing pending, and none of these moved between two looks.
     * Work passes on from one to the next (a sync's productSet sends products/update, whose
     * delivery marks the listing pending again), so one look at each, in turn, can miss work
     * passing between them; two equal looks cannot. Answers the creator's listings.
     */
    async settled(creator: string) {
      let lastLook = ''
      await expect
        .poll(async () => {
          const look = JSON.stringify(await world.catalogAtRest())
          const still = look === lastLook && (JSON.parse(look) as { quiet: boolean }).quiet
          lastLook = look
          return still
        }, FOR_JOBS)
        .toBe(true)
      return world.listings(creator)
    },
    /** What `settled` compares between two looks, and whether nothing is under way in it. */
    async catalogAtRest() {
      const webhooks = server.shopify.webhookDeliveries()
      const inbox = await server.db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          eb.fn.countAll<number>().as('received'),
          eb.fn.count<number>('done_at').as('done'),
        ])
        .executeTakeFirstOrThrow()
      const listings = await server.db
        .selectFrom('catalog_listings')
        .select(['id', 'sync_state', 'updated_at'])
        .orderBy('id')
        .execute()
      const quiet =
        webhooks.underWay === 0 &&
        Number(inbox.received) === Number(inbox.done) &&
        listings.every((listing) => listing.sync_state !== 'PENDING')
      return { quiet, webhooks, inbox: [Number(inbox.received), Number(inbox.done)], listings }
    },
    /** The creator's product of a listing, as its Shopify admin shows it. */
    async creatorProduct(creator: string, brandProductId = OVERSHIRT) {
      const listing = (await world.listings(creator)).find(
        (candidate) => candidate.brandProductId === brandProductId,
      )
      if (!listing?.creatorProductId)
        throw new Error(`${creator} has no product of ${brandProductId}`)
      return server.shopify.product(creator, listing.creatorProductId)
    },
    /** Shopify writes each creator store took from Tandem so far, by operation. */
    writes: (creator: string) => ({
      productSet: server.shopify.calls(creator, 'productSet'),
      inventorySetQuantities: server.shopify.calls(creator, 'inventorySetQuantities'),
    }),
    async activity(action: string) {
      const log = (await call('GET', '/admin-audit-log')).json() as {
        entries: { action: string; target: string; details: Record<string, unknown> }[]
      }
      return log.entries.filter((entry) => entry.action === action)
    },
  }
  return world
}
