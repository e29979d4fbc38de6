// The audit log's entries (docs/operations.md "Who gets in") in words a person reads: the action
// named, its target with stores by name, and one short line a detail, as the rest of the console
// words rates, counts and statuses.
import { PRODUCT_NAME } from '@shared/product'
import { formatDateTime, formatRate, plural, storeName } from '@renderer/lib/format'
import { TRANSFER_STATUS_LABELS } from '@renderer/features/orders/TransferStatusBadge'
import { JOB_KIND_LABELS } from '@renderer/features/jobs/job-text'
import { TRANSFER_MODE_LABELS } from '@renderer/features/orders/TransferPolicyTab'
import { listingStatusLabel } from '@renderer/features/store-detail/listing-words'

const ACTION_LABELS: Readonly<Record<string, string>> = {
  'commission.default.set': 'Default commission set',
  'commission.unique.create': 'Unique commission created',
  'commission.unique.delete': 'Unique commission deleted',
  'app-config.create': 'App config created',
  'app-config.delete': 'App config deleted',
  'payout-account.set': 'Payout account set',
  'products.sync': 'Products synced',
  'transfer.process': 'Transfer processed',
  'transfer.creator-commission': 'Creator commission paid',
  'transfer.reversal': 'Transfer reversed after a refund',
  'transfer.reversal-owed': 'Amount owed after a refund',
  'transfer.refund-beyond-units': 'Refund beyond the units charged to the creator',
  'order.brand-refund': 'Brand order refunded',
  'order.brand-cancel': 'Brand order cancelled',
  'transfer.accept-price-exception': 'Price exception accepted',
  'transfer.release-fraud-check': 'Order released despite a fraud risk',
  'privacy.data-request': 'Customer data requested',
  'privacy.customer-redact': 'Customer data erased',
  'privacy.shop-redact': 'Store data erased',
  'job.retry': 'Job retried',
  'transfer-policy.set': 'Transfer policy set',
  'order.hold': 'Order held',
  'order.release': 'Order released',
  'brand.pause': 'Brand paused',
  'brand.resume': 'Brand resumed',
}

/**
 * "Default commission set" for `commission.default.set`; an action not known here as it is. A
 * transfer's processing that failed part-way says so: it may still have done some of its steps.
 * A change to the catalogue reads as a sentence naming its product and stores (SENTENCES).
 */
export const actionLabel = (action: string, details: Fields = {}, target = ''): string => {
  if (action === 'transfer.process' && details.status === 'FAILED') return 'Transfer failed'
  // The server records a rate that replaced another as a create with the rate it replaced.
  if (action === 'commission.unique.create' && isFields(details.before))
    return 'Unique commission replaced'
  if (Object.hasOwn(SENTENCES, action)) return SENTENCES[action]!.sentence(details, target)
  return Object.hasOwn(ACTION_LABELS, action) ? (ACTION_LABELS[action] ?? action) : action
}

/**
 * What a change to a listing did, by the statuses it went from and to: "Paused the listing of Linen
 * Overshirt on maya makes". A change of price alone says so; its price is a detail line.
 */
function listingChange({ title, from, to }: Fields, target: string): string {
  const [product, store] = [detailValue(title), storeName(target)]
  const listing = `the listing of ${product} on ${store}`
  if (to === 'REMOVED') return `Removed ${listing}`
  if (from === 'ACTIVE' && to === 'PAUSED') return `Paused ${listing}`
  if (from === 'PAUSED' && to === 'ACTIVE') return `Resumed ${listing}`
  if (from === 'REMOVED' && to === 'ACTIVE') return `Listed ${product} again on ${store}`
  if (from === to) return `Repriced ${listing}`
  return `Set ${listing} from ${listingStatusLabel(String(from))} to ${listingStatusLabel(String(to))}`
}

/**
 * Actions read as a sentence rather than a label, with the details it says, which are then not
 * repeated under it.
 */
const SENTENCES: Readonly<
  Record<string, { sentence: (details: Fields, target: string) => string; says: string[] }>
