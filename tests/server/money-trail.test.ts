import { parse } from 'csv-parse/sync'
import { afterEach, describe, expect, it } from 'vitest'
import type { MoneyMovement } from '@shared/contract'
import { pdfText } from '../support/pdf-text'
import { LUMEN, LUMEN_ACCOUNT, NORTHWIND, NORTHWIND_ACCOUNT } from '../support/sandbox-figures'
import {
  creatorRefunds,
  ORDER_1001,
  FOR_JOBS,
  MAYA,
  MAYA_ACCOUNT,
  transferTo,
  transferred1001,
} from './support/refund-world'
import type { ServerUnderTest } from './support/server-under-test'
import { transferCalls } from './support/transfer-calls'

// The money trail of an order (issue 33): the preview, the transfer history and its CSV show every
// Stripe transfer to a party, every reversal after a refund and every amount a party owes, each
// with Stripe's id, oldest first; the receipt shows the refunds and what went back.

let server: ServerUnderTest
const { preview } = transferCalls(() => server)
afterEach(() => server.close())

const trailOfPreview = async () =>
  ((await preview('1001')).json() as { preview: { moneyTrail: MoneyMovement[] } }).preview
    .moneyTrail

const trailOfHistory = async () =>
  (
    (
      await server.app.inject({
        method: 'GET',
        url: '/admin-order-transfers',
        headers: server.asAdmin,
      })
    ).json() as { transfers: { creatorOrderId: string; moneyTrail: MoneyMovement[] }[] }
  ).transfers.find((transfer) => transfer.creatorOrderId === '1001')?.moneyTrail

/**
 * The trail holds these movements, oldest first. The brands are paid at once, in either order:
 * the order is asserted by the moments, the movements apart from them.
 */
function expectTrail(trail: MoneyMovement[], movements: Omit<MoneyMovement, 'at'>[]) {
  const moments = trail.map((movement) => movement.at)
  expect(moments).toEqual([...moments].sort())
  expect(trail.map(({ at: _at, ...movement }) => movement)).toEqual(
    expect.arrayContaining(movements),
  )
  expect(trail).toHaveLength(movements.length)
}

const stripeTransfer = (account: string) => transferTo(server, account)!.id
const stripeReversal = (account: string) =>
  server.stripe.reversals().find((reversal) => reversal.destination === account)!.id

const movement = (
  kind: MoneyMovement['kind'],
  party: MoneyMovement['party'],
  storeShop: string,
  amount: string,
  stripeId: string,
) => ({ kind, party, storeShop, amount, currency: 'USD', stripeId })

const paidTo1001 = () => [
  movement('TRANSFER', 'BRAND', NORTHWIND, '102.00', stripeTransfer(NORTHWIND_ACCOUNT)),
  movement('TRANSFER', 'BRAND', LUMEN, '24.84', stripeTransfer(LUMEN_ACCOUNT)),
  movement('TRANSFER', 'CREATOR', MAYA, '27.30', stripeTransfer(MAYA_ACCOUNT)),
]

describe('the money trail of order 1001', () => {
  it('shows each party paid, with its Stripe transfer', async () => {
    server = await transferred1001()
    expectTrail(await trailOfPreview(), paidTo1001())
    expect(await trailOfHistory()).toEqual(await trailOfPreview())
  })

  it("adds each reversal after a refund, with Stripe's reversal id, once it is made", async () => {
    server = await transferred1001()
    await creatorRefunds(server, ORDER_1001, [{ line: 0, quantity: 1 }])

    await expect.poll(async () => (await trailOfPreview()).length, FOR_JOBS).toBe(5)
    const trail = await trailOfPreview()
    expectTrail(trail, [
      ...paidTo1001(),
      movement('REVERSAL', 'BRAND', NORTHWIND, '51.00', stripeReversal(NORTHWIND_ACCOUNT)),
      movement('REVERSAL', 'CREATOR', MAYA, '10.20', stripeReversal(MAYA_ACCOUNT)),
    ])
    expect(trail.slice(3).map((movement) => movement.kind)).toEqual(['REVERSAL', 'REVERSAL'])
    expect(await trailOfHistory()).toEqual(trail)

    // The CSV export has a row a reversal, after the brands' rows and the transfers'.
    const csv = await server.app.inject({
      method: 'GET',
      url: '/admin-order-transfers.csv',
      headers: server.asAdmin,
    })
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[]
    expect(
      rows.map((row) => [row.entry, row.party, row.partyStoreShop, row.movedAmount, row.stripeId]),
    ).toEqual([
      ['BRAND', '', '', '', ''],
      ['BRAND', '', '', '', ''],
      ...trail.map((movement) => [
        movement.kind,
        movement.party,
        movement.storeShop,
        movement.amount,
        movement.stripeId,
      ]),
    ])
  })

  it('shows what a brand owes when its balance could not cover the reversal, under the transfer Stripe would not reverse', async () => {
    server = await transferred1001()
    // Northwind was paid out: its Stripe balance is down to 5.00.
    server.stripe.setBalance(NORTHWIND_ACCOUNT, 'usd', 500)
    await creatorRefunds(server, ORDER_1001, [{ line: 0, quantity: 1 }])

    await expect.poll(async () => (await trailOfPreview()).length, FOR_JOBS).toBe(5)
    expectTrail(await trailOfPreview(), [
      ...paidTo1001(),
      movement('OWED', 'BRAND', NORTHWIND, '51.00', stripeTransfer(NORTHWIND_ACCOUNT)),
      movement('REVERSAL', 'CREATOR', MAYA, '10.20', stripeReversal(MAYA_ACCOUNT)),
    ])

    // The receipt gains what the refund took back from Northwind's part, and both outcomes.
    const receipt = await server.app.inject({
      method: 'GET',
      url: '/admin-preview-order-transfer-receipt-pdf?creatorOrderId=1001',
      headers: server.asAdmin,
    })
    const text = await pdfText(receipt.rawPayload)
    expect(text).toContain(`${NORTHWIND} 1 USD 51.00 USD 10.20 USD 6.80`)
    expect(text).toContain(`Owed ${NORTHWIND} ${stripeTransfer(NORTHWIND_ACCOUNT)} USD 51.00`)
    expect(text).toContain(`Reversed ${MAYA} ${stripeReversal(MAYA_ACCOUNT)} USD 10.20`)
  })
})
