/**
 * A store's name as people say it (docs/product-rules.md "Names"): the first label of its host with
 * hyphens as spaces, so 'maya-makes.myshopify.com' reads 'maya makes'.
 */
export const storeName = (shop: string): string => shop.replace(/\..*$/s, '').replaceAll('-', ' ')

/** A store as a dropdown option: chosen by its shop, shown by its name. */
export const storeOption = ({ shop }: { shop: string }) => ({ value: shop, label: storeName(shop) })

/** A decimal amount as the API writes money ("102.00", "-2.7", "1200"); NaN for anything else. */
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/
const readDecimal = (text: string) => (DECIMAL.test(text.trim()) ? Number(text) : NaN)

/**
 * An amount as money in `currency` (docs/product-rules.md "Money and commission rules"): a number
 * or a decimal string through Intl in the reader's locale, with the currency's own decimals (none
 * for JPY); "-" for a missing value or one that is not a number. An unknown currency code still
 * shows the amount, with the code.
 */
export function formatMoney(
  value: string | number | null | undefined,
  currency: string,
  locale?: string,
): string {
  const amount = typeof value === 'string' ? readDecimal(value) : (value ?? NaN)
  if (!Number.isFinite(amount)) return '-'
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount)
  } catch {
    return `${new Intl.NumberFormat(locale).format(amount)} ${currency}`
  }
}

/** A moment in the reader's locale, date and time; "-" when it is missing or not a date. */
export function formatDateTime(value: string | null | undefined, locale?: string): string {
  const date = new Date(value ?? NaN)
  if (Number.isNaN(date.getTime())) return '-'
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}
