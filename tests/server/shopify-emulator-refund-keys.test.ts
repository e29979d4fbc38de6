import { describe, expect, it } from 'vitest'
import { shopifyEmulatorPerTest, type Json } from './support/shopify-admin-client'
import { BRAND, REFUND_CREATE, refundCalls, usd, variant } from './support/shopify-refund-calls'

// refundCreate's idempotency key in the Shopify emulator: required since API 2026-04, it makes a
// retry answer the first refund. Tandem refunds a brand's order this way (issue 33), and must
// still find a refund again when its key is gone.

const under = shopifyEmulatorPerTest()
const { orderOf, refundCreate } = refundCalls(under)

describe('refundCreate’s idempotency key', () => {
  /** A brand order as Tandem makes one: created, then marked as paid (a manual payment). */
  async function brandOrder(): Promise<{ id: string; sale: Json }> {
    const created = await under.data(
      BRAND,
      `mutation { orderCreate(order: { lineItems: [{ variantId: "${variant(201)}", quantity: 2 }] }) {
        order { id } } }`,
    )
    const id = created.orderCreate.order.id
    await under.data(
      BRAND,
      `mutation ($id: ID!) { orderMarkAsPaid(input: { id: $id }) { order { id } } }`,
      {
        id,
      },
    )
    const [sale] = (await orderOf(BRAND, id)).transactions
    return { id, sale }
  }

  it('is required: a refund without it fails before anything is refunded', async () => {
    const { id, sale } = await brandOrder()
    expect(sale).toMatchObject({ kind: 'SALE', gateway: 'manual', amountSet: usd('136.00') })
    const bare = REFUND_CREATE.replace(', $key: String!', '').replace(' @idempotent(key: $key)', '')
    const { body } = await under.admin(BRAND, bare, { input: { orderId: id } })
    expect(body.data).toEqual({ refundCreate: null })
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'The @idempotent directive is required for this mutation but was not provided.',
        path: ['refundCreate'],
        extensions: { code: 'BAD_REQUEST' },
      }),
    ])
    const blank = await under.admin(BRAND, REFUND_CREATE, { input: { orderId: id }, key: '  ' })
    expect(blank.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' })
    expect((await orderOf(BRAND, id)).refunds).toEqual([])
  })

  it('answers a retry with the first refund; another key refunds again, as Shopify does', async () => {
    const { id, sale } = await brandOrder()
    const input = {
      orderId: id,
      note: 'tandem-reversal-77',
      transactions: [
        { orderId: id, parentId: sale.id, gateway: 'manual', kind: 'REFUND', amount: '40.00' },
      ],
    }
    const first = await refundCreate(BRAND, input, 'reversal-77')
    const retried = await refundCreate(BRAND, input, 'reversal-77')
    expect(retried).toEqual(first)
    expect((await orderOf(BRAND, id)).refunds).toHaveLength(1)

    const changed = await refundCreate(
      BRAND,
      { ...input, note: 'tandem-reversal-78' },
      'reversal-77',
    )
    expect(changed).toEqual({
      refund: null,
      order: null,
      userErrors: [
        {
          field: null,
          message: 'The same idempotency key cannot be used with different operation parameters.',
        },
      ],
    })

    // An answer lost after the refund was made: the retry under its key finds that refund.
    under.emulator.script({ operation: 'refundCreate', shop: BRAND, mode: 'drop_after_write' })
    const lost = { ...input, note: 'tandem-reversal-79' }
    const variables = { input: lost, key: 'reversal-79' }
    await expect(under.admin(BRAND, REFUND_CREATE, variables)).rejects.toThrow()
    expect((await refundCreate(BRAND, lost, 'reversal-79')).refund.note).toBe('tandem-reversal-79')
    expect((await orderOf(BRAND, id)).refunds).toHaveLength(2)

    // A new key is a new refund, even for the very same input: why a caller that lost its answer
    // past the key's 24 hours must find its refund again (by its note) before sending another.
    await refundCreate(BRAND, input, 'reversal-77-again')
    const order = await orderOf(BRAND, id)
    expect(order.refunds.map((refund: Json) => refund.note)).toEqual([
      'tandem-reversal-77',
      'tandem-reversal-79',
      'tandem-reversal-77',
    ])
    expect(order).toMatchObject({
      displayFinancialStatus: 'PARTIALLY_REFUNDED',
      totalRefundedSet: usd('120.00'),
    })
  })

  it('refuses for good a key whose refund was refused: the corrected refund takes a new key', async () => {
    const { id } = await brandOrder()
    const [line] = (await orderOf(BRAND, id)).lineItems.nodes
    const units = (quantity: number) => ({
      orderId: id,
      note: 'tandem-units',
      refundLineItems: [{ lineItemId: line.id, quantity, restockType: 'NO_RESTOCK' }],
    })
    // Three units of a line of two: refused, and nothing refunded.
    const tooMany = await refundCreate(BRAND, units(3), 'brand-refund-1')
    expect(tooMany.refund).toBeNull()
    expect(tooMany.userErrors).not.toEqual([])

    // Corrected, under the same key: refused still, whatever the arguments now.
    expect(await refundCreate(BRAND, units(1), 'brand-refund-1')).toEqual({
      refund: null,
      order: null,
      userErrors: [
        {
          field: null,
          message:
            'A previous request with this idempotency key failed. Retry with a new idempotency key.',
        },
      ],
    })
    expect((await orderOf(BRAND, id)).refunds).toEqual([])

    const retried = await refundCreate(BRAND, units(1), 'brand-refund-1#2')
    expect(retried.userErrors).toEqual([])
    const order = await orderOf(BRAND, id)
    expect(order.lineItems.nodes[0].currentQuantity).toBe(1)
    expect(order.refunds).toHaveLength(1)
  })
})
