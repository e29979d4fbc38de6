import type { ProductRefused } from '../adapters/commerce/catalog-port'

// Why Shopify would not take a listed product, in an administrator's words: what is wrong and
// what to do. Codes are Shopify's ProductSetUserErrorCode and InventorySetQuantitiesUserErrorCode,
// and Tandem's own for what it refuses before asking (a currency mismatch, too many variants); any
// other is told in Shopify's words.

const IN_WORDS: Record<string, (message: string) => string> = {
  CURRENCY_MISMATCH: (message) =>
    `${message}: list it only on a creator store selling in the brand's currency`,
  TOO_MANY_VARIANTS: (message) =>
    `${message}: Tandem lists at most that many; split the product in the brand's store`,
  HANDLE_NOT_UNIQUE: () =>
    "The creator's store has another product at this listing's web address: remove or rename it there, then list the product again",
  PRODUCT_DOES_NOT_EXIST: () =>
    "The creator's store no longer has the listed product (deleted in its Shopify admin): remove the listing and list the product again",
  PRODUCT_VARIANT_DOES_NOT_EXIST: () =>
    "The creator's store no longer has a variant of the listed product (deleted in its Shopify admin): remove the listing and list the product again",
  OPTIONS_OVER_LIMIT: () => "The brand's product has more options than a Shopify product may have",
  VARIANTS_OVER_LIMIT: () =>
    "The brand's product has more variants than a Shopify product may have",
  PRODUCT_NOT_TANDEMS: () =>
    "The creator's store gave this listing's web address to a product Tandem did not make: nothing was linked to the brand's; remove the listing and list the product again",
  VARIANTS_UNMATCHED: (message) =>
    `${message}: nothing was linked to the brand's; remove the listing and list the product again`,
  INVALID_VARIANT: (message) => `Shopify refused a variant of the product: ${message}`,
  INVALID_PRODUCT: (message) => `Shopify refused the product: ${message}`,
  NON_MUTABLE_INVENTORY_ITEM: () =>
    "The creator's store made a variant of the listed product one whose stock Shopify lets no app set (a bundle of other products, say): its stock was not set; undo that in its Shopify admin and the stock is set again",
  NOT_FOUND: () =>
    "The creator's store no longer has the location its stock was kept at: remove the listing and list the product again",
}

export function refusalInWords(error: ProductRefused): string {
  return error.refusals
    .map(({ code, message }) => {
      const words = code ? IN_WORDS[code] : undefined
      return words ? words(message) : `Shopify refused the product: ${message}`
    })
    .join('; ')
}
