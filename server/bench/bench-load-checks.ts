import { setTimeout as sleep } from 'node:timers/promises'
import { ORDER_TAG } from '@shared/contract'
import type { Db } from '../src/db/connect'
import type { ShopifyEmulator } from '../../emulators/shopify/emulator'
import type { StripeEmulator } from '../../emulators/stripe/emulator'

// After a load-test run: what Shopify and Stripe hold must be what exactly-once processing allows.
// Each (creator order, brand) has at most one brand order and at most one transfer, and a transfer
// the database calls COMPLETED has exactly one of each, paid, with the ids it recorded. A failure
// here is a correctness bug, not a slow figure.

/**
 * Waits until no request holds a transfer's lease. autocannon stops at the end of the run without
 * waiting for its requests: the servers finish those, and their orders and payments count too.
 */
export async function settleTransfers(db: Db, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const held = await db
      .selectFrom('order_transfers')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('claimed_by', 'is not', null)
      .where('lease_expires_at', '>', new Date().toISOString())
      .executeTakeFirstOrThrow()
    if (Number(held.count) === 0 || Date.now() > deadline) return Number(held.count)
    await sleep(250)
  }
}

export interface ExactlyOnceReport {
  /** Transfers COMPLETED and PARTIAL in the database. */
  completed: number
  partial: number
  brandOrders: number
  transfers: number
  /** Every breach, in words; empty when exactly-once held. */
  problems: string[]
}

const key = (orderId: string, brand: string) => `${orderId} ${brand}`

/** Where the brand orders and transfers are: the emulators, and the brands ordered from. */
export interface MadeIn {
  shopify: ShopifyEmulator
  stripe: StripeEmulator
  brands: string[]
}

/**
 * `completedAnswers`: how often the servers answered each order COMPLETED to a process call (none
 * when no one called).
 */
export async function checkExactlyOnce(
  db: Db,
  marketplace: MadeIn,
  completedAnswers: Map<string, number>,
): Promise<ExactlyOnceReport> {
  const problems: string[] = []
  const tagPrefix = `${ORDER_TAG}-transfer-`

  // What Shopify holds: the brand orders Tandem made, found by the tag it gives each.
  const brandOrders = new Map<string, { id: string; paid: boolean }[]>()
  for (const brand of marketplace.brands) {
    for (const order of marketplace.shopify.orders(brand)) {
      const tag = order.tags.find((t) => t.startsWith(tagPrefix))
      if (!tag) continue
      const pair = key(tag.slice(tagPrefix.length), brand)
      const made = { id: order.id, paid: order.displayFinancialStatus === 'PAID' }
      brandOrders.set(pair, [...(brandOrders.get(pair) ?? []), made])
    }
  }
  // What Stripe holds: the transfers, by the order and brand their metadata names.
  const transfers = new Map<string, string[]>()
  for (const transfer of marketplace.stripe.transfers()) {
    const { creator_order_id: orderId, brand_shop: brand } = transfer.metadata
    if (!orderId || !brand) continue
    const pair = key(orderId, brand)
    transfers.set(pair, [...(transfers.get(pair) ?? []), transfer.id])
  }
  for (const [pair, made] of brandOrders) {
    if (made.length > 1) {
      problems.push(`DUPLICATE brand orders for ${pair}: ${made.map((o) => o.id).join(', ')}`)
    }
  }
  for (const [pair, made] of transfers) {
    if (made.length > 1) problems.push(`DUPLICATE transfers for ${pair}: ${made.join(', ')}`)
  }

  // What the database says was done, checked against both.
  const rows = await db
    .selectFrom('order_transfers as t')
    .innerJoin('order_transfer_brands as b', 'b.creator_order_id', 't.creator_order_id')
    .select([
      't.creator_order_id',
      't.status',
      'b.brand_store_shop',
      'b.brand_amount_minor',
      'b.brand_order_id',
      'b.payment_transfer_id',
    ])
    .execute()
  const statuses = new Map(rows.map((row) => [row.creator_order_id, row.status]))
  for (const row of rows.filter((r) => r.status === 'COMPLETED')) {
    const pair = key(row.creator_order_id, row.brand_store_shop)
    const orders = brandOrders.get(pair) ?? []
    if (orders.length !== 1 || orders[0]!.id !== row.brand_order_id) {
      problems.push(
        `COMPLETED ${pair} recorded brand order ${row.brand_order_id}; Shopify holds [${orders.map((o) => o.id).join(', ')}]`,
      )
    } else if (!orders[0]!.paid) {
      problems.push(`COMPLETED ${pair}: brand order ${row.brand_order_id} is not marked as paid`)
    }
    const paid = transfers.get(pair) ?? []
    const owed = row.brand_amount_minor > 0 ? 1 : 0
    if (paid.length !== owed || (owed === 1 && paid[0] !== row.payment_transfer_id)) {
      problems.push(
        `COMPLETED ${pair} recorded transfer ${row.payment_transfer_id}; Stripe holds [${paid.join(', ')}]`,
      )
    }
  }

  // What the servers answered: COMPLETED once per order at most, and only when it is.
  for (const [orderId, count] of completedAnswers) {
    if (count > 1) problems.push(`Order ${orderId} was answered 201 COMPLETED ${count} times`)
    if (statuses.get(orderId) !== 'COMPLETED') {
      problems.push(`Order ${orderId} was answered COMPLETED but is ${statuses.get(orderId)}`)
    }
  }

  const all = [...statuses.values()]
  return {
    completed: all.filter((status) => status === 'COMPLETED').length,
    partial: all.filter((status) => status === 'PARTIAL').length,
    brandOrders: [...brandOrders.values()].reduce((sum, made) => sum + made.length, 0),
    transfers: [...transfers.values()].reduce((sum, made) => sum + made.length, 0),
    problems,
  }
}
