import { expect } from 'vitest'
import { LUMEN, NORTHWIND } from '../../support/sandbox-figures'
import { SHORT_LEASES, type crashScenarios } from './crash-scenario'
import type { ServerProcess } from './server-process'

// Order 1001 of maya-makes transferred through a real server process, as the crash harness and
// the database fault tests drive it, and what they hold whatever happened on the way: each brand
// order, payment mark and transfer made exactly once.

export const LUMEN_ACCOUNT = 'acct_sandbox_lumen_botanicals'
export const MAYA_ACCOUNT = 'acct_maya_makes'
const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const FACE_OIL = 'gid://shopify/ProductVariant/203'

export function order1001Transfer(crash: ReturnType<typeof crashScenarios>) {
  const emulator = () => crash.current().shopify
  const payments = () => crash.current().stripe

  async function processOrder(on: ServerProcess): Promise<{ status: number; message?: string }> {
    const response = await fetch(`${on.url}/admin-create-order-transfer`, {
      method: 'POST',
      headers: { ...crash.admin(), 'content-type': 'application/json' },
      body: JSON.stringify({ creatorOrderId: '1001' }),
    })
    const body = (await response.json()) as { message?: string }
    return { status: response.status, message: body.message }
  }

  /**
   * Processes again once the lease of whoever died holding it has run out (a process on
   * SHORT_LEASES): until then the answer is "already being processed", which the loop waits past.
   */
  async function processAfterTheLease(on: ServerProcess) {
    const deadline = Date.now() + 4 * SHORT_LEASES.leaseMs
    for (;;) {
      const answer = await processOrder(on)
      if (answer.message !== 'Order transfer is already being processed' || Date.now() > deadline) {
        return answer
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  /** Each brand order, payment mark and transfer of order 1001 made exactly once. */
  async function expectExactlyOnce(on: ServerProcess): Promise<void> {
    const orders = [LUMEN, NORTHWIND].flatMap((shop) =>
      emulator()
        .orders(shop)
        .map((order) => ({ shop, ...order })),
    )
    expect(
      orders.map(({ shop, tags, displayFinancialStatus }) => ({
        shop,
        tags,
        displayFinancialStatus,
      })),
    ).toEqual([
      { shop: LUMEN, tags: ['tandem', 'tandem-transfer-1001'], displayFinancialStatus: 'PAID' },
      { shop: NORTHWIND, tags: ['tandem', 'tandem-transfer-1001'], displayFinancialStatus: 'PAID' },
    ])
    const transfers = payments()
      .transfers()
      .filter((transfer) => transfer.destination !== MAYA_ACCOUNT)
      .map(({ destination, amount, transferGroup, sourceTransaction }) => ({
        destination,
        amount,
        transferGroup,
        sourceTransaction,
      }))
      .sort((a, b) => a.destination.localeCompare(b.destination))
    expect(transfers).toEqual([
      {
        destination: LUMEN_ACCOUNT,
        amount: 2484,
        transferGroup: 'tandem-order-1001',
        sourceTransaction: 'ch_sandbox_order_1001',
      },
      {
        destination: 'acct_sandbox_northwind_apparel',
        amount: 10200,
        transferGroup: 'tandem-order-1001',
        sourceTransaction: 'ch_sandbox_order_1001',
      },
    ])
    // The stock was taken once: 2 overshirts and 1 face oil of 100 each.
    expect([emulator().stockOf(OVERSHIRT), emulator().stockOf(FACE_OIL)]).toEqual([98, 99])

    const preview = await fetch(`${on.url}/admin-preview-order-transfer?creatorOrderId=1001`, {
      headers: crash.admin(),
    })
    const { status, brands } = (
      (await preview.json()) as {
        preview: { status: string; brands: { brandStoreShop: string; brandOrderId: string }[] }
      }
    ).preview
    expect(status).toBe('COMPLETED')
    const gidOf = (shop: string) => orders.find((order) => order.shop === shop)!.id
    expect(brands.map((brand) => [brand.brandStoreShop, brand.brandOrderId])).toEqual([
      [NORTHWIND, gidOf(NORTHWIND)],
      [LUMEN, gidOf(LUMEN)],
    ])
  }

  return { processOrder, processAfterTheLease, expectExactlyOnce }
}
