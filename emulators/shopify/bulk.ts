import {
  executeSync,
  getNamedType,
  getOperationAST,
  parse,
  validate,
  type GraphQLCompositeType,
} from 'graphql'
import type { RequestContext } from './context'
import { queryRoot } from './queries'
import { schema } from './schema'
import {
  isConnection,
  nodeSelections,
  responseKey,
  selectedFields,
  type SelectedField,
  type Walk,
} from './selection'
import { gid, type ShopRecord } from './state'
import type { Timers } from './timers'

// bulkOperationRunQuery: the query runs over every item of its connections (no first/after) and
// its result becomes a JSONL file, one line per connection node; a nested connection's nodes get
// lines of their own with `__parentId`, and are removed from their parent's line. Operations take
// objectCount / objectsPerSecond s (at least 50 ms) of simulated time, their objectCount growing as
// they run, as Shopify's does. They are not kept in the state file.

/** Shopify's pace, roughly; a test slows it down to watch an operation run. */
export const DEFAULT_BULK_OBJECTS_PER_SECOND = 20_000
const MINIMUM_RUN_MS = 50
/** Since API 2026-01 an app runs up to five bulk queries at once per shop (one before). */
const CONCURRENT_OPERATIONS = 5

interface BulkOperationRecord {
  id: string
  shop: string
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED'
  errorCode: 'INTERNAL_SERVER_ERROR' | null
  objectCount: number
  rootObjectCount: number
  fileSize: number | null
  url: string | null
  createdAt: string
  completedAt: string | null
  query: string
  type: 'QUERY'
  /** While it runs: how many objects it will have read, and over which span of time. */
  run?: { objects: number; startedAt: number; ms: number }
}

/** What it has read so far: all of it once completed, a share of the time elapsed while running. */
function objectsRead(operation: BulkOperationRecord): number {
  const { run } = operation
  if (operation.status !== 'RUNNING' || !run) return operation.objectCount
  const share = Math.min(1, (Date.now() - run.startedAt) / run.ms)
  return Math.floor(run.objects * share)
}

const view = (operation: BulkOperationRecord) => ({
  __typename: 'BulkOperation',
  id: operation.id,
  status: operation.status,
  errorCode: operation.errorCode,
  objectCount: String(objectsRead(operation)),
  rootObjectCount: String(operation.rootObjectCount),
  fileSize: operation.fileSize === null ? null : String(operation.fileSize),
  url: operation.url,
  partialDataUrl: null,
  createdAt: operation.createdAt,
  completedAt: operation.completedAt,
  query: operation.query,
  type: operation.type,
})

type JsonObject = Record<string, unknown>

/** The JSONL lines of a bulk query's result, each parent before its children. */
function jsonLines(walk: Walk, data: JsonObject) {
  const lines: string[] = []
  let roots = 0
  const emit = (field: SelectedField, connection: unknown, parentId?: unknown) => {
    for (const { key, edge, selection } of nodeSelections(walk, field)) {
      const nodeType = getNamedType(selection.def.type) as GraphQLCompositeType
      const children = selectedFields(walk, selection.node.selectionSet, nodeType)
      const nested = children.filter((child) => isConnection(child.def))
      for (const item of (connection as Record<string, JsonObject[]> | null)?.[key] ?? []) {
        const node = (edge ? item[edge] : item) as JsonObject
        const line = { ...node }
        for (const child of nested) delete line[responseKey(child.node)]
        if (parentId === undefined) roots++
        else line.__parentId = parentId
        lines.push(JSON.stringify(line))
        for (const child of nested) emit(child, node[responseKey(child.node)], node.id)
      }
    }
  }
  const root = walk.schema.getQueryType()
  for (const field of root ? selectedFields(walk, walk.operation.selectionSet, root) : [])
    if (isConnection(field.def)) emit(field, data[responseKey(field.node)])
  return { lines, roots }
}

