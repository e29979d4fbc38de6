import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import {
  CommerceError,
  type BrandOrderInput,
} from '../../server/src/adapters/commerce/commerce-port'
import { createSandboxCommerce } from '../../server/src/adapters/commerce/sandbox-commerce'
import {
  PaymentsError,
  type TransferRequest,
} from '../../server/src/adapters/payments/payments-port'
import {
  createSandboxPayments,
  IDEMPOTENCY_REUSE,
} from '../../server/src/adapters/payments/sandbox-payments'
import { LOST_ANSWER, scriptSandboxFault } from '../../server/src/adapters/sandbox-faults'
import { startServerUnderTest, stockOf, type ServerUnderTest } from './support/server-under-test'

// The sandbox commerce platform and payment provider on their own, over the seeded database.

const OVERSHIRT = 'gid://shopify/ProductVariant/201'
const SOCKS = 'gid://shopify/ProductVariant/202'

let server: ServerUnderTest

beforeEach(async () => {
  server = await startServerUnderTest()
})
afterEach(async () => {
  await server.close()
})

const brandOrder = (lines: BrandOrderInput['lines']): BrandOrderInput => ({
  lines,
  currency: 'USD',
  email: 'jane@example.com',
  shippingAddress: null,
  tags: ['tandem'],
  note: 'a note',
  inventoryBehaviour: 'DECREMENT_OBEYING_POLICY',
})

const stock = (variantId: string) => stockOf(server.db, variantId)

