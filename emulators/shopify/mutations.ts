import type { GraphQLResolveInfo } from 'graphql'
import { missingTopicScope } from './access'
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
import {
  fingerprintOf,
  idempotencyKey,
  PREVIOUS_ATTEMPT_FAILED,
  recall,
  remember,
} from './idempotency'
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

const KEY_REUSED = 'The same idempotency key cannot be used with different operation parameters.'

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

    ...orderEditMutations(ctx),

    orderMarkAsPaid: ({ input }: { input: { id: string } }) => {
      const result = markOrderPaid(runtime, shop, input.id)
      return { order: result.order && orderView(ctx, result.order), userErrors: result.userErrors }
    },

    refundCreate: (args: { input: RefundInput }, _context: unknown, info: GraphQLResolveInfo) => {
      const key = idempotencyKey(info)
      const fingerprint = fingerprintOf(args)
      const seen = recall(shop, key, fingerprint)
      if (seen === 'failed before' || seen === 'other arguments') {
        const message = seen === 'failed before' ? PREVIOUS_ATTEMPT_FAILED : KEY_REUSED
        return { refund: null, order: null, userErrors: [{ field: null, message }] }
      }
      const refundId = seen?.refundId
      if (refundId) {
        // The first call's refund, as it stands now: nothing is refunded or announced again.
        const order = shop.orders.find((o) => o.refunds.some((r) => r.id === refundId))
        const refund = order?.refunds.find((r) => r.id === refundId)
        if (order && refund)
          return {
            refund: refundView(ctx, order, refund),
            order: orderView(ctx, order),
            userErrors: [],
          }
      }
      const result = createRefund(runtime, shop, args.input)
      const made = result.refund ? { refundId: result.refund.id } : { failed: true }
      remember(shop, { key, fingerprint, ...made })
      runtime.save()
      return {
        refund: result.order && result.refund && refundView(ctx, result.order, result.refund),
        order: result.order && orderView(ctx, result.order),
        userErrors: result.userErrors,
      }
    },

    orderCancel: (args: CancelArgs) => {
      const { jobId, userErrors } = requestCancel(runtime, shop, args)
      const plainErrors = userErrors.map(({ field, message }) => ({ field, message }))
      return {
        job: jobId && { id: jobId, done: false },
        orderCancelUserErrors: userErrors,
        userErrors: plainErrors,
      }
    },

    // The emulator sends no emails: notifyCustomer is only counted, and `message` is not read.
    fulfillmentCreate: (args: { fulfillment: FulfillmentInput }) => {
      const result = createFulfillment(runtime, shop, args.fulfillment)
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
      )
      if ('error' in result) return { fulfillment: null, userErrors: [result.error] }
      void result.announced
      return { fulfillment: fulfillmentView(ctx, result.order, result.fulfillment), userErrors: [] }
    },

    fulfillmentOrderHold: (args: { id: string; fulfillmentHold: HoldInput }) => {
      const result = holdFulfillmentOrder(runtime, shop, args.id, args.fulfillmentHold)
      if ('error' in result)
        return { fulfillmentHold: null, fulfillmentOrder: null, userErrors: [result.error] }
      void result.announced
      return {
        fulfillmentHold: { __typename: 'FulfillmentHold', ...result.hold },
        fulfillmentOrder: fulfillmentOrderView(ctx, result.order, result.fulfillmentOrder),
        userErrors: [],
      }
    },

    fulfillmentOrderReleaseHold: ({ id }: { id: string }) => {
      const result = releaseFulfillmentHold(runtime, shop, id)
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
    ) => {
      const key = idempotencyKey(info)
      const fingerprint = fingerprintOf({ inventorySetQuantities: args })
      const seen = recall(shop, key, fingerprint)
      if (seen === 'failed before' || seen === 'other arguments') {
        const userErrors = [
          seen === 'failed before'
            ? {
                field: null,
                message: PREVIOUS_ATTEMPT_FAILED,
                code: 'IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED',
              }
            : { field: null, message: KEY_REUSED, code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH' },
        ]
        return { inventoryAdjustmentGroup: null, userErrors }
      }
      // The first call's changes, made once.
      if (seen?.adjustmentGroup)
        return {
          inventoryAdjustmentGroup: adjustmentGroupView(ctx, seen.adjustmentGroup),
          userErrors: [],
        }
      const result = setQuantities(runtime, shop, args.input)
      void result.announced
      if (result.group) {
        remember(shop, { key, fingerprint, adjustmentGroup: result.group })
        runtime.save()
      }
      return {
        inventoryAdjustmentGroup: result.group && adjustmentGroupView(ctx, result.group),
        userErrors: result.userErrors,
      }
    },

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