export class BulkOperations {
  private readonly operations: BulkOperationRecord[] = []
  private readonly files = new Map<string, string>()
  private lastId = 0

  constructor(
    private readonly url: string,
    private readonly timers: Timers,
    private readonly objectsPerSecond: number,
  ) {}

  run(ctx: RequestContext, query: string) {
    const refuse = (message: string, field: string[] | null = ['query']) => ({
      bulkOperation: null,
      userErrors: [{ field, message }],
    })
    const running = this.operations.filter(
      (op) => op.shop === ctx.shop.domain && (op.status === 'CREATED' || op.status === 'RUNNING'),
    )
    if (running.length >= CONCURRENT_OPERATIONS)
      return refuse(
        `There are already ${CONCURRENT_OPERATIONS} bulk query operations in progress for this app and shop.`,
        null,
      )
    let walk: Walk
    try {
      const document = parse(query)
      const [invalid] = validate(schema, document)
      if (invalid) return refuse(`Invalid bulk query: ${invalid.message}`)
      const operation = getOperationAST(document)
      if (operation?.operation !== 'query') return refuse('Invalid bulk query: not a query.')
      walk = { schema, document, operation }
    } catch (error) {
      return refuse(`Invalid bulk query: ${(error as Error).message}`)
    }
    const rootFields = selectedFields(walk, walk.operation.selectionSet, schema.getQueryType()!)
    if (!rootFields.some((field) => isConnection(field.def)))
      return refuse('Bulk queries must contain at least one connection.')

    const record: BulkOperationRecord = {
      id: gid('BulkOperation', ++this.lastId),
      shop: ctx.shop.domain,
      status: 'CREATED',
      errorCode: null,
      objectCount: 0,
      rootObjectCount: 0,
      fileSize: null,
      url: null,
      createdAt: new Date().toISOString(),
      completedAt: null,
      query,
      type: 'QUERY',
    }
    this.operations.push(record)
    // Started after the mutation has answered, as Shopify queues the operation.
    this.timers.after(0, () => this.execute({ ...ctx, bulk: true }, record, walk))
    return { bulkOperation: view(record), userErrors: [] }
  }

  /** The shop's most recent operation of that type, as currentBulkOperation answers. */
  current(shop: ShopRecord, type: string) {
    const mine = this.operations.filter((op) => op.shop === shop.domain && op.type === type)
    const latest = mine.at(-1)
    return latest ? view(latest) : null
  }

  find(shop: ShopRecord, id: string) {
    const found = this.operations.find((op) => op.id === id && op.shop === shop.domain)
    return found ? view(found) : null
  }

  /** The JSONL file of a completed operation, by the number in its id. */
  file(number: string): string | undefined {
    return this.files.get(number)
  }

  private execute(ctx: RequestContext, record: BulkOperationRecord, walk: Walk): void {
    record.status = 'RUNNING'
    const result = executeSync({ schema, document: walk.document, rootValue: queryRoot(ctx) })
    const finish = (status: 'COMPLETED' | 'FAILED') => {
      record.status = status
      record.completedAt = new Date().toISOString()
    }
    if (result.errors || !result.data) {
      record.errorCode = 'INTERNAL_SERVER_ERROR'
      return finish('FAILED')
    }
    const { lines, roots } = jsonLines(walk, result.data)
    const text = lines.map((line) => `${line}\n`).join('')
    const simulatedMs = Math.max(MINIMUM_RUN_MS, (lines.length / this.objectsPerSecond) * 1000)
    record.run = { objects: lines.length, startedAt: Date.now(), ms: simulatedMs }
    this.timers.after(simulatedMs, () => {
      const number = record.id.slice(record.id.lastIndexOf('/') + 1)
      if (lines.length > 0) {
        this.files.set(number, text)
        record.url = `${this.url}/_bulk/${number}.jsonl`
      }
      record.objectCount = lines.length
      record.rootObjectCount = roots
      record.fileSize = Buffer.byteLength(text)
      finish('COMPLETED')
    })
  }
}
