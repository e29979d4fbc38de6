import { integerParam, invalidParam, ok, type Answer } from './http'

// Stripe's list endpoints (https://docs.stripe.com/api/pagination): newest first, `limit` 1..100
// (10 when absent), and a cursor, `starting_after` or `ending_before`, naming an object of the
// whole list, whether or not it matches the list's filters.

export interface ListOptions<Item> {
  /** The list's `url`, as Stripe answers it. */
  url: string
  /** The listed objects' name, for the refusal of an unknown cursor ("No such transfer: …"). */
  object: string
  view: (item: Item) => unknown
  /** The list's filters; every item when absent. */
  matches?: (item: Item) => boolean
  /** The newest `lagging` of the items the filters match are left out: not listed yet. */
  lagging?: number
}

export function listPage<Item extends { id: string }>(
  query: URLSearchParams,
  newestFirst: Item[],
  options: ListOptions<Item>,
): Answer {
  const limit = integerParam('limit', query.get('limit') ?? '10', 1, 100)
  if (typeof limit !== 'number') return limit
  const startingAfter = query.get('starting_after')
  const endingBefore = query.get('ending_before')
  if (startingAfter && endingBefore) {
    const message = 'You may only specify one of these parameters: ending_before, starting_after.'
    return invalidParam('ending_before', message)
  }

  // An item's place in the whole list, so that a cursor need not match the filters itself.
  let matching = newestFirst
    .map((item, position) => ({ item, position }))
    .filter(({ item }) => options.matches?.(item) ?? true)
    .slice(options.lagging ?? 0)
  const cursorParam = startingAfter ? 'starting_after' : 'ending_before'
  const cursorId = startingAfter ?? endingBefore
  if (cursorId) {
    const cursor = newestFirst.findIndex((item) => item.id === cursorId)
    if (cursor < 0) {
      const message = `No such ${options.object}: '${cursorId}'`
      return invalidParam(cursorParam, message, 'resource_missing')
    }
    matching = matching.filter(({ position }) =>
      startingAfter ? position > cursor : position < cursor,
    )
  }
  // ending_before pages towards newer items: the page is the one just before the cursor.
  const page = endingBefore ? matching.slice(-limit) : matching.slice(0, limit)
  return ok({
    object: 'list',
    url: options.url,
    has_more: matching.length > limit,
    data: page.map(({ item }) => options.view(item)),
  })
}
