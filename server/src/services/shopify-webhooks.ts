import { once } from 'node:events'
import {
  CommerceError,
  type CommerceProduct,
  type CreatorOrderHeader,
} from '../adapters/commerce/commerce-port'
import type {
  ProductPayload,
  WebhookPayload,
} from '../adapters/commerce/shopify/shopify-webhook-payloads'
import type { RouteDeps } from '../deps'
import { toMinorUnits } from '../domain/money'
import {
  findIndexedShop,
  indexCreatorOrder,
  indexCreatorOrderShop,
} from '../repositories/creator-orders'
import { findShopConnection } from '../repositories/shop-connections'
import {
  deleteStoreProduct,
  findStoreProductsCurrency,
  upsertStoreProducts,
} from '../repositories/store-products'
import { findStoreType } from '../repositories/stores'
import { recordWebhookDelivery } from '../repositories/webhook-deliveries'

// What each signed delivery, checked against its topic, changes in Tandem (routes/shopify-webhooks.ts
// checks it). An uninstall is acted on before the delivery is answered, so that a failure is
// answered and Shopify sends it again; the other topics after the answer, where every failure is
// only logged by the route (a durable queue of them is issue #31). Shopify's calls: not audited.

type Deps = Pick<RouteDeps, 'db' | 'shopify' | 'now'>

/** Where what is worth knowing but changes no answer goes: the request's log. */
interface Log {
  warn(details: object, message: string): void
}

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
export async function actOnUninstall(deps: Deps, shop: string, log: Log): Promise<void> {
  const signal = AbortSignal.timeout(UNINSTALL_CONFIRMATION_MS)
  const timedOut = once(signal, 'abort').then(() => {
    throw new CommerceError(`Shopify did not answer within ${UNINSTALL_CONFIRMATION_MS} ms`)
  })
  const confirmed = await Promise.race([uninstallConfirmed(deps, shop, signal), timedOut])
  if (confirmed) await deps.shopify.connections.forget(shop)
  else log.warn({ shop }, 'app/uninstalled not confirmed by Shopify: the shop stays connected')
}

/**
 * Whether Shopify confirms that the app is gone from the shop. A shop Tandem holds no token for
 * has nothing to confirm (asking would connect it).
 */
async function uninstallConfirmed(deps: Deps, shop: string, signal: AbortSignal) {
  const connection = await findShopConnection(deps.db, shop)
  if (!connection?.holdsAccessToken) return false
  return !(await deps.shopify.installation.installed(shop, signal))
}

/**
 * Records the delivery, so that it is acted on once: false when Shopify sent it before (under
 * the same X-Shopify-Webhook-Id).
 */
export const recordDelivery = (
  deps: Pick<Deps, 'db' | 'now'>,
  delivery: { webhookId: string; shop: string; topic: string },
): Promise<boolean> => recordWebhookDelivery(deps.db, delivery, deps.now().toISOString())

export async function actOnWebhook(
  deps: Deps,
  shop: string,
  payload: AnsweredPayload,
  log: Log,
): Promise<void> {
  switch (payload.topic) {
    case 'orders/paid':
      await indexPaidOrder(deps, shop, payload.body, log)
      return
    case 'products/delete':
      await deleteStoreProduct(deps.db, shop, `gid://shopify/Product/${payload.body.id}`)
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
async function indexPaidOrder(deps: Deps, shop: string, body: PaidPayload, log: Log) {
  if ((await findStoreType(deps.db, shop)) !== 'CREATOR') return
  const known = await findIndexedShop(deps.db, body.id)
  if (known !== null && known !== shop) {
    log.warn({ shop, orderId: body.id, of: known }, 'orders/paid of another shop ignored')
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
async function updateProduct(deps: Deps, shop: string, product: ProductPayload) {
  const currency = await findStoreProductsCurrency(deps.db, shop)
  if (currency === null || product.variants.length === 0) return
  const stored: CommerceProduct = {
    id: product.admin_graphql_api_id,
    title: product.title,
    // The REST body writes statuses in lower case ("unlisted"); the Admin API in upper case.
    status: product.status.toUpperCase(),
    variantCount: product.variants.length,
    // Not Math.min(...prices): a 4 MB body can hold more variants than a call takes arguments.
    minPriceMinor: product.variants.reduce(
      (least, variant) => Math.min(least, toMinorUnits(variant.price, currency)),
      Infinity,
    ),
    currency,
    imageUrl: product.image?.src ?? null,
  }
  await upsertStoreProducts(deps.db, shop, [stored], deps.now().toISOString())
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
