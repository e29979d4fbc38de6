import { expect } from 'vitest'
import type { Shipment } from '@shared/contract'
import { LUMEN, NORTHWIND } from '../../support/sandbox-figures'
import { FOR_JOBS, MAYA, refundWorld } from './refund-world'
import type { ShopifyEmulator } from '../../../emulators/shopify/emulator'
import type { ServerOptions } from './server-under-test'

// The marketplace a shipping test works in (issue 35): order 1001 transferred into Northwind's and
// Lumen's orders, every shop connected (the brands' fulfillments, holds and cancellations reach the
// server), and the creator's order as Maya's Shopify admin shows it.

export { FOR_JOBS, MAYA } from './refund-world'
export { LUMEN, NORTHWIND } from '../../support/sandbox-figures'

export const CREATOR_1001 = 'gid://shopify/Order/1001'
export const UPS = {
  company: 'UPS',
  number: '1Z999AA10123456784',
  url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
}

export function shippingWorld() {
  const base = refundWorld()
  const world = {
    ...base,
    /**
     * Order 1001 transferred, with every shop connected (the brands' news reaching the server
     * unless `brandsSubscribed` is false); the server's clock and transfer timing when given, and
     * what the merchants set up in Shopify before Tandem connects (`beforeConnecting`).
     */
    async transferred1001({
      brandsSubscribed = true,
      beforeConnecting,
      ...options
    }: {
      brandsSubscribed?: boolean
      beforeConnecting?: (shopify: ShopifyEmulator) => void
    } & Pick<ServerOptions, 'now' | 'transferTiming'> = {}) {
      const server = await base.start(options)
      beforeConnecting?.(server.shopify)
      if (brandsSubscribed) {
        for (const shop of [NORTHWIND, LUMEN]) {
          const tested = await base.call('POST', '/admin-test-shop-connection', { shop })
          expect(tested.json()).toMatchObject({ state: 'CONNECTED' })
        }
        await expect.poll(() => server.shopify.webhookSubscriptions(NORTHWIND).length).toBe(9)
      }
      await base.transfer('1001')
      return server
    },
    /** The brand's order of order 1001, by its GID. */
    brandOrderId: (shop: string) => base.brandOrder(shop, '1001').id,
    /**
     * Waits until the brand order was read (and its fulfillments mirrored) after `since`: a
     * reading's time is the end of the run that made it.
     */
    async followedAfter(shop: string, since: Date) {
      await expect
        .poll(async () => {
          const readAt = (await world.shipmentOf(shop)).readAt
          return readAt !== null && Date.parse(readAt) > since.getTime()
        }, FOR_JOBS)
        .toBe(true)
      return world.shipmentOf(shop)
    },
    async shipments(query = ''): Promise<Shipment[]> {
      const answer = await base.call('GET', `/admin-shipments${query}`)
      expect(answer.statusCode).toBe(200)
      return (answer.json() as { shipments: Shipment[] }).shipments
    },
    async shipmentOf(shop: string): Promise<Shipment> {
      const found = (await world.shipments()).find((shipment) => shipment.brandStoreShop === shop)
      if (!found) throw new Error(`no shipment of ${shop}`)
      return found
    },
    /** Maya's fulfillments of order 1001, as her Shopify admin shows them. */
    creatorFulfillments: () => base.server().shopify.fulfillments(MAYA, CREATOR_1001),
  }
  return world
}
