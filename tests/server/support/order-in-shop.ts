import type { ShopifyEmulator } from '../../../emulators/shopify/emulator'
import { BRAND_PRODUCTS, creatorVariantId } from '../../../server/src/seed/sandbox-data'

// Tandem indexes an orders/paid body only for an order its shop's Shopify has: a test that signs
// one for an order of its own fixtures makes the order first, in that shop, under the same id.

/** A paid order of one unit of the creator's own product (no brand's), under `id`. */
export const orderInShop = (emulators: { shopify: ShopifyEmulator }, shop: string, id: number) =>
  emulators.shopify.createCustomerOrder(shop, {
    id,
    // The creator's own product comes after its copies of the brands' products.
    lines: [{ variantId: creatorVariantId(shop, BRAND_PRODUCTS.length), quantity: 1 }],
  })
