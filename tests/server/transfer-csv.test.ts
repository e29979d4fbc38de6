import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import type { MoneyMovement, OrderTransferRecord } from '@shared/contract'
import { CSV_HEADER, transferCsvRows } from '../../server/src/transfers/transfer-csv'
import { NORTHWIND } from '../support/sandbox-figures'

// The transfer history's CSV rows as a spreadsheet or a CSV library reads them (RFC 4180).

const MAYA = 'maya-makes.myshopify.com'

/** Order 1001's transfer, Northwind's part only. */
const TRANSFER_1001: OrderTransferRecord = {
  creatorOrderId: '1001',
  creatorOrderName: '#1001',
  creatorStoreShop: MAYA,
  currency: 'USD',
  status: 'COMPLETED',
  startedAt: '2026-11-23T10:00:00.000Z',
  processedBy: 'admin@tandem.test',
  processedAt: '2026-11-23T10:00:05.000Z',
  brands: [
    {
      brandStoreShop: NORTHWIND,
      brandOrderId: 'gid://shopify/Order/5001',
      tandemCommissionRate: 10,
      creatorCommissionRate: 12.5,
      baseAmount: '136.00',
      brandAmount: '102.00',
      creatorCommissionAmount: '20.40',
      tandemCommissionAmount: '13.60',
      paymentTransferId: 'tr_northwind',
      failedMessage: null,
      settlement: null,
    },
  ],
  moneyTrail: [],
}

describe('the CSV rows', () => {
  it('quote what holds a comma, a quote or a line break, and keep formula-like text as text', () => {
    const row = transferCsvRows({
      ...TRANSFER_1001,
      status: 'PARTIAL',
      processedBy: '=HYPERLINK("http://evil")',
      processedAt: null,
      brands: [
        {
          ...TRANSFER_1001.brands[0]!,
          brandOrderId: null,
          paymentTransferId: 'tr_1, "two"\r\nthree',
        },
      ],
    })
    expect(row).toBe(
      `1001,${MAYA},PARTIAL,USD,2026-11-23T10:00:00.000Z,,"'=HYPERLINK(""http://evil"")",` +
        `${NORTHWIND},,10,12.5,136.00,102.00,20.40,13.60,"tr_1, ""two""\r\nthree",,,,,,BRAND,,,,,,\r\n`,
    )
    expect(parse(CSV_HEADER + row, { columns: true })).toEqual([
      expect.objectContaining({
        processedBy: `'=HYPERLINK("http://evil")`,
        paymentTransferId: 'tr_1, "two"\r\nthree',
      }),
    ])
  })
})

describe('the money trail in the CSV', () => {
  it('follows the brand rows, a row a movement with its party, moment, amount and Stripe id', () => {
    // An overshirt refunded: Maya's 10.20 taken back; Northwind's balance could not cover 51.00.
    const rows = transferCsvRows({
      ...TRANSFER_1001,
      moneyTrail: [
        movement(
          '2026-11-23T10:00:04.000Z',
          'TRANSFER',
          'BRAND',
          NORTHWIND,
          '102.00',
          'tr_northwind',
        ),
        movement('2026-11-23T10:05:00.000Z', 'TRANSFER', 'CREATOR', MAYA, '20.40', 'tr_maya'),
        movement('2026-11-24T08:00:00.000Z', 'OWED', 'BRAND', NORTHWIND, '51.00', 'tr_northwind'),
        movement('2026-11-24T08:00:01.000Z', 'REVERSAL', 'CREATOR', MAYA, '10.20', 'trr_maya'),
      ],
    })
    const read = parse(CSV_HEADER + rows, { columns: true }) as Record<string, string>[]
    expect(
      read.map((row) => [
        row.entry,
        row.party,
        row.partyStoreShop,
        row.movedAt,
        row.movedAmount,
        row.movedCurrency,
        row.stripeId,
      ]),
    ).toEqual([
      ['BRAND', '', '', '', '', '', ''],
      ['TRANSFER', 'BRAND', NORTHWIND, '2026-11-23T10:00:04.000Z', '102.00', 'USD', 'tr_northwind'],
      ['TRANSFER', 'CREATOR', MAYA, '2026-11-23T10:05:00.000Z', '20.40', 'USD', 'tr_maya'],
      ['OWED', 'BRAND', NORTHWIND, '2026-11-24T08:00:00.000Z', '51.00', 'USD', 'tr_northwind'],
      ['REVERSAL', 'CREATOR', MAYA, '2026-11-24T08:00:01.000Z', '10.20', 'USD', 'trr_maya'],
    ])
    // Each row names its transfer; only the brand's row holds its frozen figures.
    expect(
      read.map((row) => [row.creatorOrderId, row.status, row.brandStoreShop, row.brandAmount]),
    ).toEqual([
      ['1001', 'COMPLETED', NORTHWIND, '102.00'],
      ...Array(4).fill(['1001', 'COMPLETED', '', '']),
    ])
  })
})

function movement(
  at: string,
  kind: MoneyMovement['kind'],
  party: MoneyMovement['party'],
  storeShop: string,
  amount: string,
  stripeId: string,
): MoneyMovement {
  return { at, kind, party, storeShop, amount, currency: 'USD', stripeId }
}
