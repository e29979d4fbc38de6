import { newFulfillmentOrder } from './fulfillments'
import { CHECKOUT_GATEWAY } from './payments'
import {
  DEFAULT_OPTION,
  gid,
  gidNumber,
  type EmulatorState,
  type OrderLineRecord,
  type OrderRecord,
  type ProductRecord,
  type TransactionRecord,
  type VariantRecord,
} from './state'

/** A product as a state file from before products kept what a listing copies. */
type PastProduct = Partial<ProductRecord> & { imageUrl?: string | null; variants: VariantRecord[] }

/**
 * A state file written before products had descriptions, vendors, options, images and inventory
 * items, read as single-option products (Title: each variant's title) with their one image; each
 * variant gets the next inventory item id.
 */
export function withCatalogue(state: EmulatorState): EmulatorState {
  const lastIds = state.lastIds as Partial<EmulatorState['lastIds']>
  lastIds.inventoryItem ??= 0
  lastIds.adjustmentGroup ??= 0
  for (const shop of Object.values(state.shops)) {
    for (const product of shop.products as PastProduct[]) {
      product.createdAt ??= product.updatedAt
      product.descriptionHtml ??= ''
      product.vendor ??= shop.name
      product.images ??= product.imageUrl ? [{ url: product.imageUrl, altText: null }] : []
      delete product.imageUrl
      const values = product.variants.map((variant) => variant.title)
      product.options ??= [{ name: DEFAULT_OPTION.name, values }]
      for (const variant of product.variants as Partial<VariantRecord>[]) {
        variant.selectedOptions ??= [{ name: DEFAULT_OPTION.name, value: variant.title ?? '' }]
        variant.inventoryItemId ??= gid('InventoryItem', ++state.lastIds.inventoryItem)
      }
    }
  }
  return state
}

/**
 * A state file written before orders kept their edits, refunds, cancellation, discounts and
 * transactions, read as orders that had none of them (no `npm run stack:reset` needed). A paid
 * order gets the payment it must have had, each refund the transaction that gave its money back.
 */
export function withOrderHistory(state: EmulatorState): EmulatorState {
  for (const shop of Object.values(state.shops)) {
    for (const order of shop.orders as Partial<OrderRecord>[]) {
      order.cancelledAt ??= null
      order.cancelReason ??= null
      order.cancelStaffNote ??= null
      order.closedAt ??= order.cancelledAt
      order.discountCodes ??= []
      order.refunds ??= []
      for (const line of (order.lines ?? []) as Partial<OrderLineRecord>[]) {
        line.removedQuantity ??= 0
        line.discountAllocations ??= []
      }
      order.transactions ??= pastTransactions(order as OrderRecord)
      order.refunds.forEach((refund, r) => {
        refund.note ??= null
        refund.shippingMinor ??= 0
        refund.transactionIds ??= []
        refund.lines.forEach((line, l) => {
          line.id ??= gid('RefundLineItem', (gidNumber(refund.id, 'Refund') ?? r) * 100 + l + 1)
          line.restockType ??= 'NO_RESTOCK'
          line.subtotalMinor ??= 0
        })
      })
    }
  }
  return state
}

/**
 * A state file written before orders were shipped, read as orders none of which shipped: each
 * gets its fulfillment order (cancelled with the order, if it was) and no fulfillments.
 */
export function withFulfillments(state: EmulatorState): EmulatorState {
  const lastIds = state.lastIds as Partial<EmulatorState['lastIds']>
  lastIds.fulfillmentOrder ??= 0
  lastIds.fulfillmentOrderLineItem ??= 0
  lastIds.fulfillment ??= 0
  lastIds.fulfillmentLineItem ??= 0
  lastIds.fulfillmentHold ??= 0
  for (const shop of Object.values(state.shops)) {
    for (const order of shop.orders as Partial<OrderRecord>[]) {
      order.fulfillmentOrders ??= [newFulfillmentOrder(state, order.lines ?? [])]
      order.fulfillments ??= []
    }
  }
  return state
}

/**
 * A state file written before orders kept their last change, read as changed last by the latest
 * change it shows: made, refunded, cancelled or shipped.
 */
export function withOrderUpdates(state: EmulatorState): EmulatorState {
  for (const shop of Object.values(state.shops)) {
    for (const order of shop.orders as (Omit<OrderRecord, 'updatedAt'> & {
      updatedAt?: string
    })[]) {
      const changes = [
        order.createdAt,
        order.cancelledAt ?? '',
        ...order.refunds.map((refund) => refund.createdAt),
        ...order.fulfillments.map((fulfillment) => fulfillment.updatedAt),
      ]
      order.updatedAt ??= changes.sort().at(-1)!
    }
  }
  return state
}

/** The payment of an order paid before transactions were kept, and its refunds' transactions. */
function pastTransactions(order: OrderRecord): TransactionRecord[] {
  if (!['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(order.financialStatus)) return []
  const linesMinor = order.lines.reduce(
    (sum, line) =>
      sum +
      line.quantity * line.unitPriceMinor -
      line.discountAllocations.reduce((total, allocation) => total + allocation.amountMinor, 0),
    0,
  )
  const sale: TransactionRecord = {
    id: gid('OrderTransaction', order.id * 100 + 1),
    kind: 'SALE',
    gateway: CHECKOUT_GATEWAY,
    amountMinor: linesMinor + order.taxMinor + order.shippingMinor,
    parentId: null,
    createdAt: order.createdAt,
  }
  const refunds = order.refunds.map((refund, i): TransactionRecord => {
    const transaction = {
      id: gid('OrderTransaction', order.id * 100 + i + 2),
      kind: 'REFUND' as const,
      gateway: sale.gateway,
      amountMinor: refund.amountMinor,
      parentId: sale.id,
      createdAt: refund.createdAt,
    }
    refund.transactionIds = [transaction.id]
    return transaction
  })
  return [sale, ...refunds]
}
