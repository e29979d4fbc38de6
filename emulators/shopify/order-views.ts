import { GraphQLError } from 'graphql'
import { guarded, kindOf, reachOf } from './access'
import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import {
  displayFulfillmentStatus,
  fulfillmentOrderStatus,
  remainingQuantity,
} from './fulfillment-figures'
import { moneyBag } from './money'
import { currentQuantity, lineDiscountMinor, orderTotals, shippingLeftMinor } from './order-figures'
import {
  MANUAL_GATEWAY,
  firstSale,
  netPaymentMinor,
  receivedMinor,
  refundedMinor,
} from './payments'
import {
  planLines,
  planShipping,
  suggestedAmountMinor,
  unfulfilledQuantity,
  type RefundLineInput,
  type RefundPlan,
} from './refunds'
import {
  assignedLocation,
  findVariant,
  type AddressRecord,
  type FulfillmentOrderRecord,
  type FulfillmentRecord,
  type OrderLineRecord,
  type OrderRecord,
  type RefundRecord,
  type TransactionRecord,
  gid,
} from './state'
import { locationView, metafieldOf, variantView } from './views'

// Orders as GraphQL objects, with their lines, payments, refunds and shipping; built from records
// on demand like the other views, nested fields as functions that run only when selected.

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' })

const addressView = (address: AddressRecord) => ({
  ...address,
  country: address.countryCode ? (countryNames.of(address.countryCode) ?? null) : null,
  countryCodeV2: address.countryCode,
})

export function orderView(ctx: RequestContext, order: OrderRecord) {
  const totals = orderTotals(order)
  const money = (minor: number) => moneyBag(minor, order.currency)
  const refundedShippingMinor = order.shippingMinor - shippingLeftMinor(order)
  const sees = reachOf(ctx.scopes, 'read')
  const view = {
    __typename: 'Order',
    id: gid('Order', order.id),
    name: order.name,
    email: order.email,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    cancellation: order.cancelledAt ? { staffNote: order.cancelStaffNote } : null,
    closed: order.closedAt !== null,
    closedAt: order.closedAt,
    displayFinancialStatus: order.financialStatus,
    // The shop's currency, that of its prices; the customer paid in the presentment currency.
    currencyCode: ctx.shop.currency,
    presentmentCurrencyCode: order.currency,
    tags: order.tags,
    note: order.note,
    discountCodes: order.discountCodes,
    subtotalPriceSet: money(totals.subtotalMinor),
    totalDiscountsSet: money(totals.discountsMinor),
    totalTaxSet: money(order.taxMinor),
    totalShippingPriceSet: money(order.shippingMinor),
    totalPriceSet: money(totals.totalMinor),
    // Order.totalRefundedSet (Admin GraphQL 2026-10, shopify.dev/docs/api/admin-graphql/2026-10/
    // objects/Order): "the total amount that was refunded", the refunds' transactions' money; it
    // changes with the refund that takes its units off the lines, in the same answer.
    totalRefundedSet: money(refundedMinor(order)),
    totalRefundedShippingSet: money(refundedShippingMinor),
    totalReceivedSet: money(receivedMinor(order)),
    netPaymentSet: money(netPaymentMinor(order)),
    shippingAddress: order.shippingAddress && addressView(order.shippingAddress),
    displayFulfillmentStatus: displayFulfillmentStatus(order),
    risk: riskView(order),
    // Only those the scopes reach (access.ts), and the fulfillments made from them.
    fulfillmentOrders: (args: PageArgs) =>
      connection(
        order.fulfillmentOrders.filter((fulfillmentOrder) => sees(kindOf(fulfillmentOrder))),
        args,
        (fulfillmentOrder) => fulfillmentOrderView(ctx, order, fulfillmentOrder),
        ctx.bulk,
      ),
    fulfillments: ({ first }: { first?: number | null }) =>
      order.fulfillments
        .filter((fulfillment) => sees(kindOf(fulfillment)))
        .slice(0, first ?? undefined)
        .map((fulfillment) => fulfillmentView(ctx, order, fulfillment)),
    refunds: ({ first }: { first?: number | null }) =>
      order.refunds.slice(0, first ?? undefined).map((refund) => refundView(ctx, order, refund)),
    transactions: ({ first }: { first?: number | null }) =>
      order.transactions.slice(0, first ?? undefined).map((t) => transactionView(order, t)),
    suggestedRefund: (args: SuggestedRefundArgs) => suggestedRefundView(ctx, order, args),
    lineItems: (args: PageArgs) =>
      connection(order.lines, args, (line) => lineItemView(ctx, order, line), ctx.bulk),
    metafield: (args: { namespace?: string | null; key: string }) =>
      metafieldOf(order.metafields, args),
  }
  // An order's shipping needs scopes of its own: without them only those fields are refused.
  return guarded('Order', view, ctx.scopes)
}

