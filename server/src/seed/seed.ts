import type { Db } from '../db/connect'
import { insertAppConfig } from '../repositories/app-configs'
import { upsertDefaultRates, upsertUniqueRate } from '../repositories/commissions'
import type { SecretBox } from '../secrets'
import { linkVariants } from '../repositories/variant-links'
import {
  BRAND_PRODUCTS,
  PAYOUT_ACCOUNTS,
  sandboxApp,
  STORES,
  UNIQUE_RATES,
  VARIANT_LINKS,
} from './sandbox-data'

/** Brands have their own products; a creator has a copy of every brand's, plus its own. */
const productCount = (store: (typeof STORES)[number]) =>
  store.shopType === 'BRAND'
    ? BRAND_PRODUCTS.filter((product) => product.brand === store.shop).length
    : BRAND_PRODUCTS.length + 1

/**
 * Loads the sandbox marketplace (docs/product-rules.md) into an empty database (stores, rates, app
 * configs, payout accounts, the creators' copies of brand variants; the stores' products and orders
 * are the Shopify emulator's, the accounts themselves the Stripe emulator's); does nothing
 * otherwise, and answers whether it loaded it.
 */
export async function seedSandboxMarketplace(
  db: Db,
  deps: { secrets: SecretBox; now: Date },
): Promise<boolean> {
  const existing = await db.selectFrom('stores').select('shop').limit(1).executeTakeFirst()
  if (existing) return false
  const createdAt = deps.now.toISOString()

  return db.transaction().execute(async (trx) => {
    // Two processes starting at once on an empty database: the second's stores conflict with
    // the first's (PostgreSQL makes it wait for the first to commit), and it seeds nothing.
    const inserted = await trx
      .insertInto('stores')
      .values(
        STORES.map((store) => ({
          shop: store.shop,
          shop_type: store.shopType,
          product_count: productCount(store),
          products_synced_at: null,
          created_at: createdAt,
        })),
      )
      .onConflict((conflict) => conflict.column('shop').doNothing())
      .executeTakeFirst()
    if (inserted.numInsertedOrUpdatedRows === 0n) return false
    // Rates and app configs go through their repositories, which own the stored forms.
    for (const store of STORES) {
      if (!store.defaultRates) continue
      const commission = {
        brandStoreShop: store.shop,
        tandemCommissionRate: store.defaultRates.tandem,
        creatorCommissionRate: store.defaultRates.creator,
      }
      await upsertDefaultRates(trx, commission, createdAt)
    }
    for (const rate of UNIQUE_RATES) {
      const uniqueRate = {
        brandStoreShop: rate.brand,
        creatorStoreShop: rate.creator,
        commissionRate: rate.rate,
      }
      await upsertUniqueRate(trx, uniqueRate, createdAt)
    }
    for (const store of STORES) {
      const config = { shop: store.shop, ...sandboxApp(store.shop), shopType: store.shopType }
      await insertAppConfig(trx, deps.secrets, config, createdAt)
    }
    await trx
      .insertInto('store_payment_accounts')
      .values(
        PAYOUT_ACCOUNTS.map((payout) => ({
          store_shop: payout.shop,
          account_id: payout.accountId,
          updated_at: createdAt,
        })),
      )
      .execute()
    await linkVariants(trx, VARIANT_LINKS, createdAt)
    return true
  })
}
