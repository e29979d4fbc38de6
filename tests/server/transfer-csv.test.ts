import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { CSV_HEADER, transferCsvRows } from '../../server/src/transfers/transfer-csv'
import { NORTHWIND } from '../support/sandbox-figures'

// The transfer history's CSV rows as a spreadsheet or a CSV library reads them (RFC 4180).

const MAYA = 'maya-makes.myshopify.com'

describe('the CSV rows', () => {
  it('quote what holds a comma, a quote or a line break, and keep formula-like text as text', () => {
    const row = transferCsvRows({
      creatorOrderId: '1001',
      creatorOrderName: '#1001',
      creatorStoreShop: MAYA,
      currency: 'USD',
      status: 'PARTIAL',
      startedAt: '2026-11-23T10:00:00.000Z',
      processedBy: '=HYPERLINK("http://evil")',
      processedAt: null,
      brands: [
        {
          brandStoreShop: NORTHWIND,
          brandOrderId: null,
          tandemCommissionRate: 10,
          creatorCommissionRate: 12.5,
          baseAmount: '136.00',
          brandAmount: '102.00',
          creatorCommissionAmount: '20.40',
          tandemCommissionAmount: '13.60',
          paymentTransferId: 'tr_1, "two"\r\nthree',
          failedMessage: null,
          settlement: null,
        },
      ],
      moneyTrail: [],
    })
    expect(row).toBe(
      `1001,${MAYA},PARTIAL,USD,2026-11-23T10:00:00.000Z,,"'=HYPERLINK(""http://evil"")",` +
        `${NORTHWIND},,10,12.5,136.00,102.00,20.40,13.60,"tr_1, ""two""\r\nthree",,,,,\r\n`,
    )
    expect(parse(CSV_HEADER + row, { columns: true })).toEqual([
      expect.objectContaining({
        processedBy: `'=HYPERLINK("http://evil")`,
        paymentTransferId: 'tr_1, "two"\r\nthree',
      }),
    ])
  })
})