/** Each risk level's recommendation, the most severe first. */
const RECOMMENDATIONS = [
  ['HIGH', 'CANCEL'],
  ['MEDIUM', 'INVESTIGATE'],
  ['LOW', 'ACCEPT'],
] as const

/**
 * Order.risk (Admin API 2026-10, OrderRiskSummary): its assessments, and a recommendation that
 * "favors the most severe" of them (REST Order Risk's usage notes). Shopify does not document how
 * a level maps to a recommendation; the emulator takes the stricter reading, a high risk CANCEL
 * and a medium one INVESTIGATE (as the Shopify admin words them), and NONE with no level given.
 */
function riskView(order: OrderRecord) {
  const assessments = order.riskAssessments ?? []
  const levels = new Set(assessments.map((assessment) => assessment.riskLevel))
  return {
    __typename: 'OrderRiskSummary',
    recommendation: RECOMMENDATIONS.find(([level]) => levels.has(level))?.[1] ?? 'NONE',
    assessments: assessments.map((assessment) => ({
      __typename: 'OrderRiskAssessment',
      riskLevel: assessment.riskLevel,
      provider: assessment.provider && { __typename: 'App', title: assessment.provider },
      facts: assessment.facts.map((fact) => ({ __typename: 'RiskFact', ...fact })),
    })),
  }
}

function lineItemView(ctx: RequestContext, order: OrderRecord, line: OrderLineRecord) {
  const money = (minor: number) => moneyBag(minor, order.currency)
  const found = line.variantId ? findVariant(ctx.shop, line.variantId) : undefined
  const originalTotalMinor = line.quantity * line.unitPriceMinor
  // Shopify's discountedTotalSet leaves order-level discounts out; their shares are only in
  // discountAllocations.
  const lineLevelMinor = line.discountAllocations
    .filter((allocation) => !allocation.orderLevel)
    .reduce((sum, allocation) => sum + allocation.amountMinor, 0)
  return {
    __typename: 'LineItem',
    id: line.id,
    title: line.title,
    quantity: line.quantity,
    currentQuantity: currentQuantity(line),
    unfulfilledQuantity: unfulfilledQuantity(order, line),
    variant: found ? variantView(ctx, found.product, found.variant) : null,
    image: line.imageUrl ? { url: line.imageUrl, altText: null } : null,
    originalUnitPriceSet: money(line.unitPriceMinor),
    originalTotalSet: money(originalTotalMinor),
    discountedTotalSet: money(originalTotalMinor - lineLevelMinor),
    totalDiscountSet: money(lineDiscountMinor(line)),
    discountAllocations: line.discountAllocations.map((allocation) => ({
      __typename: 'DiscountAllocation',
      allocatedAmountSet: money(allocation.amountMinor),
    })),
  }
}

/** The line a fulfillment order or a fulfillment names: order lines are never deleted. */
const orderLine = (order: OrderRecord, lineItemId: string) =>
  order.lines.find((line) => line.id === lineItemId)!

