import type { ShopType } from '@shared/contract'

// The sandbox marketplace (docs/product-rules.md "The sandbox marketplace and its figures"), figure
// for figure. Tests and demos rely on every number here. Prices are minor units of the order's
// currency.

interface SeedStore {
  shop: string
  shopType: ShopType
  /** Tandem and creator rates, in percent, for brands that have a default. */
  defaultRates?: { tandem: number; creator: number }
}

export const STORES: SeedStore[] = [
  {
    shop: 'northwind-apparel.myshopify.com',
    shopType: 'BRAND',
    defaultRates: { tandem: 10, creator: 15 },
  },
  {
    shop: 'lumen-botanicals.myshopify.com',
    shopType: 'BRAND',
    defaultRates: { tandem: 8, creator: 12 },
  },
  { shop: 'ironpeak-outdoor.myshopify.com', shopType: 'BRAND' },
  { shop: 'maya-makes.myshopify.com', shopType: 'CREATOR' },
  { shop: 'urban-trail-edits.myshopify.com', shopType: 'CREATOR' },
]

export const UNIQUE_RATES = [
  { brand: 'lumen-botanicals.myshopify.com', creator: 'maya-makes.myshopify.com', rate: 20 },
]

export interface SeedProduct {
  key: string
  brand: string
  title: string
  priceMinor: number
}

export const BRAND_PRODUCTS: SeedProduct[] = [
  {
    key: 'linen-overshirt',
    brand: 'northwind-apparel.myshopify.com',
    title: 'Linen Overshirt',
    priceMinor: 6800,
  },
  {
    key: 'merino-crew-socks',
    brand: 'northwind-apparel.myshopify.com',
    title: 'Merino Crew Socks',
    priceMinor: 1800,
  },
  {
    key: 'rosehip-face-oil',
    brand: 'lumen-botanicals.myshopify.com',
    title: 'Rosehip Face Oil',
    priceMinor: 3450,
  },
  {
    key: 'cedar-soap-bar',
    brand: 'lumen-botanicals.myshopify.com',
    title: 'Cedar Soap Bar',
    priceMinor: 925,
  },
  {
    key: 'trail-headlamp',
    brand: 'ironpeak-outdoor.myshopify.com',
    title: 'Trail Headlamp',
    priceMinor: 4200,
  },
]

/** Every creator store carries copies of all brand products plus its own sticker pack. */
export const CREATOR_OWN_PRODUCT = { key: 'sticker-pack', title: 'Sticker Pack', priceMinor: 500 }

const CREATORS = STORES.filter((store) => store.shopType === 'CREATOR').map((store) => store.shop)

/**
 * The variant ids the sandbox's stores hold: brand product i's variant is 201 + i; creator c's
 * copies of the brand products, then its own, are (4 + 2c)01 onwards. The Shopify emulator seeds
 * these ids, and the server's seed links each copy to its original.
 */
export const brandVariantId = (product: number) => `gid://shopify/ProductVariant/${201 + product}`
export const creatorVariantId = (creator: string, product: number) =>
  `gid://shopify/ProductVariant/${(4 + 2 * CREATORS.indexOf(creator)) * 100 + 1 + product}`

/** Each creator's copy of each brand product, as Tandem records it when a creator lists one. */
export const VARIANT_LINKS = CREATORS.flatMap((creator) =>
  BRAND_PRODUCTS.map((product, i) => ({
    creatorStoreShop: creator,
    creatorVariantId: creatorVariantId(creator, i),
    brandStoreShop: product.brand,
    brandVariantId: brandVariantId(i),
  })),
)

interface SeedOrder {
  id: number
  store: string
  currency: string
  createdAt: string
  /** Product key and quantity; the unit price is the product's unless the order says otherwise. */
  lines: { product: string; quantity: number; unitPriceMinor?: number }[]
  taxMinor: number
  shippingMinor: number
  customer: {
    firstName: string
    lastName: string
    email: string
    address1: string
    city: string
    zip: string
    country: string
  }
}

