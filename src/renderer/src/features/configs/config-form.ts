import { AppCredential, ShopDomain, type ShopType } from '@shared/contract'

export interface ConfigFormValues {
  shop: string
  clientId: string
  clientSecret: string
  shopType: ShopType
}

/** The typed fields of the form, each checked as the server checks it. */
export type ConfigField = 'shop' | 'clientId' | 'clientSecret'

/**
 * The add form, empty, on the shop type of the tab it was opened from: BRAND from the Brands tab,
 * the default tab (docs/product-rules.md "The console's screens"), CREATOR from the Creators tab.
 */
export const emptyConfigForm = (shopType: ShopType): ConfigFormValues => ({
  shop: '',
  clientId: '',
  clientSecret: '',
  shopType,
})

/**
 * The form's values trimmed (docs/product-rules.md "The console's screens"), the shop as the
 * domain the server will store when it reads as one (a store's URL, any case), or null while any
 * of them is empty once trimmed: a field holding only spaces is as missing as an empty one.
 */
export function completeConfig(values: ConfigFormValues): ConfigFormValues | null {
  const trimmed = {
    shop: ShopDomain.safeParse(values.shop).data ?? values.shop.trim(),
    clientId: values.clientId.trim(),
    clientSecret: values.clientSecret.trim(),
    shopType: values.shopType,
  }
  return trimmed.shop && trimmed.clientId && trimmed.clientSecret && trimmed.shopType
    ? trimmed
    : null
}

const FIELDS = [
  ['shop', 'Shop', ShopDomain],
  ['clientId', 'Client ID', AppCredential],
  ['clientSecret', 'Client Secret', AppCredential],
] as const

/**
 * Why each field cannot be sent, by the contract's own schemas, so that the form says it on the
 * field in the server's words ("Shop must look like name.myshopify.com"); null for a field that
 * is fine, or still empty: an empty field is for Create's disabled state and "Missing some fields"
 * to say.
 */
export function configFieldErrors(values: ConfigFormValues): Record<ConfigField, string | null> {
  const errors = { shop: null, clientId: null, clientSecret: null } as Record<
    ConfigField,
    string | null
  >
  for (const [field, label, schema] of FIELDS) {
    if (values[field].trim() === '') continue
    const result = schema.safeParse(values[field])
    if (!result.success) {
      errors[field] = `${label} ${result.error.issues.map((issue) => issue.message).join('; ')}`
    }
  }
  return errors
}