export function fulfillmentOrderView(
  ctx: RequestContext,
  order: OrderRecord,
  fulfillmentOrder: FulfillmentOrderRecord,
) {
  return {
    __typename: 'FulfillmentOrder',
    id: fulfillmentOrder.id,
    status: fulfillmentOrderStatus(order, fulfillmentOrder),
    requestStatus: 'UNSUBMITTED',
    fulfillmentHolds: fulfillmentOrder.holds.map((hold) => ({
      __typename: 'FulfillmentHold',
      ...hold,
    })),
    assignedLocation: {
      name: assignedLocation(ctx.shop, fulfillmentOrder).name,
      location: locationView(ctx.shop, assignedLocation(ctx.shop, fulfillmentOrder)),
    },
    lineItems: (args: PageArgs) =>
      connection(
        fulfillmentOrder.lineItems,
        args,
        (item) => ({
          __typename: 'FulfillmentOrderLineItem',
          id: item.id,
          totalQuantity: item.totalQuantity,
          remainingQuantity: remainingQuantity(order, item),
          lineItem: () => lineItemView(ctx, order, orderLine(order, item.lineItemId)),
        }),
        ctx.bulk,
      ),
    orderId: gid('Order', order.id),
    order: () => orderView(ctx, order),
  }
}

export function fulfillmentView(
  ctx: RequestContext,
  order: OrderRecord,
  fulfillment: FulfillmentRecord,
) {
  return {
    __typename: 'Fulfillment',
    id: fulfillment.id,
    name: fulfillment.name,
    status: fulfillment.status,
    createdAt: fulfillment.createdAt,
    updatedAt: fulfillment.updatedAt,
    trackingInfo: ({ first }: { first?: number | null }) =>
      fulfillment.trackingInfo.slice(0, first ?? undefined),
    fulfillmentLineItems: (args: PageArgs) =>
      connection(
        fulfillment.lines,
        args,
        (fulfilled) => ({
          __typename: 'FulfillmentLineItem',
          id: fulfilled.id,
          quantity: fulfilled.quantity,
          lineItem: () => lineItemView(ctx, order, orderLine(order, fulfilled.lineItemId)),
        }),
        ctx.bulk,
      ),
    // Where it shipped from: its fulfillment orders' location (Fulfillment.location, 2026-10).
    location: locationView(ctx.shop, assignedLocation(ctx.shop, fulfillment)),
    order: () => orderView(ctx, order),
  }
}

function transactionView(order: OrderRecord, transaction: TransactionRecord): object {
  const parent = order.transactions.find((t) => t.id === transaction.parentId)
  return {
    __typename: 'OrderTransaction',
    id: transaction.id,
    kind: transaction.kind,
    status: 'SUCCESS',
    gateway: transaction.gateway,
    amountSet: moneyBag(transaction.amountMinor, order.currency),
    createdAt: transaction.createdAt,
    processedAt: transaction.createdAt,
    parentTransaction: parent ? () => transactionView(order, parent) : null,
    manualPaymentGateway: transaction.gateway === MANUAL_GATEWAY,
    test: false,
  }
}

/** A refund line as RefundLineItem shows it: made (with an id) or only suggested (without). */
function refundLineView(
  ctx: RequestContext,
  order: OrderRecord,
  refunded: { id: string | null; line: OrderLineRecord; quantity: number },
  restockType: string,
  { subtotalMinor, taxMinor }: { subtotalMinor: number; taxMinor: number },
) {
  const money = (minor: number) => moneyBag(minor, order.currency)
  return {
    __typename: 'RefundLineItem',
    id: refunded.id,
    lineItem: () => lineItemView(ctx, order, refunded.line),
    quantity: refunded.quantity,
    restockType,
    restocked: refunded.id !== null && restockType !== 'NO_RESTOCK',
    priceSet: money(refunded.line.unitPriceMinor),
    subtotalSet: money(subtotalMinor),
    totalTaxSet: money(taxMinor),
  }
}

