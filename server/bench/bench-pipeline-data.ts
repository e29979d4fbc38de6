import { setTimeout as sleep } from 'node:timers/promises'
import { startShopifyEmulator, type ShopifyEmulator } from '../../emulators/shopify/emulator'
import {
  startStripeEmulator,
  STRIPE_LIVE_RATE_LIMITS,
  type StripeEmulator,
} from '../../emulators/stripe/emulator'
import { connectShopify } from '../src/adapters/commerce/shopify/shopify'
import { webhookTopicsOf } from '../src/adapters/commerce/shopify/shopify-webhooks'
import { openDatabase, type Db } from '../src/db/connect'
import { insertAppConfig } from '../src/repositories/app-configs'
import { creatorOrderIndex } from '../src/repositories/creator-orders'
import { shopifyKeyAttempts } from '../src/repositories/shopify-key-attempts'
import { shopConnectionStore } from '../src/repositories/shop-connections'
import { writeTransferPolicy } from '../src/repositories/transfer-policy'
import { linkVariants, type VariantLink } from '../src/repositories/variant-links'
import { createSecretBox, type SecretBox } from '../src/secrets'
import { sandboxApp } from '../src/seed/sandbox-data'
import { copyBrandVariants } from './bench-data'
import { SHOPIFY_STANDARD } from './bench-limits'

// The pipeline benchmark's marketplace (bench-pipeline.ts): creator shops selling copies of brand
// products, each brand with its default commission, payout account and app, in the emulators at
// Shopify's standard cost limits and Stripe's live rate limits; the transfer policy AUTOMATIC with
// no hold. Every shop is connected, and subscribed to its webhooks at `webhookUrl`, before any
// server starts, as they would be long before a Black Friday; the orders are made during the run,
// each announced by the emulator as Shopify announces it.

export interface PipelineShape {
  creators: number
  brands: number
  /** The brands of the creator's catalogue its orders draw from. */
  brandsPerCreator: number
  brandsPerOrder: number
}

export interface PipelineMarketplace {
  shopify: ShopifyEmulator
  stripe: StripeEmulator
  creators: string[]
  brands: string[]
  /** The creator copies each creator sells of each of its brands. */
  copies: Map<string, Map<string, string[]>>
  close(): Promise<void>
}

/** Brand products each brand sells, one variant each; 100 in stock, enough for the run's orders. */
const VARIANTS_PER_BRAND = 8

const creatorShop = (n: number) => `pipeline-creator-${String(n).padStart(3, '0')}.myshopify.com`
const brandShop = (n: number) => `pipeline-brand-${String(n).padStart(3, '0')}.myshopify.com`
const brandAccount = (n: number) => `acct_pipeline_${n}`

/** The brands creator `c` sells: spread so that every brand is sold by as many creators. */
export const brandsOfCreator = (shape: PipelineShape, c: number): number[] =>
  Array.from({ length: shape.brandsPerCreator }, (_, j) => (c + j * 11) % shape.brands)

export async function preparePipelineMarketplace(options: {
  databaseUrl: string
  secretKey: Buffer
  shape: PipelineShape
  webhookUrl: string
}): Promise<PipelineMarketplace> {
  const { shape } = options
  const shopify = await startShopifyEmulator({
    imageBaseUrl: 'http://127.0.0.1',
    seed: false,
    throttle: SHOPIFY_STANDARD,
  })
  const stripe = await startStripeEmulator({ seed: false, rateLimits: STRIPE_LIVE_RATE_LIMITS })
  const close = async () => {
    await shopify.close()
    await stripe.close()
  }
  try {
    const creators = Array.from({ length: shape.creators }, (_, n) => creatorShop(n))
    const brands = Array.from({ length: shape.brands }, (_, n) => brandShop(n))
    for (const shop of [...creators, ...brands]) shopify.addShop(shop)
    brands.forEach((_, n) => stripe.addAccount({ id: brandAccount(n) }))
    const brandVariants = brands.map((brand) => shopify.addProducts(brand, VARIANTS_PER_BRAND))
    const copies = new Map<string, Map<string, string[]>>()
    const links: VariantLink[] = []
    creators.forEach((creator, c) => {
      const sold = new Map<string, string[]>()
      for (const b of brandsOfCreator(shape, c)) {
        const made = copyBrandVariants(shopify, creator, brands[b]!, brandVariants[b]!)
        links.push(...made)
        sold.set(
          brands[b]!,
          made.map((link) => link.creatorVariantId),
        )
      }
      copies.set(creator, sold)
    })

    const db = await openDatabase({ databaseUrl: options.databaseUrl })
    try {
      const secrets = createSecretBox(options.secretKey)
      const now = new Date().toISOString()
      // No sandbox: with stores in the database, no server loads it either.
      await addPipelineStores(db, secrets, { creators, brands, links }, now)
      await writeTransferPolicy(db, { mode: 'AUTOMATIC', holdMinutes: 0, automaticSince: now })
      await connectShops(db, secrets, shopify, { creators, brands }, options.webhookUrl)
    } finally {
      await db.destroy()
    }
    return { shopify, stripe, creators, brands, copies, close }
  } catch (error) {
    await close()
    throw error
  }
}

