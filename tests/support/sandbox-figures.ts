// PRODUCT.md's expected figures for the sandbox's order 1001, as the API carries them. Tests of the
// server, the receipt and the console all hold the system to these same numbers.

export const NORTHWIND = 'northwind-apparel.myshopify.com'
export const LUMEN = 'lumen-botanicals.myshopify.com'

/** The two brand transfers of order 1001, with the brand order ids once processed. */
export function order1001Brands(brandOrderIds: [string | null, string | null] = [null, null]) {
  return [
    {
      brandStoreShop: NORTHWIND,
      brandOrderId: brandOrderIds[0],
      brandAmount: '102.00',
      creatorCommissionAmount: '20.40',
      tandemCommissionAmount: '13.60',
    },
    {
      brandStoreShop: LUMEN,
      brandOrderId: brandOrderIds[1],
      brandAmount: '24.84',
      creatorCommissionAmount: '6.90',
      tandemCommissionAmount: '2.76',
    },
  ]
}

export const ORDER_1001_TOTALS = {
  totalBrandAmount: '126.84',
  totalCreatorCommissionAmount: '27.30',
  totalTandemCommissionAmount: '16.36',
}
