import {
  GraphQLError,
  Kind,
  execute,
  getOperationAST,
  getVariableValues,
  parse,
  validate,
  type DocumentNode,
} from 'graphql'
import type { Runtime } from './context'
import { actualCost, MAX_QUERY_COST, requestedCost } from './cost'
import { json, type Answer } from './http'
import { mutationRoot } from './mutations'
import { guarded } from './access'
import { accessScopes } from './oauth'
import { queryRoot } from './queries'
import { schema } from './schema'
import type { Walk } from './selection'
import type { ShopRecord } from './state'
import type { LeakyBucket } from './throttle'

// POST /{shop}/admin/api/2026-10/graphql.json, in Shopify's order: the token, then the document,
// then its cost against the single-query limit and the shop's bucket. A throttled request runs
// nothing; a request that runs is charged its requested cost, and refunded what it did not use.

export interface GraphqlRequest {
  variables: Record<string, unknown>
  operationName: string | undefined
  /** The parsed query, or its syntax error, answered only after the token check as Shopify does. */
  document: DocumentNode | GraphQLError
  /** The root field names, which is what faults and call counts are keyed by. */
  rootFields: string[]
}

/** Undefined when the body is not a GraphQL request at all. */
export function readGraphqlRequest(body: string): GraphqlRequest | undefined {
  let parsed: { query?: unknown; variables?: unknown; operationName?: unknown }
  try {
    parsed = JSON.parse(body) as typeof parsed
  } catch {
    return undefined
  }
  if (typeof parsed?.query !== 'string') return undefined
  const variables = (parsed.variables ?? {}) as Record<string, unknown>
  const operationName = typeof parsed.operationName === 'string' ? parsed.operationName : undefined
  let document: DocumentNode | GraphQLError
  try {
    document = parse(parsed.query)
  } catch (error) {
    document = error as GraphQLError
  }
  const operation =
    document instanceof GraphQLError ? undefined : getOperationAST(document, operationName)
  const rootFields = (operation?.selectionSet.selections ?? []).flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.name.value] : [],
  )
  return { variables, operationName, document, rootFields: [...new Set(rootFields)] }
}

const unauthorized = () =>
  json(401, {
    errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
  })

export async function answerGraphql(
  runtime: Runtime,
  shop: ShopRecord,
  bucket: LeakyBucket,
  token: string | undefined,
  request: GraphqlRequest,
): Promise<Answer> {
  const scopes = accessScopes(shop, token)
  if (!scopes) return unauthorized()
  const cost = (requestedQueryCost: number, actualQueryCost: number | null) => ({
    cost: { requestedQueryCost, actualQueryCost, throttleStatus: bucket.status() },
  })
  const refuse = (errors: readonly GraphQLError[] | object[], requested = 0) =>
    json(200, { errors, extensions: cost(requested, null) })

  const { document, operationName } = request
  if (document instanceof GraphQLError) return refuse([document])
  const invalid = validate(schema, document)
  if (invalid.length > 0) return refuse(invalid)
  const operation = getOperationAST(document, operationName)
  if (!operation) {
    const message = operationName
      ? `Unknown operation named "${operationName}".`
      : 'Must provide operation name if query contains multiple operations.'
    return refuse([new GraphQLError(message)])
  }
  const variables = getVariableValues(
    schema,
    operation.variableDefinitions ?? [],
    request.variables,
  )
  if (variables.errors) return refuse(variables.errors)
  const walk: Walk = { schema, document, operation, variables: variables.variableValues }

  let requested: number
  try {
    requested = requestedCost(walk)
  } catch (error) {
    if (error instanceof GraphQLError) return refuse([error])
    throw error
  }
  if (requested > MAX_QUERY_COST) {
    const message = `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`
    const extensions = { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: MAX_QUERY_COST }
    return refuse([{ message, extensions }], requested)
  }
  if (!bucket.take(requested)) {
    const extensions = {
      code: 'THROTTLED',
      documentation: 'https://shopify.dev/api/usage/rate-limits',
    }
    return refuse([{ message: 'Throttled', extensions }], requested)
  }

  const context = { runtime, shop, scopes, bulk: false }
  const rootValue =
    operation.operation === 'mutation'
      ? guarded('Mutation', mutationRoot(context), scopes)
      : guarded('Query', queryRoot(context), scopes)
  const result = await execute({
    schema,
    document,
    rootValue,
    variableValues: request.variables,
    operationName,
  })
  const actual = actualCost(walk, result.data ?? null)
  bucket.refund(requested - actual)
  return json(200, { ...result, extensions: cost(requested, actual) })
}
