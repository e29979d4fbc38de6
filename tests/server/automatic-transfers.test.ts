import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PRICE_EXCEPTION_HINT } from '@shared/contract'
import { STRIPE_ATTEMPTS } from '../../server/src/adapters/payments/stripe/stripe-payments'
import { ATTENTION_RECHECK_JOB } from '../../server/src/services/automatic-transfers'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { automaticOrders, IRONPEAK, MAYA, startWithMayaConnected } from './support/automatic-orders'
import type { ServerOptions, ServerUnderTest } from './support/server-under-test'

// Paid orders that transfer themselves (issue 32): the Shopify emulator delivers orders/paid to a
// listening server, the order's job runs once its hold ends, and no one clicks. What an
// administrator sees is the inbox's readiness; what was made is in the emulators.

/** Northwind's Linen Overshirt, whose copy Maya sells. */
const OVERSHIRT_PRODUCT = 'gid://shopify/Product/101'
/** Where a Northwind reason links: its store page in the console. */
const NORTHWIND_PAGE = {
  label: "northwind apparel's store page",
  to: '/main/stores/northwind-apparel.myshopify.com?type=BRAND',
}

let server: ServerUnderTest
const {
  call,
  setPolicy,
  setDefaultCommission,
  setPayoutAccount,
  customerPays,
  readiness,
  made,
  pause,
  resume,
  heldByPause,
  completes,
} = automaticOrders(() => server)

const start = async (options: ServerOptions = {}) => {
  server = await startWithMayaConnected(options)
}
afterEach(() => server.close())

/**
 * A customer pays Maya for an overshirt while Stripe fails every try of its transfer's first
 * attempt (the adapter's own retries included).
 */
async function overshirtPaidAsStripeFails() {
  server.stripe.script({
    operation: 'transfers.create',
    mode: 'fail',
    status: 500,
    times: STRIPE_ATTEMPTS,
  })
  return customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
}

describe('a paid order under the automatic policy', () => {
  beforeEach(() => start())

  it('transfers itself once its hold ends: brand orders made and brands paid, no one clicked', async () => {
    await setPolicy('AUTOMATIC', 0)
    const orderId = await customerPays(
      [
        { key: 'linen-overshirt', quantity: 1 },
        { key: 'rosehip-face-oil', quantity: 1 },
      ],
      10_250,
    )
    await completes(orderId)
    expect(made()).toEqual({
      brandOrders: [
        { shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] },
        { shop: LUMEN, lines: [['gid://shopify/ProductVariant/203', 1]] },
      ],
      transfers: [
        { destination: 'acct_sandbox_lumen_botanicals', amount: expect.any(Number) },
        { destination: 'acct_sandbox_northwind_apparel', amount: expect.any(Number) },
      ],
    })
    // The job's processing is audited as the system's, with no administrator named.
    const audit = await call('GET', '/admin-audit-log')
    expect(audit.json().entries).toContainEqual(
      expect.objectContaining({ action: 'transfer.process', actorEmail: null, target: orderId }),
    )
  })

  it('waits out its hold, saying until when, and moves nothing meanwhile', async () => {
    await setPolicy('AUTOMATIC', 30)
    const before = Date.now()
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect.poll(() => readiness(orderId)).toMatchObject({ state: 'WAITING' })
    const { until } = (await readiness(orderId)) as { until: string }
    expect(Date.parse(until) - before).toBeGreaterThanOrEqual(30 * 60_000)
    expect(Date.parse(until) - Date.now()).toBeLessThanOrEqual(30 * 60_000)
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
  })

  it('waits for an administrator when the policy is manual', async () => {
    await setPolicy('MANUAL', 10)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect.poll(() => readiness(orderId)).toEqual({ state: 'MANUAL' })
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
  })
})

