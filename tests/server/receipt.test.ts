import { describe, expect, it } from 'vitest'
import { pageTexts, readPdf } from '../support/pdf-text'
import { order1001Brands, ORDER_1001_TOTALS } from '../support/sandbox-figures'
import { renderReceiptPdf, type ReceiptData } from '../../server/src/receipt/receipt-pdf'

const order1001Preview: ReceiptData = {
  productName: 'Tandem',
  status: 'PREVIEW',
  processedAt: null,
  generatedAt: '2025-03-04T10:15:00.000Z',
  creatorOrder: {
    id: '1001',
    name: '#1001',
    createdAt: '2025-03-01T16:42:00.000Z',
    storeShop: 'maya-makes.myshopify.com',
    customer: {
      name: 'Jane Doe',
      email: 'jane@example.com',
      address: ['1 Main St', 'Portland, OR 97201', 'US'],
    },
  },
  currency: 'USD',
  brands: order1001Brands(),
  totals: ORDER_1001_TOTALS,
  settlement: null,
  refunds: null,
  moneyBack: [],
}

const order1001Processed: ReceiptData = {
  ...order1001Preview,
  status: 'PROCESSED',
  processedAt: '2025-03-04T10:14:00.000Z',
  brands: order1001Brands(['5001', '5002']),
}

/** An order with `brandCount` brands whose figures follow from their position. */
function manyBrands(brandCount: number): ReceiptData {
  const brands = Array.from({ length: brandCount }, (_, index) => ({
    brandStoreShop: `brand-${String(index + 1).padStart(2, '0')}.myshopify.com`,
    brandOrderId: index % 2 === 0 ? `${6001 + index}` : null,
    brandAmount: `${100 + index}.00`,
    creatorCommissionAmount: `${20 + index}.50`,
    tandemCommissionAmount: `${10 + index}.25`,
  }))
  return {
    ...order1001Preview,
    brands,
    totals: {
      totalBrandAmount: '9999.00',
      totalCreatorCommissionAmount: '888.00',
      totalTandemCommissionAmount: '777.00',
    },
  }
}

function expectAllBrandsAndTotals(data: ReceiptData, pages: string[]): void {
  const all = pages.join(' ')
  for (const brand of data.brands) {
    const row = [
      brand.brandStoreShop,
      brand.brandOrderId ?? 'pending',
      `USD ${brand.brandAmount}`,
      `USD ${brand.creatorCommissionAmount}`,
      `USD ${brand.tandemCommissionAmount}`,
    ].join(' ')
    expect(all).toContain(row)
    expect(count(all, brand.brandStoreShop)).toBe(1)
  }
  for (const [index, page] of pages.entries()) {
    expect(page).toContain(
      'Brand store Brand order Brand amount Creator commission Tandem commission',
    )
    expect(page).toContain(`Page ${index + 1} of ${pages.length}`)
  }
  expect(count(all, 'Total USD 9,999.00 USD 888.00 USD 777.00')).toBe(1)
  expect(pages.at(-1)).toContain('Total USD 9,999.00 USD 888.00 USD 777.00')
}

function count(text: string, part: string): number {
  return text.split(part).length - 1
}

