// The expected figures for the sandbox's order 1001 (docs/product-rules.md "The sandbox marketplace
// and its figures"), as the API carries them. Tests of the server, the receipt and the console all
// hold the system to these same numbers.

export const NORTHWIND = 'northwind-apparel.myshopify.com'
export const LUMEN = 'lumen-botanicals.myshopify.com'

/** The Stripe connected accounts the brands are paid to, as the Stripe emulator seeds them. */
export const NORTHWIND_ACCOUNT = 'acct_sandbox_northwind_apparel'
export const LUMEN_ACCOUNT = 'acct_sandbox_lumen_botanicals'

/** Why order 1002 is refused: its brand, Ironpeak, has no default commission. */
export const NO_COMMISSION_1002 =
  'Commission not found: ironpeak outdoor has no default commission: set it on its store page'

/** The two brand transfers of order 1001, with the brand order ids once processed. */
export function order1001Brands(brandOrderIds: [string | null, string | null] = [null, null]) {
  // Its charge settled in dollars, the order's own currency: the same figures at a rate of 1.
  const inDollars = (amounts: ReturnType<typeof splitParts>) => ({
    ...amounts,
    settlement: { currency: 'USD', exchangeRate: '1', ...amounts },
  })
  return [
    {
      brandStoreShop: NORTHWIND,
      brandOrderId: brandOrderIds[0],
      ...inDollars(splitParts('102.00', '20.40', '13.60')),
    },
    {
      brandStoreShop: LUMEN,
      brandOrderId: brandOrderIds[1],
      ...inDollars(splitParts('24.84', '6.90', '2.76')),
    },
  ]
}

/** What order 1001's brand transfers move in all, in the currency its charge settled in. */
export const ORDER_1001_SETTLED = { currency: 'USD', totalBrandAmount: '126.84' }

export const ORDER_1001_TOTALS = {
  totalBrandAmount: '126.84',
  totalCreatorCommissionAmount: '27.30',
  totalTandemCommissionAmount: '16.36',
}

const usd = (amount: string) => ({ presentmentMoney: { amount, currencyCode: 'USD' } })

/** Jane Doe's address, where order 1001 and its brand orders ship. */
export const JANE_DOE_ADDRESS = {
  firstName: 'Jane',
  lastName: 'Doe',
  address1: '1 Main St',
  city: 'Portland',
  zip: '97201',
  country: 'US',
}

/** Order 1001 as the preview answers it, its images served from `serverUrl`. */
export function order1001CreatorOrder(serverUrl: string) {
  const image = (key: string) => ({ url: `${serverUrl}/images/products/${key}.svg` })
  return {
    id: 'gid://shopify/Order/1001',
    name: '#1001',
    email: 'jane@example.com',
    createdAt: '2026-11-02T15:04:00.000Z',
    creatorStoreShop: 'maya-makes.myshopify.com',
    currentSubtotalPriceSet: usd('175.50'),
    currentTotalTaxSet: usd('14.04'),
    currentShippingPriceSet: usd('8.00'),
    currentTotalPriceSet: usd('197.54'),
    shippingAddress: JANE_DOE_ADDRESS,
    lineItems: {
      nodes: [
        {
          id: 'gid://shopify/LineItem/10011',
          title: 'Linen Overshirt',
          quantity: 2,
          currentQuantity: 2,
          image: image('linen-overshirt'),
          originalUnitPriceSet: usd('68.00'),
          originalTotalSet: usd('136.00'),
          brandStoreShop: NORTHWIND,
        },
        {
          id: 'gid://shopify/LineItem/10012',
          title: 'Rosehip Face Oil',
          quantity: 1,
          currentQuantity: 1,
          image: image('rosehip-face-oil'),
          originalUnitPriceSet: usd('34.50'),
          originalTotalSet: usd('34.50'),
          brandStoreShop: LUMEN,
        },
        {
          id: 'gid://shopify/LineItem/10013',
          title: 'Sticker Pack',
          quantity: 1,
          currentQuantity: 1,
          image: image('sticker-pack'),
          originalUnitPriceSet: usd('5.00'),
          originalTotalSet: usd('5.00'),
          brandStoreShop: null,
        },
      ],
    },
  }
}

/** The whole preview of order 1001 before it is processed, its images served from `serverUrl`. */
export const order1001Preview = (serverUrl: string) => ({
  creatorOrder: order1001CreatorOrder(serverUrl),
  preview: {
    currency: 'USD',
    status: 'NOT_STARTED' as const,
    processedAt: null,
    brands: order1001Brands(),
    totals: ORDER_1001_TOTALS,
    settledTotals: ORDER_1001_SETTLED,
    moneyTrail: [],
    refundWaiting: null,
  },
})

const MAYA = 'maya-makes.myshopify.com'

/**
 * Order 1001's money trail once processed, its creator paid, and one of its two overshirts
 * refunded: Maya gave back 10.20 of her 27.30; Northwind's balance could not cover its 51.00,
 * which it owes.
 */
export const ORDER_1001_TRAIL = [
  {
    at: '2026-11-03T09:00:00.000Z',
    kind: 'TRANSFER' as const,
    party: 'BRAND' as const,
    storeShop: NORTHWIND,
    amount: '102.00',
    currency: 'USD',
    stripeId: 'tr_sandbox_1001_northwind',
  },
  {
    at: '2026-11-03T09:00:01.000Z',
    kind: 'TRANSFER' as const,
    party: 'BRAND' as const,
    storeShop: LUMEN,
    amount: '24.84',
    currency: 'USD',
    stripeId: 'tr_sandbox_1001_lumen',
  },
  {
    at: '2026-11-03T09:05:00.000Z',
    kind: 'TRANSFER' as const,
    party: 'CREATOR' as const,
    storeShop: MAYA,
    amount: '27.30',
    currency: 'USD',
    stripeId: 'tr_sandbox_1001_maya',
  },
  {
    at: '2026-11-04T14:20:00.000Z',
    kind: 'OWED' as const,
    party: 'BRAND' as const,
    storeShop: NORTHWIND,
    amount: '51.00',
    currency: 'USD',
    stripeId: 'tr_sandbox_1001_northwind',
  },
  {
    at: '2026-11-04T14:20:01.000Z',
    kind: 'REVERSAL' as const,
    party: 'CREATOR' as const,
    storeShop: MAYA,
    amount: '10.20',
    currency: 'USD',
    stripeId: 'trr_sandbox_1001_maya',
  },
]

/** A brand's base split three ways, as a refund split answers it. */
export const splitParts = (brandAmount: string, creator: string, tandem: string) => ({
  brandAmount,
  creatorCommissionAmount: creator,
  tandemCommissionAmount: tandem,
})

/** One overshirt of order 1001's two refunded: half of Northwind's part goes back; Lumen's stays. */
export const ONE_OVERSHIRT_SPLIT = {
  currency: 'USD',
  brands: [
    {
      brandStoreShop: NORTHWIND,
      refundedUnits: 1,
      back: splitParts('51.00', '10.20', '6.80'),
      kept: splitParts('51.00', '10.20', '6.80'),
    },
    {
      brandStoreShop: LUMEN,
      refundedUnits: 0,
      back: splitParts('0.00', '0.00', '0.00'),
      kept: splitParts('24.84', '6.90', '2.76'),
    },
  ],
  totals: {
    back: splitParts('51.00', '10.20', '6.80'),
    kept: splitParts('75.84', '17.10', '9.56'),
  },
}