describe('an automatic order that needs attention', () => {
  beforeEach(() => start())

  it('names the brand without a default commission, and completes once it is set, without a click', async () => {
    await setPolicy('AUTOMATIC', 0)
    const orderId = await customerPays([{ key: 'trail-headlamp', quantity: 1 }], 4200)
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence:
              'Commission not found: ironpeak outdoor has no default commission: set it on its store page',
            remedy: {
              party: { role: 'ADMINISTRATOR', shop: null },
              fix: 'set it on its store page',
              link: {
                label: "ironpeak outdoor's store page",
                to: '/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND',
              },
            },
          },
        ],
      })
    const needing = await call('GET', '/admin-creator-orders?needsAttention=true')
    expect(needing.json().orders.map((order: { id: string }) => order.id)).toEqual([orderId])
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    await setDefaultCommission(IRONPEAK)
    await completes(orderId)
    expect(made()).toEqual({
      brandOrders: [{ shop: IRONPEAK, lines: [['gid://shopify/ProductVariant/205', 1]] }],
      transfers: [{ destination: 'acct_sandbox_ironpeak_outdoor', amount: 3150 }],
    })
    expect((await call('GET', '/admin-creator-orders?needsAttention=true')).json().orders).toEqual(
      [],
    )
  })

  it('names the brand without a payout account, and completes once one is set, without a click', async () => {
    await setPolicy('AUTOMATIC', 0)
    await server.db
      .deleteFrom('store_payment_accounts')
      .where('store_shop', '=', NORTHWIND)
      .execute()
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence:
              'Payment provider connected account ID not found: northwind apparel has no payout account: set it on its store page',
            remedy: {
              party: { role: 'ADMINISTRATOR', shop: null },
              fix: 'set it on its store page',
              link: NORTHWIND_PAGE,
            },
          },
        ],
      })
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    await setPayoutAccount(NORTHWIND, 'acct_sandbox_northwind_apparel')
    await completes(orderId)
    expect(made().transfers).toEqual([
      { destination: 'acct_sandbox_northwind_apparel', amount: expect.any(Number) },
    ])
  })
})

describe('an automatic order whose cause is fixed while its job decides', () => {
  /** Runs once the job found that the order needs attention, before it records so. */
  let beforeAttention = async () => {}
  beforeEach(() =>
    start({
      transferTiming: {
        failpoint: async (name) => {
          if (name === 'automatic:before-attention') await beforeAttention()
        },
      },
    }),
  )

  it('completes without a click: the fix made meanwhile is not lost', async () => {
    await setPolicy('AUTOMATIC', 0)
    beforeAttention = async () => {
      beforeAttention = async () => {}
      // Set while the order is still waiting: nothing needs attention yet to put back on the queue.
      await setDefaultCommission(IRONPEAK)
    }
    const orderId = await customerPays([{ key: 'trail-headlamp', quantity: 1 }], 4200)

    await completes(orderId)
    expect(made().transfers).toEqual([
      { destination: 'acct_sandbox_ironpeak_outdoor', amount: 3150 },
    ])
  })

  it('completes without a click when its price exception is accepted meanwhile', async () => {
    await setPolicy('AUTOMATIC', 0)
    beforeAttention = async () => {
      beforeAttention = async () => {}
      // The only order, which may stop here before the payment's answer names it.
      const [stopped] = await server.db
        .selectFrom('order_automation')
        .select('creator_order_id')
        .execute()
      const accepted = await call('POST', '/admin-accept-price-exception', {
        creatorOrderId: stopped!.creator_order_id,
        reason: 'Launch promotion agreed with Northwind',
      })
      expect(accepted.statusCode).toBe(200)
    }
    // 68.00 less a 60.00 code: 8.00 paid for the overshirt, below Northwind's 68.00.
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 800, {
      code: 'FRIENDS60',
      amountMinor: 6000,
    })

    await completes(orderId)
    expect(made().brandOrders).toEqual([
      { shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] },
    ])
  })
})

describe('an automatic order priced below its brand', () => {
  beforeEach(() => start())

  it('completes once an administrator accepts the price exception, without a click on Process', async () => {
    await setPolicy('AUTOMATIC', 0)
    // 68.00 less a 60.00 code: 8.00 paid for the overshirt, below Northwind's 68.00.
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 800, {
      code: 'FRIENDS60',
      amountMinor: 6000,
    })
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toMatchObject({
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence: expect.stringMatching(/below the brand's price 68\.00 USD/),
            remedy: {
              party: { role: 'ADMINISTRATOR', shop: null },
              fix: PRICE_EXCEPTION_HINT,
              link: {
                label: "the order's transfer page",
                to: `/main/create-order-transfer?creatorOrderId=${orderId}`,
              },
            },
          },
        ],
      })
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    const accepted = await call('POST', '/admin-accept-price-exception', {
      creatorOrderId: orderId,
      reason: 'Launch promotion agreed with Northwind',
    })
    expect(accepted.statusCode).toBe(200)
    await completes(orderId)
    expect(made().brandOrders).toEqual([
      { shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] },
    ])
  })
})