export const ORDERS: SeedOrder[] = [
  {
    id: 1001,
    store: 'maya-makes.myshopify.com',
    currency: 'USD',
    createdAt: '2026-11-02T15:04:00.000Z',
    lines: [
      { product: 'linen-overshirt', quantity: 2 },
      { product: 'rosehip-face-oil', quantity: 1 },
      { product: 'sticker-pack', quantity: 1 },
    ],
    taxMinor: 1404,
    shippingMinor: 800,
    customer: {
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      address1: '1 Main St',
      city: 'Portland',
      zip: '97201',
      country: 'US',
    },
  },
  {
    id: 1002,
    store: 'urban-trail-edits.myshopify.com',
    currency: 'USD',
    createdAt: '2026-11-03T09:30:00.000Z',
    lines: [{ product: 'trail-headlamp', quantity: 1 }],
    taxMinor: 336,
    shippingMinor: 600,
    customer: {
      firstName: 'Sam',
      lastName: 'Lee',
      email: 'sam@example.com',
      address1: '22 Pine Ave',
      city: 'Denver',
      zip: '80202',
      country: 'US',
    },
  },
  {
    id: 1003,
    store: 'maya-makes.myshopify.com',
    currency: 'USD',
    createdAt: '2026-11-04T18:12:00.000Z',
    lines: [{ product: 'sticker-pack', quantity: 2 }],
    taxMinor: 80,
    shippingMinor: 300,
    customer: {
      firstName: 'Ana',
      lastName: 'Ruiz',
      email: 'ana@example.com',
      address1: '5 Oak Rd',
      city: 'Austin',
      zip: '73301',
      country: 'US',
    },
  },
  {
    id: 1004,
    store: 'urban-trail-edits.myshopify.com',
    currency: 'USD',
    createdAt: '2026-11-05T11:45:00.000Z',
    lines: [
      { product: 'cedar-soap-bar', quantity: 3 },
      { product: 'merino-crew-socks', quantity: 1 },
    ],
    taxMinor: 366,
    shippingMinor: 500,
    customer: {
      firstName: 'Kai',
      lastName: 'Chen',
      email: 'kai@example.com',
      address1: '9 Elm St',
      city: 'Seattle',
      zip: '98101',
      country: 'US',
    },
  },
  {
    id: 1005,
    store: 'maya-makes.myshopify.com',
    currency: 'EUR',
    createdAt: '2026-11-06T08:20:00.000Z',
    lines: [{ product: 'linen-overshirt', quantity: 1, unitPriceMinor: 6200 }],
    taxMinor: 1178,
    shippingMinor: 700,
    customer: {
      firstName: 'Lena',
      lastName: 'Vogel',
      email: 'lena@example.com',
      address1: 'Hauptstraße 1',
      city: 'Berlin',
      zip: '10115',
      country: 'DE',
    },
  },
]

/** The store's name: its shop domain without .myshopify.com. */
export const storeName = (shop: string) => shop.replace('.myshopify.com', '')

/**
 * The Shopify app each sandbox store has installed: the server's seed keeps these as the store's
 * app config, and the Shopify emulator grants tokens to exactly these.
 */
export function sandboxApp(shop: string): { clientId: string; clientSecret: string } {
  const name = storeName(shop)
  return { clientId: `sandbox-${name}`, clientSecret: `shpss_sandbox_${name.replaceAll('-', '_')}` }
}

/** A sandbox store's Stripe connected account, as the Stripe emulator holds it (email set). */
const stripeAccountOf = (store: SeedStore) => ({
  shop: store.shop,
  accountId: `acct_sandbox_${storeName(store.shop).replaceAll('-', '_')}`,
  email: `payouts@${storeName(store.shop)}.example`,
})

/**
 * The Stripe connected account each sandbox brand is paid to: the server's seed sets these as the
 * brands' payout accounts, and the Stripe emulator holds them (email set, transfers active).
 */
export const PAYOUT_ACCOUNTS = STORES.filter((store) => store.shopType === 'BRAND').map(
  stripeAccountOf,
)

/**
 * The creators' Stripe connected accounts: the Stripe emulator holds them, but Tandem does not
 * know them until an administrator sets one on the creator's store page (README's first hour), so
 * that the sandbox shows a commission owed before it shows one paid.
 */
export const CREATOR_STRIPE_ACCOUNTS = STORES.filter((store) => store.shopType === 'CREATOR').map(
  stripeAccountOf,
)

/**
 * The creator orders whose customer paid through Stripe. Each carries its PaymentIntent's id in
 * the order metafield `tandem.payment_intent`; the Stripe emulator holds that PaymentIntent,
 * succeeded, for the order's total, with its charge.
 */
export const STRIPE_PAID_ORDERS = [1001, 1002, 1004, 1005]
export const paymentIntentOf = (orderId: number) => `pi_sandbox_order_${orderId}`
export const chargeOf = (orderId: number) => `ch_sandbox_order_${orderId}`

/** An order's total in minor units: its lines at their unit prices, tax and shipping. */
export function orderTotalMinor(order: SeedOrder): number {
  const priceOf = (key: string) =>
    [...BRAND_PRODUCTS, CREATOR_OWN_PRODUCT].find((product) => product.key === key)?.priceMinor
  const lines = order.lines.reduce((sum, line) => {
    const unit = line.unitPriceMinor ?? priceOf(line.product)
    if (unit === undefined)
      throw new Error(`Seed order ${order.id} names unknown product ${line.product}`)
    return sum + unit * line.quantity
  }, 0)
  return lines + order.taxMinor + order.shippingMinor
}
