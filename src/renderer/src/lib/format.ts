import { storeName } from '@shared/contract/names'

// The one name of a store, shared with the server's sentences (from its own module: the
// contract's index would bring zod's schemas into the first bundle).
export { storeName }

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

/** What a cell, field or line shows for nothing (money keeps the specification's "-"). */
export const EMPTY = '—'

/**
 * A moment in the reader's locale and time zone, date and time, as every screen shows one; "—"
 * when it is missing or not a date.
 */
export function formatDateTime(value: string | null | undefined, locale?: string): string {
  const date = new Date(value ?? NaN)
  if (Number.isNaN(date.getTime())) return EMPTY
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/** A rule's words ("must look like acct_…") as a sentence of its own under a field. */
export const asSentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/** A Shopify enum value in words, as the console shows them: ON_HOLD → "On hold". */
export const enumWords = (value: string): string =>
  asSentence(value.toLowerCase().replaceAll('_', ' '))

/** The rules a value broke, as a contract schema words them, in one sentence under its field. */
export const brokenRules = (error: { issues: { message: string }[] }): string =>
  asSentence(error.issues.map((issue) => issue.message).join('; '))

/** A count with its noun: "1 brand", "2 brands". */
export const plural = (count: number, one: string, many: string): string =>
  `${new Intl.NumberFormat().format(count)} ${count === 1 ? one : many}`

/** A percentage (10 means 10 %) in the reader's locale: "10%", "12.5%". */
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 })
export const formatRate = (rate: number): string => percent.format(rate / 100)

/**
 * A long id cut to what tells it apart, so that it fits a cell on one line: a Shopify GID to its
 * type and number ("…/Order/1006"), a Stripe id to its prefix and last six characters
 * ("tr_…9xQ2aB"), anything else as it is. Shown with the whole id on hover (features/orders/IdText).
 */
export function shortId(id: string): string {
  const gid = /^gid:\/\/shopify\/([A-Za-z]+\/[^/]+)$/.exec(id)
  if (gid) return `…/${gid[1]}`
  const stripe = /^([a-z]+_)[A-Za-z0-9]{7,}$/.exec(id)
  return stripe ? `${stripe[1]}…${id.slice(-6)}` : id
}