export function refundView(ctx: RequestContext, order: OrderRecord, refund: RefundRecord) {
  const lines = refund.lines.flatMap((refunded) => {
    const line = order.lines.find((candidate) => candidate.id === refunded.lineItemId)
    return line ? [{ ...refunded, line }] : []
  })
  const transactions = order.transactions.filter((t) => refund.transactionIds.includes(t.id))
  return {
    __typename: 'Refund',
    id: refund.id,
    createdAt: refund.createdAt,
    processedAt: refund.createdAt,
    updatedAt: refund.createdAt,
    note: refund.note,
    order: () => orderView(ctx, order),
    totalRefundedSet: moneyBag(refund.amountMinor, order.currency),
    refundLineItems: (args: PageArgs & { reverse: boolean }) =>
      connection(
        args.reverse ? [...lines].reverse() : lines,
        args,
        (refunded) =>
          refundLineView(ctx, order, refunded, refunded.restockType, {
            subtotalMinor: refunded.subtotalMinor,
            taxMinor: refunded.taxMinor ?? 0,
          }),
        ctx.bulk,
      ),
    // The emulator keeps one shipping line an order (no tax on it): a refund of shipping refunds it.
    refundShippingLines: (args: PageArgs & { reverse: boolean }) =>
      connection(
        refund.shippingMinor > 0 ? [refund] : [],
        args,
        () => ({
          id: refund.id.replace('/Refund/', '/RefundShippingLine/'),
          subtotalAmountSet: moneyBag(refund.shippingMinor, order.currency),
          taxAmountSet: moneyBag(0, order.currency),
        }),
        ctx.bulk,
      ),
    transactions: (args: PageArgs & { reverse: boolean }) =>
      connection(
        args.reverse ? [...transactions].reverse() : transactions,
        args,
        (t) => transactionView(order, t),
        ctx.bulk,
      ),
  }
}

export interface SuggestedRefundArgs {
  refundLineItems?: RefundLineInput[] | null
  refundShipping?: boolean | null
  shippingAmount?: string | number | null
  suggestFullRefund: boolean
}

/** What the admin would refund for these lines and shipping, and through which payment. */
function suggestedRefundView(ctx: RequestContext, order: OrderRecord, args: SuggestedRefundArgs) {
  const everything = order.lines
    .filter((line) => currentQuantity(line) > 0)
    .map((line) => ({ lineItemId: line.id, quantity: currentQuantity(line) }))
  const lines = planLines(order, args.suggestFullRefund ? everything : (args.refundLineItems ?? []))
  const shipping = planShipping(
    order,
    args.suggestFullRefund || args.refundShipping
      ? { fullRefund: true }
      : { amount: args.shippingAmount },
  )
  if ('error' in lines) throw new GraphQLError(lines.error.message)
  if ('error' in shipping) throw new GraphQLError(shipping.error.message)
  const plan: RefundPlan = { lines: lines.lines, shippingMinor: shipping.shippingMinor }
  const amountMinor = args.suggestFullRefund
    ? netPaymentMinor(order)
    : suggestedAmountMinor(order, plan)
  const subtotalMinor = plan.lines.reduce((sum, p) => sum + p.subtotalMinor, 0)
  const money = (minor: number) => moneyBag(minor, order.currency)
  const sale = firstSale(order)
  return {
    amountSet: money(amountMinor),
    subtotalSet: money(subtotalMinor),
    // Tax is kept for the whole order: what is not lines or shipping came back with the last units.
    totalTaxSet: money(Math.max(0, amountMinor - subtotalMinor - plan.shippingMinor)),
    maximumRefundableSet: money(netPaymentMinor(order)),
    shipping: {
      amountSet: money(plan.shippingMinor),
      maximumRefundableSet: money(shippingLeftMinor(order)),
      taxSet: money(0),
    },
    refundLineItems: plan.lines.map((p) =>
      refundLineView(ctx, order, { id: null, ...p }, p.restockType, {
        subtotalMinor: p.subtotalMinor,
        taxMinor: 0,
      }),
    ),
    suggestedTransactions:
      sale && amountMinor > 0
        ? [
            {
              kind: 'SUGGESTED_REFUND',
              gateway: sale.gateway,
              amountSet: money(amountMinor),
              maximumRefundableSet: money(netPaymentMinor(order)),
              parentTransaction: transactionView(order, sale),
            },
          ]
        : [],
  }
}
