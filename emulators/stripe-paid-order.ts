import { randomBytes } from 'node:crypto'
import type { CustomerOrder, ShopifyEmulator } from './shopify/emulator'
import type { StripeEmulator } from './stripe/emulator'

// A customer's order paid through the platform's Stripe checkout, as tests and benchmarks make
// one: the order names its PaymentIntent in the `tandem.payment_intent` metafield, and the
// intent names the order in the metadata only the platform writes.

export async function createStripePaidOrder(
  emulators: { shopify: ShopifyEmulator; stripe: StripeEmulator },
  shop: string,
  order: Omit<CustomerOrder, 'metafields'>,
  payment: { amountMinor: number; currency: string },
): Promise<{ orderId: string; intentId: string; chargeId: string }> {
  // Its id is chosen first: the order names the intent, and the intent the order.
  const intentId = `pi_test_${randomBytes(12).toString('hex')}`
  const gid = await emulators.shopify.createCustomerOrder(shop, {
    ...order,
    metafields: [{ namespace: 'tandem', key: 'payment_intent', value: intentId }],
  })
  const orderId = gid.split('/').pop()!
  const { chargeId } = emulators.stripe.addPaymentIntent({
    id: intentId,
    amount: payment.amountMinor,
    currency: payment.currency,
    metadata: { creator_shop: shop, creator_order_id: orderId },
  })
  return { orderId, intentId, chargeId }
}