> = {
  'catalog.list': {
    sentence: ({ brandStoreShop, titles }, target) =>
      `Listed ${plural(Array.isArray(titles) ? titles.length : 0, 'product', 'products')} of ${stores(brandStoreShop)} on ${storeName(target)}`,
    says: ['brandStoreShop'],
  },
  'catalog.set-listing': { sentence: listingChange, says: ['title', 'from', 'to'] },
  'catalog.stock-buffer': {
    sentence: ({ units }, target) =>
      `Set the stock buffer of ${storeName(target)} to ${line('units', units)}`,
    says: ['units'],
  },
  'shipping-policy.set': {
    sentence: ({ before, after }) =>
      `Set brand orders late after ${lateDays(after)} (was ${lateDays(before)})`,
    says: ['before', 'after'],
  },
}

const lateDays = (policy: unknown) =>
  isFields(policy) ? plural(Number(policy.lateAfterDays), 'day', 'days') : '?'

/** Actions on a creator order's money or its brands' orders: their target is the order's id. */
const isAboutAnOrder = (action: string) =>
  action.startsWith('transfer.') || action.startsWith('order.')

/**
 * Who made the change: the administrator; Shopify for its compliance requests (docs/privacy.md),
 * which no one signed in for; Tandem itself for what it did to an order automatically (transfers
 * that ran on their own, creators' commissions, what went back after a refund).
 */
export function actorText(entry: { action: string; actorEmail: string | null }): string {
  if (entry.actorEmail !== null) return entry.actorEmail
  if (entry.action.startsWith('privacy.')) return 'Shopify'
  return isAboutAnOrder(entry.action) ? `${PRODUCT_NAME} (automatic)` : 'Unknown user'
}

const SHOP_HOST = /\b[a-z0-9][a-z0-9-]*\.myshopify\.com\b/g

/**
 * What the action was done to: stores by name ("northwind apparel × maya makes"), a creator order
 * as "Order 1001".
 */
export const targetText = (action: string, target: string): string =>
  isAboutAnOrder(action) ? `Order ${target}` : target.replace(SHOP_HOST, storeName)

type Fields = Record<string, unknown>

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One value on a line: "none" for nothing, lists joined, anything else deeper as JSON. */
export function detailValue(value: unknown): string {
  if (value === null || value === undefined) return 'none'
  if (typeof value === 'string') return value === '' ? '""' : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map(detailValue).join(', ')
  return JSON.stringify(value)
}

const rate = (value: unknown) =>
  typeof value === 'number' ? formatRate(value) : detailValue(value)
const stores = (value: unknown) =>
  Array.isArray(value)
    ? value.map((shop) => storeName(String(shop))).join(', ')
    : typeof value === 'string'
      ? storeName(value)
      : detailValue(value)
/** A value's words when `labels` has them (a status, a job's kind), else the value as it is. */
const labelled = (labels: Readonly<Record<string, string>>) => (value: unknown) =>
  typeof value === 'string' && Object.hasOwn(labels, value) ? labels[value]! : detailValue(value)
const minutes = (value: unknown) =>
  typeof value === 'number' ? plural(value, 'minute', 'minutes') : detailValue(value)
const moment = (value: unknown) =>
  typeof value === 'string' ? formatDateTime(value) : detailValue(value)
