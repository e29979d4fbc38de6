import { describe, expect, it } from 'vitest'
import type { Shipment } from '@shared/contract'
import { NORTHWIND } from '../support/sandbox-figures'
import { crashScenarios, TAKEOVER } from './support/crash-scenario'

// The crash harness for shipping (issue 35): the real server, in processes of its own on SQLite
// (and on PostgreSQL when TANDEM_TEST_DATABASE_URL is set), is killed with SIGKILL once
// fulfillmentCreate made the creator's fulfillment and before Tandem recorded it; a process
// started again takes the job over. The creator's order has the brand's shipment once, with its
// tracking, and Tandem records that one as the mirror.

const MAYA = 'maya-makes.myshopify.com'
const CREATOR_1001 = 'gid://shopify/Order/1001'
const UPS = { company: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track' }

const crash = crashScenarios()
const start = crash.startTakenOverSoon
const call = crash.call

describe(
  'killed with SIGKILL while mirroring a shipment, then started again',
  { timeout: 120_000 },
  () => {
    it('at shipment:after-call: the creator’s order has the shipment once, recorded', async () => {
      const scenario = await crash.begin()
      const doomed = await start('shipment:after-call=kill')
      const connected = await call(doomed, 'POST', '/admin-test-shop-connection', {
        shop: NORTHWIND,
      })
      expect(connected.body).toMatchObject({ state: 'CONNECTED' })
      const processed = await call(doomed, 'POST', '/admin-create-order-transfer', {
        creatorOrderId: '1001',
      })
      expect(processed.status).toBe(201)
      const brandOrder = scenario.shopify
        .orders(NORTHWIND)
        .find((order) => order.tags.includes('tandem-transfer-1001'))!

      await scenario.shopify.fulfill(NORTHWIND, brandOrder.id, { tracking: UPS })
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
      await doomed.line(/^failpoint shipment:after-call: kill$/)
      const shipped = () =>
        scenario.shopify.fulfillments(MAYA, CREATOR_1001).map((fulfillment) => ({
          lines: fulfillment.lines.map(({ lineItemId, quantity }) => ({ lineItemId, quantity })),
          tracking: fulfillment.tracking,
        }))
      const once = [
        { lines: [{ lineItemId: 'gid://shopify/LineItem/10011', quantity: 2 }], tracking: [UPS] },
      ]
      expect(shipped()).toEqual(once)

      const restarted = await start()
      const northwind = async () =>
        ((await call(restarted, 'GET', '/admin-shipments')).body.shipments as Shipment[]).find(
          (shipment) => shipment.brandStoreShop === NORTHWIND,
        )
      await expect
        .poll(async () => (await northwind())?.fulfillments[0]?.mirrorState, TAKEOVER)
        .toBe('MIRRORED')
      expect(shipped()).toEqual(once)
      expect(scenario.shopify.calls(MAYA, 'fulfillmentCreate')).toBe(1)
      const db = await scenario.db()
      const mirror = await db
        .selectFrom('fulfillment_mirrors')
        .select('creator_fulfillment_id')
        .executeTakeFirstOrThrow()
      expect(mirror.creator_fulfillment_id).toBe(
        scenario.shopify.fulfillments(MAYA, CREATOR_1001)[0]!.id,
      )
    })
  },
)
