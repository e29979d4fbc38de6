import { connection, type PageArgs } from './connection'
import type { RequestContext } from './context'
import { moneyBag } from './money'
import { orderTotals } from './order-figures'
import { orderView } from './order-views'
import { addToOrder, findOrder } from './orders'
import { receivedMinor } from './payments'
import { findVariant, gid, gidNumber, type OrderRecord } from './state'
import { variantView } from './views'

// Order editing as Shopify's Admin API 2026-10 does it
// (https://shopify.dev/docs/api/admin-graphql/2026-10/mutations/orderEditBegin, orderEditAddVariant,
// orderEditCommit): orderEditBegin opens an edit of an order, answering its CalculatedOrder and
// OrderEditSession; orderEditAddVariant stages a variant's units as a new line (at its price;
// refused for a variant already on the order unless `allowDuplicates`); orderEditCommit applies
// what was staged, leaving a paid order a balance to pay. Either id names the edit. Only adding
// variants is modelled. Shopify documents no words for these refusals: the emulator's are its own.

/** An edit of one order, open until committed. */
export interface OrderEdit {
  id: number
  shop: string
  orderId: number
  added: { id: string; variantId: string; quantity: number }[]
  committed: boolean
}

/** A refusal, as a payload's userErrors carry it. */
export interface UserError {
  field: string[]
  message: string
}

const refused = (field: string, message: string) => ({
  userErrors: [{ field: [field], message }] as UserError[],
})

/** The open edit `id` names (its CalculatedOrder or its OrderEditSession), of this shop. */
function openEdit(ctx: RequestContext, id: string) {
  const number = gidNumber(id, 'CalculatedOrder') ?? gidNumber(id, 'OrderEditSession')
  const edit = number === null ? undefined : ctx.runtime.orderEdits.get(number)
  if (!edit || edit.shop !== ctx.shop.domain || edit.committed) return null
  const order = findOrder(ctx.shop, gid('Order', edit.orderId))
  return order ? { edit, order } : null
}

const NO_EDIT = refused('id', 'The order edit does not exist or was committed already.')

function calculatedOrderView(ctx: RequestContext, edit: OrderEdit, order: OrderRecord) {
  const money = (minor: number) => moneyBag(minor, order.currency)
  const addedMinor = edit.added.reduce(
    (sum, line) =>
      sum + line.quantity * (findVariant(ctx.shop, line.variantId)?.variant.priceMinor ?? 0),
    0,
  )
  const totalMinor = orderTotals(order).totalMinor + addedMinor
  return {
    __typename: 'CalculatedOrder',
    id: gid('CalculatedOrder', edit.id),
    committed: edit.committed,
    originalOrder: () => orderView(ctx, order),
    addedLineItems: (args: PageArgs) =>
      connection(edit.added, args, (line) => calculatedLineView(ctx, order, line), ctx.bulk),
    totalPriceSet: money(totalMinor),
    totalOutstandingSet: money(totalMinor - receivedMinor(order)),
  }
}

function calculatedLineView(
  ctx: RequestContext,
  order: OrderRecord,
  line: OrderEdit['added'][number],
) {
  const { product, variant } = findVariant(ctx.shop, line.variantId)!
  return {
    __typename: 'CalculatedLineItem',
    id: line.id,
    title: product.title,
    quantity: line.quantity,
    variant: variantView(ctx, product, variant),
    originalUnitPriceSet: moneyBag(variant.priceMinor, order.currency),
  }
}

const sessionView = (edit: OrderEdit) => ({
  __typename: 'OrderEditSession',
  id: gid('OrderEditSession', edit.id),
})

export function orderEditMutations(ctx: RequestContext) {
  const { runtime, shop } = ctx
  return {
    orderEditBegin: ({ id }: { id: string }) => {
      const order = findOrder(shop, id)
      if (!order) return { calculatedOrder: null, ...refused('id', 'The order does not exist.') }
      if (order.cancelledAt) {
        return { calculatedOrder: null, ...refused('id', 'A cancelled order cannot be edited.') }
      }
      const edit: OrderEdit = {
        id: runtime.orderEdits.size + 1,
        shop: shop.domain,
        orderId: order.id,
        added: [],
        committed: false,
      }
      runtime.orderEdits.set(edit.id, edit)
      return {
        calculatedOrder: calculatedOrderView(ctx, edit, order),
        orderEditSession: sessionView(edit),
        userErrors: [],
      }
    },

    orderEditAddVariant: (args: {
      id: string
      variantId: string
      quantity: number
      allowDuplicates?: boolean | null
    }) => {
      const open = openEdit(ctx, args.id)
      if (!open) return { calculatedLineItem: null, calculatedOrder: null, ...NO_EDIT }
      const { edit, order } = open
      const none = { calculatedLineItem: null, calculatedOrder: null }
      if (args.quantity < 1)
        return { ...none, ...refused('quantity', 'Quantity must be positive.') }
      if (!findVariant(shop, args.variantId)) {
        return { ...none, ...refused('variantId', 'The variant does not exist.') }
      }
      const onOrder = [...order.lines, ...edit.added].some(
        (line) => line.variantId === args.variantId,
      )
      if (onOrder && !args.allowDuplicates) {
        return { ...none, ...refused('variantId', 'The variant is on the order already.') }
      }
      const line = {
        id: gid('CalculatedLineItem', edit.id * 1000 + edit.added.length + 1),
        variantId: args.variantId,
        quantity: args.quantity,
      }
      edit.added.push(line)
      return {
        calculatedLineItem: calculatedLineView(ctx, order, line),
        calculatedOrder: calculatedOrderView(ctx, edit, order),
        orderEditSession: sessionView(edit),
        userErrors: [],
      }
    },

    orderEditCommit: ({ id }: { id: string }) => {
      const open = openEdit(ctx, id)
      if (!open) return { order: null, successMessages: null, ...NO_EDIT }
      const { edit, order } = open
      for (const line of edit.added) addToOrder(runtime, shop, order, line.variantId, line.quantity)
      edit.committed = true
      return { order: orderView(ctx, order), successMessages: ['Order updated'], userErrors: [] }
    },
  }
}
