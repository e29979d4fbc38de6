import type { FastifyInstance } from 'fastify'
import { SHOP_DOMAIN_PATTERN } from '@shared/contract'
import type { CreatorOrderHeader } from '../adapters/commerce/commerce-port'
import { webhookHmacValid } from '../adapters/commerce/shopify/shopify-hmac'
import { WEBHOOK_PATH } from '../adapters/commerce/shopify/shopify-webhooks'
import type { StoreProductsTable } from '../db/schema'
import type { RouteDeps } from '../deps'
import { toMinorUnits } from '../domain/money'
import { HttpError } from '../http/errors'
import { findAppConfig } from '../repositories/app-configs'
import { indexCreatorOrder, indexCreatorOrderShop } from '../repositories/creator-orders'
import { findStoreType } from '../repositories/stores'

// POST /webhooks/shopify: what connected shops tell Tandem. Authenticated by Shopify's signature
// of the raw body with the shop's client secret, not by an admin token. Each delivery is answered
// at once and acted on after (Shopify gives up on an answer slower than 5 s and sends it again);
// a delivery Shopify repeats, same X-Shopify-Webhook-Id, is answered and ignored.

const WEBHOOK_BODY_LIMIT = 10_000_000

const BAD_SIGNATURE =
  'The webhook is not signed by Shopify with the app of the shop it names (X-Shopify-Hmac-Sha256)'

export function registerShopifyWebhookRoute(app: FastifyInstance, deps: RouteDeps): void {
  // In a scope of its own: only here is JSON kept as the bytes Shopify signed.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    )
    // A product with many variants makes a large body; Shopify drops a subscription refused often.
    scope.post(WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name]
        return typeof value === 'string' ? value : undefined
      }
      const shop = header('x-shopify-shop-domain') ?? ''
      const config = SHOP_DOMAIN_PATTERN.test(shop)
        ? await findAppConfig(deps.db, deps.secrets, shop)
        : null
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = header('x-shopify-hmac-sha256')
      if (!config || !webhookHmacValid(body, signature, config.clientSecret)) {
        throw new HttpError(401, BAD_SIGNATURE)
      }
      const webhookId = header('x-shopify-webhook-id')
      const topic = header('x-shopify-topic')
      if (!webhookId || !topic) {
        throw new HttpError(400, 'X-Shopify-Webhook-Id and X-Shopify-Topic are required')
      }
      const first = await deps.db
        .insertInto('webhook_deliveries')
        .values({ webhook_id: webhookId, shop, topic, received_at: deps.now().toISOString() })
        .onConflict((conflict) => conflict.column('webhook_id').doNothing())
        .executeTakeFirst()
      if (first.numInsertedOrUpdatedRows === 0n) return reply.send({ received: 'again, ignored' })
      setImmediate(() => {
        act(deps, shop, topic, body).catch((error: unknown) =>
          request.log.error({ shop, topic, webhookId, error }, 'a Shopify webhook failed'),
        )
      })
      return reply.send({ received: true })
    })
  })
}

/** What each topic changes. */
async function act(deps: RouteDeps, shop: string, topic: string, body: Buffer): Promise<void> {
  const payload = JSON.parse(body.toString('utf8')) as { id?: number }
  switch (topic) {
    case 'orders/paid':
      // The creator-order index: the order's shop, known without asking every creator shop.
      // Only a creator's orders are creator orders.
      if (typeof payload.id === 'number' && (await findStoreType(deps.db, shop)) === 'CREATOR') {
        const order = paidOrderHeader(shop, payload as PaidPayload)
        // A payload short of what the inbox lists still tells where the order is.
        if (order) await indexCreatorOrder(deps.db, order)
        else await indexCreatorOrderShop(deps.db, payload.id, shop)
      }
      return
    case 'app/uninstalled':
      await deps.shopify.connections.forget(shop)
      return
    case 'products/delete':
      if (typeof payload.id === 'number') {
        await deps.db
          .deleteFrom('store_products')
          .where('store_shop', '=', shop)
          .where('product_id', '=', `gid://shopify/Product/${payload.id}`)
          .execute()
      }
      return
    case 'products/update':
      await updateProduct(deps, shop, payload as RestProduct)
      return
    default:
      // Nothing else is subscribed to.
      return
  }
}

/** A product as Shopify's webhooks carry it (the REST shape). */
interface RestProduct {
  id: number
  title: string
  status: string
  variants: { price: string }[]
}

/**
 * Keeps the stored product in step. A store never synced is left alone: its first sync reads
 * everything, in the store's currency, which only a sync has told (the payload does not).
 */
async function updateProduct(deps: RouteDeps, shop: string, product: RestProduct) {
  const known = await deps.db
    .selectFrom('store_products')
    .select('currency')
    .where('store_shop', '=', shop)
    .limit(1)
    .executeTakeFirst()
  if (!known || product.variants.length === 0) return
  const status = product.status.toUpperCase() as StoreProductsTable['status']
  const row = {
    title: product.title,
    status,
    variant_count: product.variants.length,
    min_price_minor: Math.min(
      ...product.variants.map((variant) => toMinorUnits(variant.price, known.currency)),
    ),
    currency: known.currency,
    seen_at: deps.now().toISOString(),
  }
  await deps.db
    .insertInto('store_products')
    .values({ store_shop: shop, product_id: `gid://shopify/Product/${product.id}`, ...row })
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
    typeof id !== 'number' ||
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

/** The fields of Shopify's REST order that the index keeps. */
interface PaidPayload {
  id?: unknown
  name?: unknown
  created_at?: unknown
  currency?: unknown
  presentment_currency?: unknown
  total_price?: unknown
  total_price_set?: { presentment_money?: { amount?: unknown; currency_code?: unknown } }
}