describe('sandbox commerce', () => {
  it('counts the products of a store', async () => {
    const commerce = createSandboxCommerce(server.db)
    expect(await commerce.syncProducts(NORTHWIND)).toEqual({ productCount: 2 })
    expect(await commerce.syncProducts('maya-makes.myshopify.com')).toEqual({ productCount: 6 })
    expect(await commerce.syncProducts('nobody.myshopify.com')).toEqual({ productCount: 0 })
  })

  it('finds a creator order with the brand of each line', async () => {
    const commerce = createSandboxCommerce(server.db)
    const order = await commerce.findCreatorOrder(1004)
    expect(order).toMatchObject({
      id: 1004,
      name: '#1004',
      storeShop: 'urban-trail-edits.myshopify.com',
      subtotalMinor: 4575,
      taxMinor: 366,
      shippingMinor: 500,
      totalMinor: 5441,
      lines: [
        {
          title: 'Cedar Soap Bar',
          quantity: 3,
          unitPriceMinor: 925,
          originalTotalMinor: 2775,
          discountedTotalMinor: 2775,
          source: {
            brandStoreShop: 'lumen-botanicals.myshopify.com',
            brandVariantId: 'gid://shopify/ProductVariant/204',
          },
        },
        {
          title: 'Merino Crew Socks',
          source: { brandStoreShop: NORTHWIND, brandVariantId: SOCKS },
        },
      ],
    })
    expect(await commerce.findCreatorOrder(9999)).toBeNull()
  })

  it('creates orders with new ids, brand prices and decremented stock, and marks them paid', async () => {
    const commerce = createSandboxCommerce(server.db)
    const first = await commerce.createOrder(
      NORTHWIND,
      brandOrder([
        { variantId: OVERSHIRT, quantity: 2 },
        { variantId: SOCKS, quantity: 1 },
      ]),
    )
    const second = await commerce.createOrder(
      NORTHWIND,
      brandOrder([{ variantId: SOCKS, quantity: 1 }]),
    )
    expect(first).toEqual({ id: 'gid://shopify/Order/1006', name: '#1006' })
    expect(second).toEqual({ id: 'gid://shopify/Order/1007', name: '#1007' })
    expect(await stock(OVERSHIRT)).toBe(98)
    expect(await stock(SOCKS)).toBe(98)

    const row = await server.db
      .selectFrom('commerce_orders')
      .selectAll()
      .where('id', '=', 1006)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      store_shop: NORTHWIND,
      subtotal_minor: 15400,
      tags: 'tandem',
      paid: 0,
    })
    await commerce.markOrderAsPaid(NORTHWIND, first.id)
    const paid = await server.db
      .selectFrom('commerce_orders')
      .select('paid')
      .where('id', '=', 1006)
      .executeTakeFirstOrThrow()
    expect(paid.paid).toBe(1)
  })

  it('gives concurrent orders distinct ids', async () => {
    const commerce = createSandboxCommerce(server.db)
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        commerce.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 1 }])),
      ),
    )
    expect(new Set(created.map((order) => order.id)).size).toBe(5)
    expect(await stock(SOCKS)).toBe(95)
  })

  it('refuses what Shopify refuses', async () => {
    const commerce = createSandboxCommerce(server.db)
    await expect(
      commerce.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 101 }])),
    ).rejects.toThrow(new CommerceError(`Merino Crew Socks is out of stock in ${NORTHWIND}`))
    // Another store's variant is not the brand's to sell.
    await expect(
      commerce.createOrder(
        NORTHWIND,
        brandOrder([{ variantId: 'gid://shopify/ProductVariant/203', quantity: 1 }]),
      ),
    ).rejects.toBeInstanceOf(CommerceError)
    await expect(
      commerce.markOrderAsPaid(NORTHWIND, 'gid://shopify/Order/1001'),
    ).rejects.toBeInstanceOf(CommerceError)
    expect(await stock(SOCKS)).toBe(100)
  })

  it('refuses to mark an order that is paid already, and tells its financial status', async () => {
    const commerce = createSandboxCommerce(server.db)
    const created = await commerce.createOrder(
      NORTHWIND,
      brandOrder([{ variantId: SOCKS, quantity: 1 }]),
    )
    expect(await commerce.orderFinancialStatus(NORTHWIND, created.id)).toBe('PENDING')
    await commerce.markOrderAsPaid(NORTHWIND, created.id)
    expect(await commerce.orderFinancialStatus(NORTHWIND, created.id)).toBe('PAID')
    await expect(commerce.markOrderAsPaid(NORTHWIND, created.id)).rejects.toThrow(
      new CommerceError('Order cannot be marked as paid.'),
    )
    await expect(commerce.orderFinancialStatus(LUMEN, created.id)).rejects.toThrow(
      new CommerceError(`Order ${created.id} does not exist in ${LUMEN}`),
    )
  })

  it('finds an order by a whole tag of its shop only', async () => {
    const commerce = createSandboxCommerce(server.db)
    const created = await commerce.createOrder(NORTHWIND, {
      ...brandOrder([{ variantId: SOCKS, quantity: 1 }]),
      tags: ['tandem', 'tandem-transfer-10011'],
    })
    expect(await commerce.findOrderByTag(NORTHWIND, 'tandem-transfer-10011')).toEqual(created)
    expect(await commerce.findOrderByTag(NORTHWIND, 'tandem-transfer-1001')).toBeNull()
    expect(await commerce.findOrderByTag(LUMEN, 'tandem-transfer-10011')).toBeNull()
  })

  it('fails the calls a test scripts to fail, then lets them through', async () => {
    await scriptSandboxFault(server.db, {
      operation: 'createOrder',
      mode: 'fail',
      message: 'Shopify is down',
      times: 2,
    })
    const commerce = createSandboxCommerce(server.db)
    const input = brandOrder([{ variantId: SOCKS, quantity: 1 }])
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(commerce.createOrder(NORTHWIND, input)).rejects.toThrow(
        new CommerceError('Shopify is down'),
      )
    }
    expect(await stock(SOCKS)).toBe(100)
    expect(await commerce.createOrder(NORTHWIND, input)).toEqual({
      id: 'gid://shopify/Order/1006',
      name: '#1006',
    })
  })

  it('does the work and loses the answer when scripted to', async () => {
    await scriptSandboxFault(server.db, { operation: 'createOrder', mode: 'drop_answer' })
    const commerce = createSandboxCommerce(server.db)
    await expect(
      commerce.createOrder(NORTHWIND, brandOrder([{ variantId: SOCKS, quantity: 1 }])),
    ).rejects.toThrow(new CommerceError(LOST_ANSWER))
    // Shopify did it: the order exists and the stock is taken.
    expect(await commerce.findOrderByTag(NORTHWIND, 'tandem')).toEqual({
      id: 'gid://shopify/Order/1006',
      name: '#1006',
    })
    expect(await stock(SOCKS)).toBe(99)
  })

  it('delays the calls of one shop only when scripted to', async () => {
    await scriptSandboxFault(server.db, {
      operation: 'findOrderByTag',
      mode: 'delay',
      delayMs: 300,
      target: LUMEN,
    })
    const commerce = createSandboxCommerce(server.db)
    const lumen = commerce.findOrderByTag(LUMEN, 'tandem').then(() => LUMEN)
    const northwind = commerce.findOrderByTag(NORTHWIND, 'tandem').then(() => NORTHWIND)
    // Asked first, Lumen answers last: its call waits, Northwind's does not.
    expect(await Promise.race([lumen, northwind])).toBe(NORTHWIND)
    expect(await lumen).toBe(LUMEN)
  })
})