describe('an automatic order stopped by a cause fixed outside Tandem', () => {
  beforeEach(() => start())

  it('transfers on the recheck after the brand finished its Stripe onboarding', async () => {
    await setPolicy('AUTOMATIC', 0)
    const account = 'acct_sandbox_northwind_apparel'
    server.stripe.setTransfersActive(account, false)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'NEEDS_ATTENTION',
        reasons: [
          {
            sentence: `Payment provider connected account cannot receive transfers: northwind apparel's payout account ${account} has transfers inactive: finish its onboarding in Stripe, or set another account on its store page`,
            // Northwind's to do in Stripe, shown on its store page.
            remedy: {
              party: { role: 'BRAND', shop: NORTHWIND },
              fix: 'finish its onboarding in Stripe, or set another account on its store page',
              link: NORTHWIND_PAGE,
            },
          },
        ],
      })
    // The recheck finds it still refused until Stripe says otherwise: tried once more (its next
    // generation), and back where it was.
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await expect
      .poll(() =>
        server.db
          .selectFrom('order_automation')
          .select(['state', 'generation'])
          .where('creator_order_id', '=', orderId)
          .executeTakeFirst(),
      )
      .toEqual({ state: 'NEEDS_ATTENTION', generation: 2 })
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    server.stripe.setTransfersActive(account, true)
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await completes(orderId)
    expect(made().transfers).toEqual([{ destination: account, amount: expect.any(Number) }])
  })

  it('transfers on the recheck after the brand put its product back on sale', async () => {
    await setPolicy('AUTOMATIC', 0)
    await server.shopify.setProductStatus(NORTHWIND, OVERSHIRT_PRODUCT, 'DRAFT')
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toMatchObject({
        state: 'NEEDS_ATTENTION',
        reasons: [
          expect.objectContaining({
            sentence: expect.stringMatching(
              /is DRAFT, not on sale: put it on sale in the Shopify admin of northwind apparel/,
            ),
            remedy: expect.objectContaining({ party: { role: 'BRAND', shop: NORTHWIND } }),
          }),
        ],
      })
    await server.shopify.setProductStatus(NORTHWIND, OVERSHIRT_PRODUCT, 'ACTIVE')
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await completes(orderId)
    expect(made().transfers).toHaveLength(1)
  })
})

describe('an automatic order whose job was lost', () => {
  /** The server's clock, ahead of the queue's by this much. */
  let aheadMs = 0
  beforeEach(() => start({ now: () => new Date(Date.now() + aheadMs) }))

  it('is put back on the queue by the recheck once its job is long overdue, and transfers', async () => {
    aheadMs = 0
    await setPolicy('AUTOMATIC', 30)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect.poll(() => readiness(orderId)).toMatchObject({ state: 'WAITING' })
    // Two hours on, its job (still due in half an hour by the queue's clock) never ran: lost.
    aheadMs = 2 * 60 * 60_000
    await server.jobs.send(ATTENTION_RECHECK_JOB, {})
    await completes(orderId)
    expect(made().transfers).toHaveLength(1)
  })
})

describe('an automatic order whose processing fails for a while', () => {
  // Retried after a wait long enough for the inbox to be seen saying so.
  beforeEach(() => start({ jobRetries: { delaySeconds: 4 } }))

  it('is retried after Stripe fails, saying when, and completes with one transfer', async () => {
    await setPolicy('AUTOMATIC', 0)
    const orderId = await overshirtPaidAsStripeFails()
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toMatchObject({ state: 'RETRYING', until: expect.any(String) })
    await completes(orderId)
    expect(made()).toEqual({
      brandOrders: [{ shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] }],
      transfers: [{ destination: 'acct_sandbox_northwind_apparel', amount: expect.any(Number) }],
    })
  })
})

