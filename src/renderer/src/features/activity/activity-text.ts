// The audit log's entries (docs/operations.md "Who gets in") in words a person reads.

const ACTION_LABELS: Readonly<Record<string, string>> = {
  'commission.default.set': 'Default commission set',
  'commission.unique.create': 'Unique commission created',
  'commission.unique.delete': 'Unique commission deleted',
  'app-config.create': 'App config created',
  'app-config.delete': 'App config deleted',
  'payout-account.set': 'Payout account set',
  'products.sync': 'Products synced',
  'transfer.process': 'Transfer processed',
}

/**
 * "Default commission set" for `commission.default.set`; an action not known here as it is. A
 * transfer's processing that failed part-way says so: it may still have done some of its steps.
 */
export const actionLabel = (action: string, details: Record<string, unknown> = {}): string => {
  if (action === 'transfer.process' && details.status === 'FAILED') return 'Transfer failed'
  return Object.hasOwn(ACTION_LABELS, action) ? (ACTION_LABELS[action] ?? action) : action
}

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

const same = (a: unknown, b: unknown) => detailValue(a) === detailValue(b)

/**
 * What changed, one line a field. A change written as `{ before, after }` (either side null for a
 * thing created or removed) reads "creatorCommissionRate: 15 → 17.5" for each field that changed
 * and "tandemCommissionRate: 10" for one that did not; anything else reads "productCount: 5".
 */
export function detailLines(details: Fields): string[] {
  const { before, after, ...rest } = details
  const isChange =
    'before' in details &&
    'after' in details &&
    (isFields(before) || before === null) &&
    (isFields(after) || after === null)
  if (!isChange) return Object.entries(details).map(([key, value]) => line(key, value))

  const from = isFields(before) ? before : {}
  const to = isFields(after) ? after : {}
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])]
  return [
    ...keys.map((key) =>
      same(from[key], to[key])
        ? line(key, to[key])
        : `${key}: ${detailValue(from[key])} → ${detailValue(to[key])}`,
    ),
    ...Object.entries(rest).map(([key, value]) => line(key, value)),
  ]
}

const line = (key: string, value: unknown) => `${key}: ${detailValue(value)}`
