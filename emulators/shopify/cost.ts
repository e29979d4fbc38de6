import {
  GraphQLError,
  getArgumentValues,
  getNamedType,
  isLeafType,
  type GraphQLCompositeType,
  type SelectionSetNode,
} from 'graphql'
import { isConnection, nodeSelections, responseKey, selectedFields, type Walk } from './selection'

// Shopify's calculated query cost. Requested cost is read from the document before anything runs:
// scalars and enums 0, an object 1, a connection 2 + first × (1 + the cost of one node's
// selection) — `nodes`, `edges`, `node` add nothing of their own and pageInfo is free — and a
// mutation field 10 plus its selection. Actual cost applies the same rules to what was returned.

export const MAX_QUERY_COST = 1000
const MAX_PAGE_SIZE = 250
const MUTATION_COST = 10

function requested(
  walk: Walk,
  set: SelectionSetNode | undefined,
  parent: GraphQLCompositeType,
  path: string[],
): number {
  let total = 0
  for (const field of selectedFields(walk, set, parent)) {
    const type = getNamedType(field.def.type)
    if (isLeafType(type)) continue
    const at = [...path, responseKey(field.node)]
    // A list that is not a connection (userErrors, accessScopes) costs as one object.
    if (!isConnection(field.def)) {
      total += 1 + requested(walk, field.node.selectionSet, type as GraphQLCompositeType, at)
      continue
    }
    const args = getArgumentValues(field.def, field.node, walk.variables)
    const size = (args.first ?? args.last) as number | undefined
    if (size === undefined)
      throw new GraphQLError('you must provide one of first or last', {
        nodes: field.node,
        path: at,
      })
    if (size > MAX_PAGE_SIZE || size < 0)
      throw new GraphQLError(`The page size must be between 0 and ${MAX_PAGE_SIZE}.`, {
        nodes: field.node,
        path: at,
      })
    const perNode = nodeSelections(walk, field).reduce(
      (sum, view) =>
        sum +
        requested(
          walk,
          view.selection.node.selectionSet,
          getNamedType(view.selection.def.type) as GraphQLCompositeType,
          at,
        ),
      1,
    )
    total += 2 + size * perNode
  }
  return total
}

function actual(
  walk: Walk,
  set: SelectionSetNode | undefined,
  parent: GraphQLCompositeType,
  data: unknown,
): number {
  if (typeof data !== 'object' || data === null) return 0
  const values = data as Record<string, unknown>
  let total = 0
  for (const field of selectedFields(walk, set, parent)) {
    const key = responseKey(field.node)
    const type = getNamedType(field.def.type)
    // A field absent from the answer was in a fragment for another type: it was never resolved.
    if (isLeafType(type) || !(key in values)) continue
    const value = values[key]
    if (!isConnection(field.def)) {
      const one = Array.isArray(value) ? value[0] : value
      total += 1 + actual(walk, field.node.selectionSet, type as GraphQLCompositeType, one)
      continue
    }
    total += 2
    for (const view of nodeSelections(walk, field)) {
      const list = (value as Record<string, unknown[]> | null)?.[view.key] ?? []
      const nodeType = getNamedType(view.selection.def.type) as GraphQLCompositeType
      for (const item of list) {
        const node = view.edge ? (item as Record<string, unknown>)[view.edge] : item
        total += 1 + actual(walk, view.selection.node.selectionSet, nodeType, node)
      }
    }
  }
  return total
}

/**
 * A query's root fields cost as any field; a mutation's cost 10 each plus what they select of
 * their payload (the payload object itself adds nothing).
 */
function rootCost(
  walk: Walk,
  cost: (set: SelectionSetNode | undefined, type: GraphQLCompositeType, key: string) => number,
): number {
  const mutation = walk.operation.operation === 'mutation'
  const root = mutation ? walk.schema.getMutationType() : walk.schema.getQueryType()
  if (!root) return 0
  if (!mutation) return cost(walk.operation.selectionSet, root, '')
  return selectedFields(walk, walk.operation.selectionSet, root).reduce((sum, field) => {
    const payload = getNamedType(field.def.type) as GraphQLCompositeType
    return sum + MUTATION_COST + cost(field.node.selectionSet, payload, responseKey(field.node))
  }, 0)
}

/** Throws a GraphQLError when a connection has no page size or too large a one. */
export const requestedCost = (walk: Walk): number =>
  rootCost(walk, (set, type, key) => requested(walk, set, type, key ? [key] : []))

export const actualCost = (walk: Walk, data: unknown): number =>
  rootCost(walk, (set, type, key) =>
    actual(walk, set, type, key ? (data as Record<string, unknown> | null)?.[key] : data),
  )
