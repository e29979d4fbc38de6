import type { Runtime } from './context'
import type { OrderRecord, ShopRecord } from './state'

// Shopify's mandatory compliance topics, of which the emulator sends customers/data_request: a
// merchant's "Request customer data" in the admin (a customer asked the shop for their data).
// Shopify posts these to the address the app's configuration names (shopify.app.toml's
// `compliance_topics` subscription), not to webhookSubscriptionCreate subscriptions, for every
// shop that installed the app; signed and retried as the other deliveries are. The payload is
// Shopify's, per https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance
// ("customers/data_request"): shop_id, shop_domain, orders_requested, customer { id, email,
// phone } and data_request { id }.

/** What customers/data_request posts. */
export interface CustomerDataRequest {
  shop_id: number
  shop_domain: string
  orders_requested: number[]
  customer: { id: number; email: string | null; phone: string | null }
  data_request: { id: number }
}

/**
 * The order's customer in the shop: the emulator keeps no customer records, so a customer is an
 * email of the shop's orders, numbered by its first order (ids are global in Shopify, hence the
 * shop's number in front). The same on every run, and the same for each of the customer's orders.
 */
function customerOf(shop: ShopRecord, order: OrderRecord) {
  const emails = [...new Set(shop.orders.map((candidate) => candidate.email))]
  return {
    id: shop.numericId * 100_000 + emails.indexOf(order.email) + 1,
    email: order.email,
    phone: order.shippingAddress?.phone ?? null,
  }
}

/**
 * The merchant asks for the data of the order's customer: Shopify sends the app
 * customers/data_request at `uri` naming every order of that customer in the shop. Resolves with
 * the payload once its first attempt was made.
 */
export async function requestCustomerData(
  runtime: Runtime,
  shop: ShopRecord,
  order: OrderRecord,
  uri: string,
): Promise<CustomerDataRequest> {
  const customer = customerOf(shop, order)
  const state = runtime.state
  // Absent in a state file written before data requests.
  state.lastIds.dataRequest = (state.lastIds.dataRequest ?? 0) + 1
  runtime.save()
  const payload: CustomerDataRequest = {
    shop_id: shop.numericId,
    shop_domain: shop.domain,
    orders_requested: shop.orders
      .filter((candidate) => candidate.email === order.email)
      .map((candidate) => candidate.id),
    customer,
    data_request: { id: state.lastIds.dataRequest },
  }
  const topic = 'CUSTOMERS_DATA_REQUEST'
  const configured = { id: 'app-configuration', topic, uri, createdAt: '' }
  await runtime.webhooks.deliver(shop, topic, payload, [configured])
  return payload
}
