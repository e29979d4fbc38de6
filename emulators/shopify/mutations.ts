import type { RequestContext } from './context'
import { createOrder, markOrderPaid, type InventoryBehaviour, type OrderInput } from './orders'
import { gid } from './state'
import { orderView, webhookView } from './views'

// The Mutation root. Refusals are userErrors in the payload, as Shopify answers them; only a
// malformed request is a GraphQL error.

interface WebhookSubscriptionInput {
  uri?: string | null
  /** Deprecated by Shopify in favour of `uri`, still accepted. */
  callbackUrl?: string | null
}

function validAddress(uri: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(uri).protocol)
  } catch {
    return false
  }
}

export function mutationRoot(ctx: RequestContext) {
  const { shop, runtime } = ctx
  return {
    // The emulator sends no receipts, so sendReceipt and sendFulfillmentReceipt change nothing.
    orderCreate: (args: {
      order: OrderInput
      options: { inventoryBehaviour: InventoryBehaviour } | null
    }) => {
      const inventoryBehaviour = args.options?.inventoryBehaviour ?? 'BYPASS'
      const result = createOrder(runtime, shop, args.order, {
        inventoryBehaviour,
        financialStatus: 'PENDING',
      })
      return { order: result.order && orderView(ctx, result.order), userErrors: result.userErrors }
    },

    orderMarkAsPaid: ({ input }: { input: { id: string } }) => {
      const result = markOrderPaid(runtime, shop, input.id)
      return { order: result.order && orderView(ctx, result.order), userErrors: result.userErrors }
    },

    bulkOperationRunQuery: ({ query }: { query: string }) => runtime.bulk.run(ctx, query),

    webhookSubscriptionCreate: (args: {
      topic: string
      webhookSubscription: WebhookSubscriptionInput
    }) => {
      const uri = args.webhookSubscription.uri ?? args.webhookSubscription.callbackUrl ?? ''
      const refuse = (message: string) => ({
        webhookSubscription: null,
        userErrors: [{ field: ['webhookSubscription', 'uri'], message }],
      })
      if (!validAddress(uri)) return refuse('Address is invalid')
      if (shop.webhooks.some((w) => w.topic === args.topic && w.uri === uri))
        return refuse('Address for this topic has already been taken')
      const subscription = {
        id: gid('WebhookSubscription', ++runtime.state.lastIds.webhook),
        topic: args.topic,
        uri,
        createdAt: new Date().toISOString(),
      }
      shop.webhooks.push(subscription)
      runtime.save()
      return { webhookSubscription: webhookView(subscription), userErrors: [] }
    },
  }
}
