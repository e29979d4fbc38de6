import { GraphQLError } from 'graphql'

// Relay connections as Shopify serves them: opaque cursors, pageInfo computed from the whole list.
// A bulk operation reads every item of a connection, so `all` ignores the page arguments.

export interface PageArgs {
  first?: number | null
  last?: number | null
  after?: string | null
  before?: string | null
}

// Shopify's cursors are base64 JSON naming the last item seen; callers must treat them as opaque.
const cursorOf = (key: string | number) =>
  Buffer.from(JSON.stringify({ last_id: key })).toString('base64url')

function positionOf(cursor: string, keys: (string | number)[]): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      last_id?: unknown
    }
    const index = keys.findIndex((key) => key === parsed.last_id)
    if (index >= 0) return index
  } catch {
    // Not base64 JSON: answered below like any cursor that names nothing.
  }
  throw new GraphQLError('Invalid cursor for current pagination sort.')
}

export function connection<Item extends { id: string | number }, View>(
  items: Item[],
  args: PageArgs,
  view: (item: Item) => View,
  all = false,
) {
  let start = 0
  let end = items.length
  if (!all) {
    const keys = items.map((item) => item.id)
    if (args.after) start = positionOf(args.after, keys) + 1
    if (args.before) end = positionOf(args.before, keys)
    if (args.first != null) end = Math.min(end, start + args.first)
    if (args.last != null) start = Math.max(start, end - args.last)
  }
  const page = items.slice(start, Math.max(start, end))
  const nodes = page.map(view)
  const cursors = page.map((item) => cursorOf(item.id))
  return {
    nodes,
    edges: nodes.map((node, i) => ({ cursor: cursors[i], node })),
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
    },
  }
}
