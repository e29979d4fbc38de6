import type { FastifyBaseLogger } from 'fastify'
import { once } from 'node:events'
import { CommerceError, type CreatorOrderHeader } from '../adapters/commerce/commerce-port'
import type {
  ProductPayload,
  WebhookPayload,
} from '../adapters/commerce/shopify/shopify-webhook-payloads'
import type { RouteDeps } from '../deps'
import { toMinorUnits } from '../domain/money'
import { indexCreatorOrder, indexCreatorOrderShop } from '../repositories/creator-orders'
import { findStoreType } from '../repositories/stores'

// What each signed delivery, checked against its topic, changes in Tandem. An uninstall is acted
// on before the delivery is answered, so that a failure is answered and Shopify sends it again;
// the other topics after the answer, where every failure is only logged by the route (a durable
// queue of them is issue #31).

/**
 * Shopify waits 5 s for an answer, the body's arrival included: its word on an uninstall is
 * awaited this long at most, then the delivery is refused and sent again later.
 */
export const UNINSTALL_CONFIRMATION_MS = 3000

/** The topics acted on after the answer. */
export type AnsweredPayload = Exclude<WebhookPayload, { topic: 'app/uninstalled' }>

/**
 * Forgets the shop's connection once Shopify confirms the app is gone; a signed uninstall body
 * may be an old one sent again, so the body alone is not enough. Throws a CommerceError when
 * Shopify could not say in time.
 */
export async function actOnUninstall(
  deps: RouteDeps,
  shop: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const signal = AbortSignal.timeout(UNINSTALL_CONFIRMATION_MS)
  const timedOut = once(signal, 'abort').then(() => {
    throw new CommerceError(`Shopify did not answer within ${UNINSTALL_CONFIRMATION_MS} ms`)
  })
  const confirmed = await Promise.race([
    deps.shopify.status.uninstallConfirmed(shop, signal),
    timedOut,
  ])
  if (confirmed) await deps.shopify.connections.forget(shop)
  else log.warn({ shop }, 'app/uninstalled not confirmed by Shopify: the shop stays connected')
}

export async function actOnWebhook(
  deps: RouteDeps,
  shop: string,
  payload: AnsweredPayload,
  log: FastifyBaseLogger,
): Promise<void> {
  switch (payload.topic) {
    case 'orders/paid':
      await indexPaidOrder(deps, shop, payload.body, log)
      return
    case 'products/delete':
      await deps.db
        .deleteFrom('store_products')
        .where('store_shop', '=', shop)
        .where('product_id', '=', `gid://shopify/Product/${payload.body.id}`)
        .execute()
      return
    case 'products/update':
      await updateProduct(deps, shop, payload.body)
      return
  }
}

/**
 * The creator-order index: the order's shop, known without asking every creator shop. Only a
 * creator's orders are creator orders, and a shop signs for its own orders only (a creator holds
 * its app's secret and can sign any body): an order Tandem knows in another shop stays there.
 */
async function indexPaidOrder(
  deps: RouteDeps,
  shop: string,
  body: PaidPayload,
  log: FastifyBaseLogger,
): Promise<void> {
  if ((await findStoreType(deps.db, shop)) !== 'CREATOR') return
  const known = await deps.db
    .selectFrom('creator_order_index')
    .select('store_shop')
    .where('order_id', '=', body.id)
    .executeTakeFirst()
  if (known && known.store_shop !== shop) {
    log.warn(
      { shop, orderId: body.id, of: known.store_shop },
      'orders/paid of another shop ignored',
    )
    return
  }
  const order = paidOrderHeader(shop, body)
  // A payload short of what the inbox lists still tells where the order is.
  if (order) await indexCreatorOrder(deps.db, order)
  else await indexCreatorOrderShop(deps.db, body.id, shop)
}

/**
 * Keeps the stored product in step. A store never synced is left alone: its first sync reads
 * everything, in the store's currency, which only a sync has told (the payload does not).
 */
async function updateProduct(deps: RouteDeps, shop: string, product: ProductPayload) {
  const known = await deps.db
    .selectFrom('store_products')
    .select('currency')
    .where('store_shop', '=', shop)
    .limit(1)
    .executeTakeFirst()
  if (!known || product.variants.length === 0) return
  const row = {
    title: product.title,
    // The REST body writes statuses in lower case ("unlisted"); the Admin API in upper case.
    status: product.status.toUpperCase(),
    variant_count: product.variants.length,
    // Not Math.min(...prices): a 4 MB body can hold more variants than a call takes arguments.
    min_price_minor: product.variants.reduce(
      (least, variant) => Math.min(least, toMinorUnits(variant.price, known.currency)),
      Infinity,
    ),
    currency: known.currency,
    seen_at: deps.now().toISOString(),
  }
  await deps.db
    .insertInto('store_products')
    .values({ store_shop: shop, product_id: product.admin_graphql_api_id, ...row })
    .onConflict((conflict) => conflict.columns(['store_shop', 'product_id']).doUpdateSet(row))
    .execute()
}

/**
 * The order an orders/paid payload describes, in the currency the customer paid in (its
 * presentment money when the payload carries it); null when malformed.
 */
function paidOrderHeader(shop: string, payload: PaidPayload): CreatorOrderHeader | null {
  const presentment = payload.total_price_set?.presentment_money
  const total = presentment?.amount ?? payload.total_price
  const currency = presentment?.currency_code ?? payload.presentment_currency ?? payload.currency
  const { id, name, created_at: createdAt } = payload
  if (
    typeof name !== 'string' ||
    typeof createdAt !== 'string' ||
    typeof currency !== 'string' ||
    typeof total !== 'string' ||
    Number.isNaN(Date.parse(createdAt))
  ) {
    return null
  }
  try {
    const totalMinor = toMinorUnits(total, currency)
    const at = new Date(createdAt).toISOString()
    return { id, storeShop: shop, name, createdAt: at, currency, totalMinor }
  } catch {
    return null
  }
}

/** The fields of Shopify's REST order that the index keeps, beyond its checked id. */
interface PaidPayload {
  id: number
  name?: unknown
  created_at?: unknown
  currency?: unknown
  presentment_currency?: unknown
  total_price?: unknown
  total_price_set?: { presentment_money?: { amount?: unknown; currency_code?: unknown } }
}