describe('sandbox payments', () => {
  const request: TransferRequest = {
    amountMinor: 10200,
    currency: 'USD',
    destinationAccountId: 'acct_sandbox_northwind_apparel',
    idempotencyKey: 'transfer:1001:northwind-apparel.myshopify.com',
    transferGroup: 'tandem-order-1001',
    description: 'test',
  }
  const transferCount = async () =>
    (await server.db.selectFrom('payment_transfers').select('id').execute()).length

  it('knows the connected account of each brand', async () => {
    const payments = createSandboxPayments(server.db)
    expect(await payments.connectedAccount(NORTHWIND)).toEqual({
      accountId: 'acct_sandbox_northwind_apparel',
      email: 'payouts@northwind-apparel.example',
    })
    expect(await payments.connectedAccount('maya-makes.myshopify.com')).toBeNull()
  })

  it('answers the same transfer for the same idempotency key, even concurrently', async () => {
    const payments = createSandboxPayments(server.db)
    const results = await Promise.all(
      Array.from({ length: 5 }, () => payments.createTransfer(request)),
    )
    expect(new Set(results.map((result) => result.id)).size).toBe(1)
    expect(await payments.createTransfer(request)).toEqual(results[0])
    expect(await transferCount()).toBe(1)
    const other = await payments.createTransfer({ ...request, idempotencyKey: 'another' })
    expect(other.id).not.toBe(results[0]?.id)
    expect(await transferCount()).toBe(2)
  })

  it('refuses a key reused with other parameters, and an unknown destination', async () => {
    const payments = createSandboxPayments(server.db)
    await payments.createTransfer(request)
    await expect(payments.createTransfer({ ...request, amountMinor: 1 })).rejects.toBeInstanceOf(
      PaymentsError,
    )
    await expect(
      payments.createTransfer({ ...request, idempotencyKey: 'k', destinationAccountId: 'acct_x' }),
    ).rejects.toThrow(new PaymentsError('No such destination: acct_x'))
    expect(await transferCount()).toBe(1)
  })

  it('forgets a key after 24 hours of its clock, and finds transfers by group and destination', async () => {
    let clock = new Date('2026-11-23T10:00:00Z')
    const payments = createSandboxPayments(server.db, { now: () => clock })
    const first = await payments.createTransfer(request)
    clock = new Date('2026-11-24T09:59:59Z')
    expect(await payments.createTransfer(request)).toEqual(first)
    await expect(payments.createTransfer({ ...request, amountMinor: 1 })).rejects.toThrow(
      new PaymentsError(IDEMPOTENCY_REUSE),
    )
    clock = new Date('2026-11-24T10:00:01Z')
    const second = await payments.createTransfer(request)
    expect(second.id).not.toBe(first.id)
    expect(await transferCount()).toBe(2)
    expect(
      await payments.findTransfers({
        transferGroup: request.transferGroup,
        destinationAccountId: request.destinationAccountId,
      }),
    ).toEqual([
      { id: first.id, amountMinor: 10200 },
      { id: second.id, amountMinor: 10200 },
    ])
    expect(
      await payments.findTransfers({
        transferGroup: 'tandem-order-1004',
        destinationAccountId: request.destinationAccountId,
      }),
    ).toEqual([])
  })

  it('fails the transfers of one destination a test scripts to fail', async () => {
    await scriptSandboxFault(server.db, {
      operation: 'createTransfer',
      mode: 'fail',
      message: 'Insufficient funds',
      target: 'acct_sandbox_northwind_apparel',
    })
    const payments = createSandboxPayments(server.db)
    await expect(
      payments.createTransfer({
        ...request,
        destinationAccountId: 'acct_sandbox_lumen_botanicals',
        idempotencyKey: 'lumen',
      }),
    ).resolves.toEqual({ id: expect.stringMatching(/^tr_sandbox_/) })
    await expect(payments.createTransfer(request)).rejects.toThrow(
      new PaymentsError('Insufficient funds'),
    )
    await expect(payments.createTransfer(request)).resolves.toEqual({
      id: expect.stringMatching(/^tr_sandbox_/),
    })
    expect(await transferCount()).toBe(2)
  })
})