describe('renderReceiptPdf', () => {
  it('writes a PDF', async () => {
    const pdf = await renderReceiptPdf(order1001Preview)
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF')
  })

  it('shows everything about a previewed transfer on one page', async () => {
    const pages = await pageTexts(await renderReceiptPdf(order1001Preview))
    expect(pages).toHaveLength(1)
    const text = pages[0]!
    for (const expected of [
      'Tandem',
      'Order transfer receipt',
      'Preview — not yet processed',
      '#1001',
      'Order ID 1001',
      '1 Mar 2025, 16:42 UTC',
      'maya-makes.myshopify.com',
      'Jane Doe',
      'jane@example.com',
      '1 Main St',
      'Portland',
      '97201',
      'US',
      'Currency USD',
      'Brand store',
      'Brand order',
      'Brand amount',
      'Creator commission',
      'Tandem commission',
      'northwind-apparel.myshopify.com pending USD 102.00 USD 20.40 USD 13.60',
      'lumen-botanicals.myshopify.com pending USD 24.84 USD 6.90 USD 2.76',
      'Total USD 126.84 USD 27.30 USD 16.36',
    ]) {
      expect(text).toContain(expected)
    }
    expect(count(text, 'pending')).toBe(2)
    expect(text).not.toContain('Processed')
  })

  it('shows the brand orders and the processing date of a processed transfer', async () => {
    const [text, ...more] = await pageTexts(await renderReceiptPdf(order1001Processed))
    expect(more).toHaveLength(0)
    expect(text).toContain('Processed on 4 Mar 2025, 10:14 UTC')
    expect(text).toContain('northwind-apparel.myshopify.com 5001 USD 102.00')
    expect(text).toContain('lumen-botanicals.myshopify.com 5002 USD 24.84')
    expect(text).toContain('Total USD 126.84 USD 27.30 USD 16.36')
    expect(text).not.toContain('pending')
    expect(text).not.toContain('Preview')
    // Nothing was refunded: no refunds, no reversals.
    expect(text).not.toContain('Refunded')
    expect(text).not.toContain('Reversals')
  })

  it('adds what refunds since the transfer took back from each brand, and each reversal and amount owed', async () => {
    const [text, ...more] = await pageTexts(
      await renderReceiptPdf({
        ...order1001Processed,
        // One of the two overshirts refunded: half of Northwind's part goes back.
        refunds: {
          brands: [
            {
              brandStoreShop: 'northwind-apparel.myshopify.com',
              refundedUnits: 1,
              brandAmount: '51.00',
              creatorCommissionAmount: '10.20',
              tandemCommissionAmount: '6.80',
            },
          ],
          totals: {
            totalBrandAmount: '51.00',
            totalCreatorCommissionAmount: '10.20',
            totalTandemCommissionAmount: '6.80',
          },
        },
        moneyBack: [
          {
            at: '2025-03-06T09:30:00.000Z',
            kind: 'OWED',
            storeShop: 'northwind-apparel.myshopify.com',
            stripeId: 'tr_1QNorthwind',
            amount: '51.00',
            currency: 'USD',
          },
          {
            at: '2025-03-06T09:30:01.000Z',
            kind: 'REVERSAL',
            storeShop: 'maya-makes.myshopify.com',
            stripeId: 'trr_1QMaya',
            amount: '10.20',
            currency: 'USD',
          },
        ],
      }),
    )
    expect(more).toHaveLength(0)
    for (const expected of [
      "Refunded since the transfer: what each brand's part gives back, at the rates frozen then",
      'Brand store Units refunded Brand amount Creator commission Tandem commission',
      'northwind-apparel.myshopify.com 1 USD 51.00 USD 10.20 USD 6.80',
      'Total USD 51.00 USD 10.20 USD 6.80',
      'Reversals since the transfer',
      'Date What Store Stripe ID Amount',
      '6 Mar 2025, 09:30 UTC Owed northwind-apparel.myshopify.com tr_1QNorthwind USD 51.00',
      '6 Mar 2025, 09:30 UTC Reversed maya-makes.myshopify.com trr_1QMaya USD 10.20',
      "Owed: Stripe could not take the amount back from the store's balance, so the store owes it.",
    ]) {
      expect(text).toContain(expected)
    }
  })

  it('gives the same bytes for the same data', async () => {
    const first = await renderReceiptPdf(order1001Processed)
    const second = await renderReceiptPdf(structuredClone(order1001Processed))
    expect(second.equals(first)).toBe(true)
    const later = await renderReceiptPdf({
      ...order1001Processed,
      generatedAt: '2025-03-05T08:00:00.000Z',
    })
    expect(later.equals(first)).toBe(false)
  })

  it('records generatedAt as the creation date and the order as the title', async () => {
    const pdf = await renderReceiptPdf(order1001Preview)
    const { info } = await readPdf(pdf, (document) => document.getMetadata())
    expect(info).toMatchObject({
      CreationDate: 'D:20250304101500Z',
      ModDate: 'D:20250304101500Z',
      Title: 'Order transfer receipt #1001',
    })
  })

  it('lists all 20 brands of a large order, with the header on every page', async () => {
    const data = manyBrands(20)
    const pages = await pageTexts(await renderReceiptPdf(data))
    expectAllBrandsAndTotals(data, pages)
  })

  it('flows a longer table onto more pages, repeating the header', async () => {
    const data = manyBrands(45)
    const pages = await pageTexts(await renderReceiptPdf(data))
    expect(pages.length).toBeGreaterThanOrEqual(2)
    expectAllBrandsAndTotals(data, pages)
  })

  it('groups the digits of large amounts and never splits one', async () => {
    const [text] = await pageTexts(
      await renderReceiptPdf({
        ...order1001Preview,
        brands: [{ ...order1001Preview.brands[0]!, brandAmount: '1234567.89' }],
        totals: { ...order1001Preview.totals, totalBrandAmount: '12345678.90' },
      }),
    )
    expect(text).toContain('USD 1,234,567.89')
    expect(text).toContain('Total USD 12,345,678.90 USD 27.30')
  })

  it('prints a customer without contact details, and text outside Helvetica as "?"', async () => {
    const [text] = await pageTexts(
      await renderReceiptPdf({
        ...order1001Preview,
        creatorOrder: {
          ...order1001Preview.creatorOrder,
          customer: { name: 'Jose\u0301\u00a0山田\tⅡ', email: null, address: [] },
        },
      }),
    )
    expect(text).toContain('José ?? ?')
    const [anonymous] = await pageTexts(
      await renderReceiptPdf({
        ...order1001Preview,
        creatorOrder: {
          ...order1001Preview.creatorOrder,
          customer: { name: null, email: null, address: [] },
        },
      }),
    )
    expect(anonymous).toContain('Customer Not provided')
  })

  it('rejects a generatedAt that is not a date', async () => {
    await expect(renderReceiptPdf({ ...order1001Preview, generatedAt: 'soon' })).rejects.toThrow(
      /generatedAt/,
    )
  })
})
