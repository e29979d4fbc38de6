import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ShopifyEmulator } from './emulator'
import { json, readBody, send, type Answer } from './http'
import { orderSummary } from './merchant'
import { orderTotals } from './order-figures'
import { findOrder } from './orders'
import type { EmulatorState } from './state'

// What a merchant does in the Shopify admin, over HTTP, for `npm run sandbox` (scripts/sandbox.ts),
// which runs apart from the stack's process: `POST /_admin/{shop}/{control}` with a JSON body
// calls the emulator's control of that name, so the change is made and announced (webhooks) as a
// test's call of the control makes it. Shopify has no such routes (its admin is a web page a
// person clicks in); each stands for those clicks. Refused: 422 with the control's own sentence.

type Body = Record<string, unknown>
type Control = (
  emulator: ShopifyEmulator,
  state: EmulatorState,
  shop: string,
  body: Body,
) => Promise<unknown>

const text = (body: Body, name: string): string => {
  const value = body[name]
  if (typeof value !== 'string' || value === '') throw new Error(`${name} is required`)
  return value
}

/** An order as the sandbox's controls read it: with its total and the payment it names. */
const orderWithPayment = (state: EmulatorState, shop: string, id: string) => {
  const order = findOrder(state.shops[shop]!, id)
  if (!order) throw new Error(`${shop} has no order ${id}`)
  const payment = order.metafields.find(
    (m) => m.namespace === 'tandem' && m.key === 'payment_intent',
  )
  return {
    ...orderSummary(order),
    totalMinor: orderTotals(order).totalMinor,
    paymentIntent: payment?.value ?? null,
  }
}

const CONTROLS: Record<string, Control> = {
  orders: async (emulator, state, shop) => ({
    orders: emulator.orders(shop).map((order) => orderWithPayment(state, shop, order.id)),
  }),
  /** The customer checks out: the order waits for its payment (`pay`). */
  'create-order': async (emulator, state, shop, body) => {
    const lines = body.lines as { variantId: string; quantity: number }[]
    const id = await emulator.createCustomerOrder(shop, { lines, financialStatus: 'PENDING' })
    return { order: orderWithPayment(state, shop, id) }
  },
  /**
   * The checkout's payment went through: the order names its PaymentIntent (metafieldsSet) and is
   * marked as paid (orderMarkAsPaid), which announces it on orders/paid.
   */
  pay: async (emulator, state, shop, body) => {
    const orderId = text(body, 'orderId')
    const order = findOrder(state.shops[shop]!, orderId)
    if (!order) throw new Error(`${shop} has no order ${orderId}`)
    const value = text(body, 'paymentIntent')
    order.metafields = [
      ...order.metafields.filter((m) => !(m.namespace === 'tandem' && m.key === 'payment_intent')),
      { namespace: 'tandem', key: 'payment_intent', value, type: 'single_line_text_field' },
    ]
    await emulator.markAsPaid(shop, orderId)
    return { order: orderWithPayment(state, shop, orderId) }
  },
  refund: async (emulator, _state, shop, body) => {
    const orderId = text(body, 'orderId')
    const lines = body.lines as { line: number; quantity: number }[]
    await emulator.refund(shop, orderId, lines, { restockType: 'RETURN' })
    return { refund: emulator.refunds(shop, orderId).at(-1) }
  },
  refunds: async (emulator, _state, shop, body) => ({
    refunds: emulator.refunds(shop, text(body, 'orderId')),
  }),
  cancel: async (emulator, _state, shop, body) => {
    const orderId = text(body, 'orderId')
    await emulator.cancel(shop, orderId, { refund: true, restock: true, reason: 'CUSTOMER' })
    return { refunds: emulator.refunds(shop, orderId) }
  },
  fulfill: async (emulator, _state, shop, body) => {
    const tracking = { company: body.company as string | undefined, number: text(body, 'tracking') }
    const fulfillmentId = await emulator.fulfill(shop, text(body, 'orderId'), { tracking })
    return { fulfillmentId }
  },
  hold: async (emulator, _state, shop, body) => {
    await emulator.holdFulfillment(shop, text(body, 'orderId'), 'OTHER', body.notes as string)
    return {}
  },
  'edit-variant': async (emulator, _state, shop, body) => {
    await emulator.editVariant(shop, text(body, 'variantId'), {
      priceMinor: Number(body.priceMinor),
    })
    return {}
  },
  /** A customer asked the shop for their data: Shopify sends the app customers/data_request. */
  'data-request': async (emulator, _state, shop, body) => ({
    dataRequest: await emulator.requestCustomerData(shop, text(body, 'orderId')),
  }),
  'set-stock': async (emulator, _state, shop, body) => {
    await emulator.setStock(shop, text(body, 'variantId'), Number(body.available))
    return {}
  },
}

/** The admin controls' answer, or undefined when the request is not one of theirs. */
export async function answerAdminControl(
  emulator: ShopifyEmulator,
  state: EmulatorState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const [, shop = '', name = ''] = /^\/_admin\/([^/]+)\/([a-z-]+)$/.exec(request.url ?? '') ?? []
  if (!shop || request.method !== 'POST') return false
  const control = CONTROLS[name]
  let answer: Answer
  if (!control) answer = json(404, { errors: `No admin control ${name}` })
  else if (!state.shops[shop]) answer = json(404, { errors: `The emulator has no shop ${shop}` })
  else {
    try {
      const raw = await readBody(request)
      answer = json(200, await control(emulator, state, shop, raw ? (JSON.parse(raw) as Body) : {}))
    } catch (error) {
      answer = json(422, { errors: error instanceof Error ? error.message : String(error) })
    }
  }
  send(response, answer)
  return true
}