/** A Shopify order's GID by its number, as the brand's Shopify admin shows it: "1006". */
const orderNumber = (value: unknown) =>
  typeof value === 'string' ? value.replace(/^gid:\/\/shopify\/Order\//, '') : detailValue(value)
const status = (value: unknown) =>
  value === 'FAILED' ? 'Failed' : labelled(TRANSFER_STATUS_LABELS)(value)

/**
 * A price exception's lines, each by its title: "Rosehip Face Oil sold at 34.50 USD a unit, below
 * the brand's 36.00 USD". A line recorded before titles were is named by its number.
 */
const priceLines = (value: unknown) =>
  Array.isArray(value) && value.every(isFields)
    ? value
        .map(({ title, lineItemId, price, brandPrice }) => {
          const name =
            typeof title === 'string'
              ? title
              : `line ${detailValue(lineItemId).replace(/^gid:\/\/shopify\/LineItem\//, '')}`
          return `${name} sold at ${detailValue(price)} a unit, below the brand's ${detailValue(brandPrice)}`
        })
        .join('; ')
    : detailValue(value)

/** Rows per table, as the compliance requests count them: "creatorOrders 2, orderBodies 1". */
const counts = (value: unknown) =>
  isFields(value)
    ? Object.entries(value)
        .map(([key, count]) => `${key} ${detailValue(count)}`)
        .join(', ') || 'nothing'
    : detailValue(value)

/** The details the server records, by their key: a label, and how their value reads. */
const FIELD_WORDS: Readonly<Record<string, { label: string; value?: (value: unknown) => string }>> =
  {
    tandemCommissionRate: { label: 'Tandem rate', value: rate },
    creatorCommissionRate: { label: 'Creator rate', value: rate },
    commissionRate: { label: 'Rate', value: rate },
    accountId: { label: 'Payout account' },
    shopType: { label: 'Store type' },
    clientId: { label: 'Client ID' },
    status: { label: 'Status', value: status },
    message: { label: 'Why:' },
    reason: { label: 'Reason:' },
    owedNothing: { label: 'Owed nothing:', value: stores },
    dataRequestId: { label: 'Request' },
    orders: { label: 'Orders:' },
    erased: { label: 'Erased:', value: counts },
    anonymised: { label: 'Renamed:', value: counts },
    job: { label: 'Job:', value: labelled(JOB_KIND_LABELS) },
    mode: { label: 'Mode', value: labelled(TRANSFER_MODE_LABELS) },
    holdMinutes: { label: 'Hold', value: minutes },
    automaticSince: { label: 'Automatic since', value: moment },
    creatorShop: { label: 'Creator', value: stores },
    brandShop: { label: 'Brand', value: stores },
    brandStoreShop: { label: 'Brand', value: stores },
    titles: { label: 'Products:' },
    lines: { label: 'Accepted:', value: priceLines },
    price: {
      label: 'Price',
      value: (value) => (value === null ? "the brand's" : detailValue(value)),
    },
    amount: { label: 'Amount' },
    transferId: { label: 'Stripe transfer' },
    reversalId: { label: 'Stripe reversal' },
    brandOrderId: { label: 'Brand order', value: orderNumber },
  }

/** Details that are counts, read as "2 brand orders". */
const COUNT_NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  brandOrders: ['brand order', 'brand orders'],
  productCount: ['product', 'products'],
  lines: ['line', 'lines'],
  orders: ['order', 'orders'],
  attempts: ['failed run', 'failed runs'],
  units: ['unit', 'units'],
}

const wordsOf = (key: string) => (Object.hasOwn(FIELD_WORDS, key) ? FIELD_WORDS[key] : undefined)
const shown = (key: string, value: unknown) => (wordsOf(key)?.value ?? detailValue)(value)
const labelOf = (key: string) => wordsOf(key)?.label ?? `${key}:`

/** One detail on its line: "Tandem rate 8%", "2 brand orders", "Reason: …", "other: value". */
function line(key: string, value: unknown): string {
  if (typeof value === 'number' && Object.hasOwn(COUNT_NOUNS, key)) {
    const [one, many] = COUNT_NOUNS[key]!
    return plural(value, one, many)
  }
  return `${labelOf(key)} ${shown(key, value)}`
}

/**
 * A party and its store, as a reversal's details name them (`party` BRAND, `storeShop`), on one
 * line as a creator's commission names its creator: "Brand northwind apparel".
 */
function partyByName(details: Fields): Fields {
  const { party, storeShop, ...rest } = details
  if (typeof party !== 'string' || typeof storeShop !== 'string') return details
  return { [party === 'CREATOR' ? 'creatorShop' : 'brandShop']: storeShop, ...rest }
}

/**
 * What changed, one line a field. A change written as `{ before, after }` (either side null for a
 * thing created or removed) reads "Creator rate 15% → 17.5%" for each field that changed and
 * "Tandem rate 10%" for one that did not; anything else reads a line a detail ("5 products"),
 * but for what the action's sentence says already.
 */
export function detailLines(allDetails: Fields, action = ''): string[] {
  const said = Object.hasOwn(SENTENCES, action) ? SENTENCES[action]!.says : []
  const details = Object.fromEntries(
    Object.entries(allDetails).filter(([key]) => !said.includes(key)),
  )
  const { before, after, ...rest } = details
  const isChange =
    'before' in details &&
    'after' in details &&
    (isFields(before) || before === null) &&
    (isFields(after) || after === null)
  if (!isChange) return Object.entries(partyByName(details)).map(([key, value]) => line(key, value))

  const from = isFields(before) ? before : {}
  const to = isFields(after) ? after : {}
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])]
  return [
    ...keys.map((key) => {
      const [was, now] = [shown(key, from[key]), shown(key, to[key])]
      return was === now ? line(key, to[key]) : `${labelOf(key)} ${was} → ${now}`
    }),
    ...Object.entries(rest).map(([key, value]) => line(key, value)),
  ]
}
