import type { CommerceProduct, CreatorOrderHeader } from '../adapters/commerce/commerce-port'
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
  upsertStoreProductIfNewer,
} from '../repositories/store-products'
import { findStoreType } from '../repositories/stores'
import { scheduleAutomaticTransfer } from './automatic-transfers'
import { answerDataRequest, redactCustomer, redactShop, type SignedDelivery } from './privacy'

// What each signed delivery, checked against its topic, changes in Tandem. Run by the delivery's
// job (services/webhook-inbox.ts), after the delivery was recorded and answered: a failure throws,
// and the job is retried. Each action bears running twice (a worker may die after acting and
// before the delivery is marked done). Shopify's calls: not audited, but for the compliance
// topics (services/privacy.ts), which the law asks Tandem to account for.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'shopify' | 'now'>

/** Where what is worth knowing but changes no outcome goes: the job's log. */
export interface Log {
  warn(details: object, message: string): void
}

/**
 * Forgets the shop's connection once Shopify confirms the app is gone; a signed uninstall body
 * may be an old one sent again, so the body alone is not enough. Throws a CommerceError when
 * Shopify could not say, so that the job asks again later.
 */
async function actOnUninstall(deps: Deps, shop: string, log: Log, signal: AbortSignal) {
  const connection = await findShopConnection(deps.db, shop)
  // A shop Tandem holds no token for has nothing to confirm (asking would connect it).
  if (!connection?.holdsAccessToken) return
  if (await deps.shopify.installation.installed(shop, signal)) {
    log.warn({ shop }, 'app/uninstalled not confirmed by Shopify: the shop stays connected')
    return
  }
  await deps.shopify.connections.forget(shop)
}

export async function actOnWebhook(
  deps: Deps,
  delivery: SignedDelivery,
  payload: WebhookPayload,
  log: Log,
  signal: AbortSignal,
): Promise<void> {
  const { shop } = delivery
  switch (payload.topic) {
    case 'app/uninstalled':
      await actOnUninstall(deps, shop, log, signal)
      return
    case 'orders/paid':
      await indexPaidOrder(deps, delivery, payload.body, log)
      return
    case 'products/delete':
      await deleteStoreProduct(deps.db, shop, `gid://shopify/Product/${payload.body.id}`)
      return
    case 'products/update':
      await updateProduct(deps, shop, payload.body)
      return
    case 'customers/data_request':
      await answerDataRequest(deps, delivery, payload.body)
      return
    case 'customers/redact':
      await redactCustomer(deps, delivery, payload.body)
      return
    case 'shop/redact':
      await redactShop(deps, delivery, log, signal)
      return
  }
}

/**
 * The creator-order index: the order's shop, known without asking every creator shop. Only a
 * creator's orders are creator orders, and a shop signs for its own orders only (a creator holds
 * its app's secret and can sign any body): an order Tandem knows in another shop stays there.
 * Paid when the delivery came, the order is put on the queue if the policy makes it automatic:
 * its processing still reads the order from Shopify and checks its payment with Stripe, so a
 * signed body claiming a payment moves nothing by itself.
 */
async function indexPaidOrder(
  deps: Deps,
  { shop, receivedAt }: SignedDelivery,
  body: PaidPayload,
  log: Log,
) {
  if ((await findStoreType(deps.db, shop)) !== 'CREATOR') return
  const known = await findIndexedShop(deps.db, body.id)
  if (known !== null && known !== shop) {
    log.warn({ shop, orderId: body.id, of: known }, 'orders/paid of another shop ignored')
    return
  }
  const order = paidOrderHeader(shop, body)
  await deps.db.transaction().execute(async (trx) => {
    // A payload short of what the inbox lists still tells where the order is.
    if (order) await indexCreatorOrder(trx, order)
    else await indexCreatorOrderShop(trx, body.id, shop)
    const creatorOrder = { creatorOrderId: String(body.id), storeShop: shop }
    await scheduleAutomaticTransfer(deps, trx, creatorOrder, new Date(receivedAt))
  })
}

/**
 * Keeps the stored product in step, unless Tandem holds a newer version of it. A store never
 * synced is left alone: its first sync reads everything, in the store's currency, which only a
 * sync has told (the payload does not).
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
    updatedAt: product.updated_at,
  }
  await upsertStoreProductIfNewer(deps.db, shop, stored, deps.now().toISOString())
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
