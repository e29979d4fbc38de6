import type { Db } from '../db/connect'
import { insertAppConfig } from '../repositories/app-configs'
import { upsertDefaultRates, upsertUniqueRate } from '../repositories/commissions'
import type { SecretBox } from '../secrets'
import {
  BRAND_PRODUCTS,
  CREATOR_OWN_PRODUCT,
  ORDERS,
  STORES,
  UNIQUE_RATES,
  type SeedProduct,
} from './sandbox-data'

const CREATORS = STORES.filter((store) => store.shopType === 'CREATOR').map((store) => store.shop)

const storeName = (shop: string) => shop.replace('.myshopify.com', '')
const productGid = (n: number) => `gid://shopify/Product/${n}`
const variantGid = (n: number) => `gid://shopify/ProductVariant/${n}`

/** Brand products are 101…, their variants 201…; creator c's copies 301…/401…, 501…/601…. */
function catalogue(publicUrl: string) {
  const image = (key: string) => `${publicUrl}/images/products/${key}.svg`
  const brand = BRAND_PRODUCTS.map((product, i) => ({
    ...product,
    store: product.brand,
    productId: productGid(101 + i),
    variantId: variantGid(201 + i),
    source: null as string | null,
    image: image(product.key),
  }))
  const copies = CREATORS.flatMap((creator, c) => {
    const own: SeedProduct = { ...CREATOR_OWN_PRODUCT, brand: creator }
    return [...BRAND_PRODUCTS, own].map((product, i) => ({
      ...product,
      store: creator,
      productId: productGid((3 + 2 * c) * 100 + 1 + i),
      variantId: variantGid((4 + 2 * c) * 100 + 1 + i),
      source: product === own ? null : variantGid(201 + i),
      image: image(product.key),
    }))
  })
  return [...brand, ...copies]
}

/** Loads PRODUCT.md's sandbox marketplace into an empty database; does nothing otherwise. */
export async function seedSandboxMarketplace(
  db: Db,
  deps: { secrets: SecretBox; publicUrl: string; now: Date },
): Promise<boolean> {
  const existing = await db.selectFrom('stores').select('shop').limit(1).executeTakeFirst()
  if (existing) return false
  const createdAt = deps.now.toISOString()
  const products = catalogue(deps.publicUrl)

  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('stores')
      .values(
        STORES.map((store) => ({
          shop: store.shop,
          shop_type: store.shopType,
          product_count: products.filter((p) => p.store === store.shop).length,
          products_synced_at: null,
          created_at: createdAt,
        })),
      )
      .execute()
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
      const config = {
        shop: store.shop,
        clientId: `sandbox-${storeName(store.shop)}`,
        clientSecret: `shpss_sandbox_${storeName(store.shop).replaceAll('-', '_')}`,
        shopType: store.shopType,
      }
      await insertAppConfig(trx, deps.secrets, config, createdAt)
    }
    await trx
      .insertInto('payment_accounts')
      .values(
        STORES.filter((store) => store.shopType === 'BRAND').map((store) => ({
          store_shop: store.shop,
          account_id: `acct_sandbox_${storeName(store.shop).replaceAll('-', '_')}`,
          email: `payouts@${storeName(store.shop)}.example`,
        })),
      )
      .execute()

    await trx
      .insertInto('commerce_products')
      .values(
        products.map((p) => ({
          id: p.productId,
          store_shop: p.store,
          title: p.title,
          status: 'ACTIVE' as const,
          image_url: p.image,
        })),
      )
      .execute()
    await trx
      .insertInto('commerce_variants')
      .values(
        products.map((p) => ({
          id: p.variantId,
          product_id: p.productId,
          store_shop: p.store,
          price_minor: p.priceMinor,
          currency: 'USD',
          inventory_quantity: 100,
          source_variant_id: p.source,
        })),
      )
      .execute()

    for (const order of ORDERS) {
      const lines = order.lines.map((line, position) => {
        const product = products.find((p) => p.store === order.store && p.key === line.product)
        if (!product)
          throw new Error(`Seed order ${order.id} names unknown product ${line.product}`)
        return {
          id: `gid://shopify/LineItem/${order.id}${position + 1}`,
          order_id: order.id,
          position,
          variant_id: product.variantId,
          title: product.title,
          quantity: line.quantity,
          unit_price_minor: line.unitPriceMinor ?? product.priceMinor,
          discount_minor: 0,
          image_url: product.image,
        }
      })
      const subtotal = lines.reduce((sum, line) => sum + line.quantity * line.unit_price_minor, 0)
      const { customer } = order
      await trx
        .insertInto('commerce_orders')
        .values({
          id: order.id,
          store_shop: order.store,
          name: `#${order.id}`,
          email: customer.email,
          currency: order.currency,
          created_at: order.createdAt,
          subtotal_minor: subtotal,
          tax_minor: order.taxMinor,
          shipping_minor: order.shippingMinor,
          total_minor: subtotal + order.taxMinor + order.shippingMinor,
          shipping_address: JSON.stringify({
            firstName: customer.firstName,
            lastName: customer.lastName,
            address1: customer.address1,
            city: customer.city,
            zip: customer.zip,
            country: customer.country,
          }),
          tags: '',
          note: null,
          paid: 1,
        })
        .execute()
      await trx.insertInto('commerce_order_lines').values(lines).execute()
    }
  })
  return true
}
