import type { GraphQLResolveInfo } from 'graphql'
import { missingTopicScope, reachOf } from './access'
import { requestCancel, type CancelArgs } from './cancellation'
import type { RequestContext } from './context'
import {
  createFulfillment,
  holdFulfillmentOrder,
  releaseFulfillmentHold,
  updateTracking,
  type FulfillmentInput,
  type HoldInput,
  type TrackingInput,
} from './fulfillments'
import { idempotent } from './idempotency'
import { setQuantities, type InventorySetQuantitiesInput } from './inventory'
import { orderEditMutations } from './order-edits'
import { fulfillmentOrderView, fulfillmentView, orderView, refundView } from './order-views'
import { createOrder, markOrderPaid, type InventoryBehaviour, type OrderInput } from './orders'
import { setProduct, type ProductSetIdentifiers, type ProductSetInput } from './product-set'
import { createRefund, type RefundInput } from './refunds'
import { gid } from './state'
import { adjustmentGroupView, productView, webhookView } from './views'
import { headerTopic, type WebhookTopic } from './webhooks'

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
  /** The fulfillment orders the token's write scopes reach (access.ts). */
  const writes = reachOf(ctx.scopes, 'write')
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

    ...orderEditMutations(ctx),

    orderMarkAsPaid: ({ input }: { input: { id: string } }) => {
      const result = markOrderPaid(runtime, shop, input.id)
      return { order: result.order && orderView(ctx, result.order), userErrors: result.userErrors }
    },

    // refundCreate's userErrors are plain UserErrors: a refused key is told in words alone.
    refundCreate: (args: { input: RefundInput }, _context: unknown, info: GraphQLResolveInfo) =>
      idempotent(ctx, info, args, {
        act: () => {
          const result = createRefund(runtime, shop, args.input)
          return {
            payload: {
              refund: result.order && result.refund && refundView(ctx, result.order, result.refund),
              order: result.order && orderView(ctx, result.order),
              userErrors: result.userErrors,
            },
            made: result.refund && { refundId: result.refund.id },
          }
        },
        // The first call's refund, as it stands now: nothing is refunded or announced again.
        replay: ({ refundId }) => {
          const order = shop.orders.find((o) => o.refunds.some((r) => r.id === refundId))
          const refund = order?.refunds.find((r) => r.id === refundId)
          return order && refund
            ? {
                refund: refundView(ctx, order, refund),
                order: orderView(ctx, order),
                userErrors: [],
              }
            : null
        },
        refuse: ({ message }) => ({
          refund: null,
          order: null,
          userErrors: [{ field: null, message }],
        }),
      }),

    orderCancel: (args: CancelArgs) => {
      const { jobId, userErrors } = requestCancel(runtime, shop, args)
      const plainErrors = userErrors.map(({ field, message }) => ({ field, message }))
      return {
        job: jobId && { id: jobId, done: false },
        orderCancelUserErrors: userErrors,
        userErrors: plainErrors,
      }
    },

    // The emulator sends no emails: notifyCustomer is only counted, and `message` is not read. A
    // fulfillment order the token's write scopes do not cover is not found (access.ts).
    fulfillmentCreate: (args: { fulfillment: FulfillmentInput }) => {
      const result = createFulfillment(runtime, shop, args.fulfillment, writes)
      if ('error' in result) return { fulfillment: null, userErrors: [result.error] }
      void result.announced
      return { fulfillment: fulfillmentView(ctx, result.order, result.fulfillment), userErrors: [] }
    },

    fulfillmentTrackingInfoUpdate: (args: {
      fulfillmentId: string
      trackingInfoInput: TrackingInput
      notifyCustomer?: boolean | null
    }) => {
      const { fulfillmentId, trackingInfoInput, notifyCustomer } = args
      const result = updateTracking(
        runtime,
        shop,
        fulfillmentId,
        trackingInfoInput,
        notifyCustomer ?? false,
        writes,
      )
      if ('error' in result) return { fulfillment: null, userErrors: [result.error] }
      void result.announced
      return { fulfillment: fulfillmentView(ctx, result.order, result.fulfillment), userErrors: [] }
    },

    fulfillmentOrderHold: (args: { id: string; fulfillmentHold: HoldInput }) => {
      const result = holdFulfillmentOrder(runtime, shop, args.id, args.fulfillmentHold, writes)
      if ('error' in result)
        return { fulfillmentHold: null, fulfillmentOrder: null, userErrors: [result.error] }
      void result.announced
      return {
        fulfillmentHold: { __typename: 'FulfillmentHold', ...result.hold },
        fulfillmentOrder: fulfillmentOrderView(ctx, result.order, result.fulfillmentOrder),
        userErrors: [],
      }
    },

    // `externalId` only names the releasing system to the merchant: the emulator does not keep it.
    fulfillmentOrderReleaseHold: ({ id, holdIds }: { id: string; holdIds?: string[] | null }) => {
      const result = releaseFulfillmentHold(runtime, shop, id, { holdIds, reach: writes })
      if ('error' in result) return { fulfillmentOrder: null, userErrors: [result.error] }
      void result.announced
      return {
        fulfillmentOrder: fulfillmentOrderView(ctx, result.order, result.fulfillmentOrder),
        userErrors: [],
      }
    },

    productSet: (args: {
      input: ProductSetInput
      synchronous: boolean
      identifier?: ProductSetIdentifiers | null
    }) => {
      const result = setProduct(runtime, shop, args.input, args.identifier)
      // Answered without waiting for the webhooks, as Shopify's mutations are.
      void result.announced
      if (!args.synchronous) {
        // Shopify answers an operation at once and does the work after: read it with
        // productOperation. The emulator's work is already done by then.
        const operation = runtime.productSetOperations.add(shop, result)
        return { product: null, productSetOperation: operation, userErrors: [] }
      }
      return {
        product: result.product && productView(ctx, result.product),
        productSetOperation: null,
        userErrors: result.userErrors,
      }
    },

    inventorySetQuantities: (
      args: { input: InventorySetQuantitiesInput },
      _context: unknown,
      info: GraphQLResolveInfo,
    ) =>
      idempotent(ctx, info, args, {
        act: () => {
          const result = setQuantities(runtime, shop, args.input)
          void result.announced
          const { group, userErrors } = result
          return {
            payload: {
              inventoryAdjustmentGroup: group && adjustmentGroupView(ctx, group),
              userErrors,
            },
            made: group && { adjustmentGroup: group },
          }
        },
        // The first call's changes, made once.
        replay: ({ adjustmentGroup }) =>
          adjustmentGroup
            ? {
                inventoryAdjustmentGroup: adjustmentGroupView(ctx, adjustmentGroup),
                userErrors: [],
              }
            : null,
        refuse: (refusal) => ({
          inventoryAdjustmentGroup: null,
          userErrors: [{ field: null, ...refusal }],
        }),
      }),

    bulkOperationRunQuery: ({ query }: { query: string }) => runtime.bulk.run(ctx, query),

    webhookSubscriptionCreate: (args: {
      topic: WebhookTopic
      webhookSubscription: WebhookSubscriptionInput
    }) => {
      const uri = args.webhookSubscription.uri ?? args.webhookSubscription.callbackUrl ?? ''
      const refuse = (message: string) => ({
        webhookSubscription: null,
        userErrors: [{ field: ['webhookSubscription', 'uri'], message }],
      })
      const missing = missingTopicScope(ctx.scopes, args.topic)
      if (missing) {
        const message = `You do not have permission to create or update webhooks with ${headerTopic(args.topic)} topic. This topic requires the ${missing} access scope.`
        return { webhookSubscription: null, userErrors: [{ field: ['topic'], message }] }
      }
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

    // A shop's app may delete any subscription of its own: Shopify delivers nothing more to it.
    webhookSubscriptionDelete: ({ id }: { id: string }) => {
      if (!shop.webhooks.some((subscription) => subscription.id === id)) {
        const message = 'Webhook subscription does not exist'
        return { deletedWebhookSubscriptionId: null, userErrors: [{ field: ['id'], message }] }
      }
      shop.webhooks = shop.webhooks.filter((subscription) => subscription.id !== id)
      runtime.save()
      return { deletedWebhookSubscriptionId: id, userErrors: [] }
    },
  }
}