async function addPipelineStores(
  db: Db,
  secrets: SecretBox,
  shops: { creators: string[]; brands: string[]; links: VariantLink[] },
  now: string,
): Promise<void> {
  const store = (shop: string, shopType: 'CREATOR' | 'BRAND') => ({
    shop,
    shop_type: shopType,
    product_count: 0,
    products_synced_at: null,
    created_at: now,
  })
  await db
    .insertInto('stores')
    .values([
      ...shops.creators.map((shop) => store(shop, 'CREATOR')),
      ...shops.brands.map((shop) => store(shop, 'BRAND')),
    ])
    .execute()
  await db
    .insertInto('default_commissions')
    .values(
      shops.brands.map((shop, n) => ({
        brand_store_shop: shop,
        tandem_rate_hundredths: 500 + (n % 10) * 25,
        creator_rate_hundredths: 1000 + (n % 10) * 50,
        updated_at: now,
      })),
    )
    .execute()
  await db
    .insertInto('store_payment_accounts')
    .values(
      shops.brands.map((shop, n) => ({
        store_shop: shop,
        account_id: brandAccount(n),
        updated_at: now,
      })),
    )
    .execute()
  for (const shop of shops.creators) {
    await insertAppConfig(db, secrets, { shop, ...sandboxApp(shop), shopType: 'CREATOR' }, now)
  }
  for (const shop of shops.brands) {
    await insertAppConfig(db, secrets, { shop, ...sandboxApp(shop), shopType: 'BRAND' }, now)
  }
  await linkVariants(db, shops.links, now)
}

/**
 * Connects every shop through the server's own adapter, which subscribes it to its topics at
 * `webhookUrl` as a connection does (creators to orders/paid); answers once all are subscribed.
 */
async function connectShops(
  db: Db,
  secrets: SecretBox,
  shopify: ShopifyEmulator,
  shops: { creators: string[]; brands: string[] },
  webhookUrl: string,
): Promise<void> {
  const failures: string[] = []
  const adapter = connectShopify({
    connectionStore: shopConnectionStore(db, secrets),
    creatorOrders: creatorOrderIndex(db),
    keyAttempts: shopifyKeyAttempts(db),
    endpoint: shopify.url,
    publicUrl: webhookUrl,
    now: () => new Date(),
    log: (message) => failures.push(message),
  })
  const all = [...shops.creators, ...shops.brands]
  for (const shop of all) await adapter.connections.accessToken(shop)
  // The registration runs in the background of the connection: its last subscription made, it is
  // done (every topic of its type).
  const subscribed = (shop: string) =>
    shopify.webhookSubscriptions(shop).length ===
    webhookTopicsOf(shops.creators.includes(shop) ? 'CREATOR' : 'BRAND').length
  const deadline = Date.now() + 60_000
  while (!all.every(subscribed)) {
    if (failures.length > 0 || Date.now() > deadline) {
      throw new Error(`Shops not subscribed: ${failures.slice(0, 3).join('; ') || 'in time'}`)
    }
    await sleep(100)
  }
}
