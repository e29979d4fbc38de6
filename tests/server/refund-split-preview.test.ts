import { afterEach, describe, expect, it } from 'vitest'
import { NORTHWIND, ONE_OVERSHIRT_SPLIT, splitParts as parts } from '../support/sandbox-figures'
import { creatorRefunds, MAYA, ORDER_1001, transferred1001 } from './support/refund-world'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// POST /admin-preview-refund-split (issue 33): before a refund runs, what it would take back from
// each brand, the creator and Tandem, and what each keeps, at the rates frozen by the transfer.
// Order 1001: Northwind's two overshirts (136.00: 102.00, 20.40, 13.60) and Lumen's face oil
// (34.50: 24.84, 6.90, 2.76).

const OVERSHIRTS = 'gid://shopify/LineItem/10011'
const FACE_OIL = 'gid://shopify/LineItem/10012'
const STICKERS = 'gid://shopify/LineItem/10013'

let server: ServerUnderTest
const { processOrder } = transferCalls(() => server)
afterEach(() => server.close())

const splitOf = (lines: { lineItemId: string; quantity: number }[], creatorOrderId = '1001') =>
  server.app.inject({
    method: 'POST',
    url: '/admin-preview-refund-split',
    headers: server.asAdmin,
    payload: { creatorOrderId, lines },
  })

describe('a refund split before it runs', () => {
  it('says what refunding one overshirt would take back from each party, and what each keeps', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1001')).statusCode).toBe(201)

    const overshirt = await splitOf([{ lineItemId: OVERSHIRTS, quantity: 1 }])
    expect(overshirt.statusCode).toBe(200)
    expect(overshirt.json()).toEqual(ONE_OVERSHIRT_SPLIT)

    // Everything: all goes back. The creator's own stickers are no brand's: they change nothing.
    const everything = await splitOf([
      { lineItemId: OVERSHIRTS, quantity: 2 },
      { lineItemId: FACE_OIL, quantity: 1 },
      { lineItemId: STICKERS, quantity: 1 },
    ])
    expect(everything.json().totals).toEqual({
      back: parts('126.84', '27.30', '16.36'),
      kept: parts('0.00', '0.00', '0.00'),
    })
    // Nothing chosen and nothing refunded yet: nothing goes back.
    expect((await splitOf([])).json().totals.back).toEqual(parts('0.00', '0.00', '0.00'))
  })

  it('shows the split of the refunds already made, and adds the units chosen to them', async () => {
    server = await transferred1001()
    await creatorRefunds(server, ORDER_1001, [{ line: 0, quantity: 1 }])

    expect((await splitOf([])).json()).toEqual(ONE_OVERSHIRT_SPLIT)
    const andTheOther = await splitOf([{ lineItemId: OVERSHIRTS, quantity: 1 }])
    expect(andTheOther.json().brands[0]).toEqual({
      brandStoreShop: NORTHWIND,
      refundedUnits: 2,
      back: parts('102.00', '20.40', '13.60'),
      kept: parts('0.00', '0.00', '0.00'),
    })

    // One overshirt is still sold: more, fewer than none, or part of one is refused.
    for (const quantity of [2, -5, 0.5]) {
      const refused = await splitOf([{ lineItemId: OVERSHIRTS, quantity }])
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({
        status: 400,
        body: {
          error: 'invalid_input',
          message:
            'Units to refund of Linen Overshirt of creator order #1001 must be a whole number from 0 to 1, the units still sold',
        },
      })
    }
  })

  it('counts only units Shopify refunded, as the refund job does: an edit that refunds nobody takes nothing', async () => {
    server = await transferred1001()
    // Maya takes an overshirt off the order in her admin, and gives the customer nothing back.
    server.shopify.removeUnits(MAYA, 'gid://shopify/Order/1001', [{ line: 0, quantity: 1 }])

    expect((await splitOf([])).json().totals.back).toEqual(parts('0.00', '0.00', '0.00'))
    const preview = await server.app.inject({
      url: '/admin-preview-order-transfer?creatorOrderId=1001',
      headers: server.asAdmin,
    })
    expect(preview.json().preview.refunds ?? []).toEqual([])
  })

  it('refuses a line the order lacks, and an order whose transfer is not complete', async () => {
    server = await startServerUnderTest()
    expect((await processOrder('1001')).statusCode).toBe(201)
    const unknown = await splitOf([{ lineItemId: 'gid://shopify/LineItem/99', quantity: 1 }])
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toBe('Creator order #1001 has no line gid://shopify/LineItem/99')

    const notProcessed = await splitOf([], '1004')
    expect(notProcessed.statusCode).toBe(422)
    expect(notProcessed.json().message).toBe(
      'The transfer of creator order #1004 is not complete: a refund before it lowers what it transfers, and nothing goes back',
    )
    // Two overshirts are still sold: each refused in the words the console's field says under it
    // (tests/renderer/refund-split.test.tsx); none chosen is no refund of the line.
    for (const quantity of [3, -5, 1.5]) {
      const refused = await splitOf([{ lineItemId: OVERSHIRTS, quantity }])
      expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
        status: 400,
        message:
          'Units to refund of Linen Overshirt of creator order #1001 must be a whole number from 0 to 2, the units still sold',
      })
    }
    expect((await splitOf([{ lineItemId: OVERSHIRTS, quantity: 0 }])).statusCode).toBe(200)
  })

  it('needs an administrator', async () => {
    server = await startServerUnderTest()
    const anonymous = await server.app.inject({
      method: 'POST',
      url: '/admin-preview-refund-split',
      payload: { creatorOrderId: '1001', lines: [] },
    })
    expect(anonymous.statusCode).toBe(401)
  })
})
