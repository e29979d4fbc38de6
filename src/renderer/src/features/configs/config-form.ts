import type { ShopType } from '@shared/contract'

export interface ConfigFormValues {
  shop: string
  clientId: string
  clientSecret: string
  shopType: ShopType
}

/** The add form starts on BRAND (docs/product-rules.md "The console's screens"). */
export const EMPTY_CONFIG_FORM: ConfigFormValues = {
  shop: '',
  clientId: '',
  clientSecret: '',
  shopType: 'BRAND',
}

/**
 * The form's values trimmed (docs/product-rules.md "The console's screens"), or null while any of them is empty once trimmed: a field
 * holding only spaces is as missing as an empty one.
 */
export function completeConfig(values: ConfigFormValues): ConfigFormValues | null {
  const trimmed = {
    shop: values.shop.trim(),
    clientId: values.clientId.trim(),
    clientSecret: values.clientSecret.trim(),
    shopType: values.shopType,
  }
  return trimmed.shop && trimmed.clientId && trimmed.clientSecret && trimmed.shopType
    ? trimmed
    : null
}
