import type { BulkOperations } from './bulk'
import type { CancelJobs } from './cancellation'
import type { OrderEdit } from './order-edits'
import type { ProductSetOperations } from './product-operations'
import type { EmulatorState, ShopRecord } from './state'
import type { WebhookDispatcher } from './webhooks'

/** What every part of the emulator shares for its lifetime. */
export interface Runtime {
  state: EmulatorState
  /** The emulator's own base URL, for links it hands out (bulk result files). */
  url: string
  /** How long a new order stays invisible to orders(query:) (Shopify's search index lags). */
  searchLagMs: number
  /** Epoch ms at which each order created by this process becomes visible to search. */
  searchableAt: Map<number, number>
  /** Persists the state after a change (a no-op without a state file). */
  save(): void
  bulk: BulkOperations
  /** orderCancel's jobs (Query.job), which cancel after a delay. */
  cancelJobs: CancelJobs
  productSetOperations: ProductSetOperations
  /** Order edits by number, open until committed (an edit lives no longer than the process). */
  orderEdits: Map<number, OrderEdit>
  webhooks: WebhookDispatcher
  log(line: string): void
}

/** One GraphQL request: the shop it addresses and what its token may do. */
export interface RequestContext {
  runtime: Runtime
  shop: ShopRecord
  scopes: string[]
  /** Set while a bulk operation runs its query: connections then yield every item. */
  bulk: boolean
}