describe('holds', () => {
  beforeEach(() => start())

  it('leaves a held order until it is released, saying by whom and why, then it transfers itself', async () => {
    await setPolicy('AUTOMATIC', 30)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect.poll(() => readiness(orderId)).toMatchObject({ state: 'WAITING' })
    const reason = 'The customer asked to change the size'
    const held = await call('POST', '/admin-hold-order', { creatorOrderId: orderId, reason })
    expect(held.json()).toMatchObject({ creatorOrderId: orderId, reason })
    expect(await readiness(orderId)).toEqual({
      state: 'HELD',
      reason,
      by: 'claim-admin@tandem.test',
      since: expect.any(String),
    })
    // The hold outlives the policy's: released after it ended, the order transfers at once.
    await setPolicy('AUTOMATIC', 0)
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
    const released = await call('POST', '/admin-release-order', { creatorOrderId: orderId })
    expect(released.statusCode).toBe(200)
    await completes(orderId)
    expect(made().transfers).toHaveLength(1)
  })

  it("leaves a paused brand's orders until it is resumed, then they transfer themselves", async () => {
    await setPolicy('AUTOMATIC', 0)
    const reason = 'Northwind is moving warehouses this week'
    await pause(NORTHWIND, reason)
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await heldByPause(orderId, NORTHWIND, reason)
    expect(made()).toEqual({ brandOrders: [], transfers: [] })

    await resume(NORTHWIND)
    await completes(orderId)
    expect(made().brandOrders).toEqual([
      { shop: NORTHWIND, lines: [['gid://shopify/ProductVariant/201', 1]] },
    ])
  })

  it("needs attention for a price its paused brand raised: the plan's refusal comes before the pause, nothing moved", async () => {
    await setPolicy('AUTOMATIC', 0)
    await pause(NORTHWIND, 'Northwind is moving warehouses this week')
    await server.shopify.editVariant(NORTHWIND, 'gid://shopify/ProductVariant/201', {
      priceMinor: 7500,
    })
    const orderId = await customerPays([{ key: 'linen-overshirt', quantity: 1 }], 6800)
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toMatchObject({ state: 'NEEDS_ATTENTION' })
    expect(JSON.stringify(await readiness(orderId))).toContain("below the brand's price 75.00 USD")
    expect(made()).toEqual({ brandOrders: [], transfers: [] })
  })

  it('refuses a hold without a reason, of an unknown order, and the release of an order not held', async () => {
    const noReason = await call('POST', '/admin-hold-order', {
      creatorOrderId: '1001',
      reason: 'x',
    })
    expect(noReason.statusCode).toBe(400)
    const unknown = await call('POST', '/admin-hold-order', {
      creatorOrderId: '999999',
      reason: 'Checking this order first',
    })
    expect(unknown.json()).toEqual({
      error: 'not_found',
      message: 'Creator order not found: 999999',
    })
    const notHeld = await call('POST', '/admin-release-order', { creatorOrderId: '1001' })
    expect(notHeld.json()).toEqual({
      error: 'not_found',
      message: 'Creator order 1001 is not held',
    })
    const creator = await call('POST', '/admin-pause-brand', {
      shop: MAYA,
      reason: 'A creator is no brand',
    })
    expect(creator.json()).toEqual({
      error: 'business_rule',
      message: `${MAYA} is a creator store: only a brand is paused`,
    })
  })
})

describe('an automatic order whose failure outlasts its retries', () => {
  // No retry: its first failure is its last.
  beforeEach(() => start({ jobRetries: { limit: 0 } }))

  it('needs attention with the last message, and its job is listed dead with its order', async () => {
    await setPolicy('AUTOMATIC', 0)
    const orderId = await overshirtPaidAsStripeFails()
    await expect
      .poll(() => readiness(orderId), { timeout: 10_000 })
      .toEqual({
        state: 'NEEDS_ATTENTION',
        // No party to name: the sentence says what failed.
        reasons: [
          {
            sentence: expect.stringMatching(
              /^Still failing after 1 attempt: Transfer create failed/,
            ),
            remedy: null,
          },
        ],
      })
    await expect
      .poll(async () => (await call('GET', '/admin-troubled-jobs')).json().jobs)
      .toEqual([
        expect.objectContaining({
          kind: 'transfer-order',
          state: 'DEAD',
          about: { shop: MAYA, order: expect.stringMatching(/^#\d+$/) },
        }),
      ])
  })

  it('transfers once an administrator retries its dead job after Stripe recovered', async () => {
    await setPolicy('AUTOMATIC', 0)
    const orderId = await overshirtPaidAsStripeFails()
    await expect
      .poll(async () => (await call('GET', '/admin-troubled-jobs')).json().jobs, {
        timeout: 10_000,
      })
      .toEqual([expect.objectContaining({ kind: 'transfer-order', state: 'DEAD' })])
    const [dead] = (await call('GET', '/admin-troubled-jobs')).json().jobs as { id: string }[]

    const retried = await call('POST', '/admin-retry-job', { id: dead!.id })
    expect(retried.statusCode).toBe(200)

    await completes(orderId)
    expect(made().transfers).toEqual([
      { destination: expect.any(String), amount: expect.any(Number) },
    ])
    expect((await call('GET', '/admin-troubled-jobs')).json().jobs).toEqual([])
  })
})
