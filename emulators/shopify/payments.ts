import { gid, touch, type OrderRecord, type TransactionRecord } from './state'

// The money of an order, as its transactions tell it: what the customer paid (SALE) and what went
// back (REFUND). The financial status follows from them once anything was refunded.

/** The gateway of a customer's checkout (createCustomerOrder, the seeded orders). */
export const CHECKOUT_GATEWAY = 'shopify_payments'
/** The gateway Shopify names for orderMarkAsPaid and other payments made outside Shopify. */
export const MANUAL_GATEWAY = 'manual'

const sum = (transactions: TransactionRecord[], kind: TransactionRecord['kind']) =>
  transactions.filter((t) => t.kind === kind).reduce((total, t) => total + t.amountMinor, 0)

export const receivedMinor = (order: OrderRecord) => sum(order.transactions, 'SALE')
export const refundedMinor = (order: OrderRecord) => sum(order.transactions, 'REFUND')
/** Shopify's "net payment received": what a refund can still give back. */
export const netPaymentMinor = (order: OrderRecord) => receivedMinor(order) - refundedMinor(order)

function addTransaction(
  order: OrderRecord,
  fields: Omit<TransactionRecord, 'id' | 'createdAt'>,
): TransactionRecord {
  const transaction: TransactionRecord = {
    id: gid('OrderTransaction', order.id * 100 + order.transactions.length + 1),
    createdAt: new Date().toISOString(),
    ...fields,
  }
  order.transactions.push(transaction)
  touch(order)
  return transaction
}

export const recordSale = (order: OrderRecord, amountMinor: number, gateway: string) =>
  addTransaction(order, { kind: 'SALE', gateway, amountMinor, parentId: null })

/** Money back to the customer, through the gateway of the payment it returns. */
export const recordRefund = (order: OrderRecord, parent: TransactionRecord, amountMinor: number) =>
  addTransaction(order, {
    kind: 'REFUND',
    gateway: parent.gateway,
    amountMinor,
    parentId: parent.id,
  })

/** The payment a refund gives money back through: the order's first, as the admin picks it. */
export const firstSale = (order: OrderRecord) => order.transactions.find((t) => t.kind === 'SALE')

/**
 * After a refund: REFUNDED once everything received went back, PARTIALLY_REFUNDED while some of
 * it did; a refund that gave no money back leaves the status as it was.
 */
export function settleFinancialStatus(order: OrderRecord): void {
  const refunded = refundedMinor(order)
  if (refunded <= 0) return
  order.financialStatus = refunded >= receivedMinor(order) ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
}
