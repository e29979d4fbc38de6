import type { Insertable } from 'kysely'
import type { Db } from '../../db/connect'
import type { CommerceOrdersTable } from '../../db/schema'
import { orderGid, orderNumber } from '../../transfers/order-gid'
import { underScriptedFault, type SandboxOperation } from '../sandbox-faults'
import {
  CommerceError,
  type CommerceAddress,
  type CommerceOrder,
  type CommercePort,
} from './commerce-port'

// The sandbox commerce platform: Shopify's behaviour, as far as the server relies on it, kept in
// the server's own database (commerce_* tables) so that `npm start` and the tests need no network.
// As strict as Shopify where it bites (a paid order is not marked as paid again), with the faults
// a test scripts (src/adapters/sandbox-faults.ts).

/** Line ids of new orders: the order id times this plus the position (brand orders are short). */
const LINES_PER_ORDER_ID = 1000

export function createSandboxCommerce(db: Db): CommercePort {
  const scripted = <T>(operation: SandboxOperation, shop: string, run: () => Promise<T>) =>
    underScriptedFault(db, operation, shop, run, (message) => new CommerceError(message))

  const port: CommercePort = {
    async syncProducts(shop) {
      const { count } = await db
        .selectFrom('commerce_products')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('store_shop', '=', shop)
        .executeTakeFirstOrThrow()
      return { productCount: Number(count) }
    },

    async findCreatorOrder(orderId) {
      const order = await db
        .selectFrom('commerce_orders')
        .selectAll()
        .where('id', '=', orderId)
        .executeTakeFirst()
      if (!order) return null
      // A creator product is a copy of a brand variant: the copy's source names the brand's
      // variant, and that variant's store is the brand.
      const lines = await db
        .selectFrom('commerce_order_lines as line')
        .leftJoin('commerce_variants as copy', 'copy.id', 'line.variant_id')
        .leftJoin('commerce_variants as brand', 'brand.id', 'copy.source_variant_id')
        .select([
          'line.id',
          'line.title',
          'line.quantity',
          'line.unit_price_minor',
          'line.discount_minor',
          'line.image_url',
          'brand.id as brand_variant_id',
          'brand.store_shop as brand_store_shop',
        ])
        .where('line.order_id', '=', orderId)
        .orderBy('line.position')
        .execute()
      const result: CommerceOrder = {
        id: Number(order.id),
        name: order.name,
        email: order.email,
        createdAt: order.created_at,
        storeShop: order.store_shop,
        currency: order.currency,
        subtotalMinor: order.subtotal_minor,
        taxMinor: order.tax_minor,
        shippingMinor: order.shipping_minor,
        totalMinor: order.total_minor,
        shippingAddress:
          order.shipping_address === null
            ? null
            : (JSON.parse(order.shipping_address) as CommerceAddress),
        lines: lines.map((line) => {
          const originalTotalMinor = line.quantity * line.unit_price_minor
          return {
            id: line.id,
            title: line.title,
            quantity: line.quantity,
            unitPriceMinor: line.unit_price_minor,
            originalTotalMinor,
            discountedTotalMinor: originalTotalMinor - line.discount_minor,
            imageUrl: line.image_url,
            source:
              line.brand_variant_id === null || line.brand_store_shop === null
                ? null
                : { brandStoreShop: line.brand_store_shop, brandVariantId: line.brand_variant_id },
          }
        }),
      }
      return result
    },

    async createOrder(shop, input) {
      if (input.lines.length === 0) throw new CommerceError('An order needs at least one line item')
      const variantIds = input.lines.map((line) => line.variantId)
      return db.transaction().execute(async (trx) => {
        const variants = await trx
          .selectFrom('commerce_variants as variant')
          .innerJoin('commerce_products as product', 'product.id', 'variant.product_id')
          .select(['variant.id', 'variant.price_minor', 'product.title', 'product.image_url'])
          .where('variant.store_shop', '=', shop)
          .where('variant.id', 'in', variantIds)
          .execute()
        const byId = new Map(variants.map((variant) => [variant.id, variant]))
        const lines = input.lines.map((line) => {
          const variant = byId.get(line.variantId)
          if (!variant) {
            throw new CommerceError(`Variant ${line.variantId} does not exist in ${shop}`)
          }
          return { ...line, variant }
        })
        if (input.inventoryBehaviour !== 'BYPASS') {
          // In one order of variants, so that two orders' transactions never wait on each other.
          const byVariant = [...lines].sort((a, b) => a.variantId.localeCompare(b.variantId))
          for (const line of byVariant) {
            const decremented = await trx
              .updateTable('commerce_variants')
              .set((eb) => ({ inventory_quantity: eb('inventory_quantity', '-', line.quantity) }))
              .where('id', '=', line.variantId)
              // DECREMENT_OBEYING_POLICY refuses to sell stock the store does not have; the check
              // sits in the update so that concurrent orders cannot both take the last unit.
              .$if(input.inventoryBehaviour === 'DECREMENT_OBEYING_POLICY', (qb) =>
                qb.where('inventory_quantity', '>=', line.quantity),
              )
              .executeTakeFirst()
            if (decremented.numUpdatedRows === 0n) {
              throw new CommerceError(`${line.variant.title} is out of stock in ${shop}`)
            }
          }
        }

        const subtotal = lines.reduce((sum, l) => sum + l.quantity * l.variant.price_minor, 0)
        const id = await insertOrderWithNextId(trx, (nextId) => ({
          id: nextId,
          store_shop: shop,
          name: `#${nextId}`,
          email: input.email,
          currency: input.currency,
          created_at: new Date().toISOString(),
          subtotal_minor: subtotal,
          tax_minor: 0,
          shipping_minor: 0,
          total_minor: subtotal,
          shipping_address: input.shippingAddress && JSON.stringify(input.shippingAddress),
          tags: input.tags.join(', '),
          note: input.note,
          paid: 0,
        }))
        await trx
          .insertInto('commerce_order_lines')
          .values(
            lines.map((line, position) => ({
              id: `gid://shopify/LineItem/${id * LINES_PER_ORDER_ID + position + 1}`,
              order_id: id,
              position,
              variant_id: line.variantId,
              title: line.variant.title,
              quantity: line.quantity,
              unit_price_minor: line.variant.price_minor,
              discount_minor: 0,
              image_url: line.variant.image_url,
            })),
          )
          .execute()
        return { id: orderGid(id), name: `#${id}` }
      })
    },

    async markOrderAsPaid(shop, orderId) {
      const numericId = orderNumber(orderId)
      if (numericId === null) throw new CommerceError(`Invalid order id ${orderId}`)
      const result = await db
        .updateTable('commerce_orders')
        .set({ paid: 1 })
        .where('id', '=', numericId)
        .where('store_shop', '=', shop)
        .where('paid', '=', 0)
        .executeTakeFirst()
      if (result.numUpdatedRows > 0n) return
      // Shopify refuses to mark a paid order as paid again, as a user error.
      const exists = await orderOf(shop, numericId)
      throw new CommerceError(
        exists ? 'Order cannot be marked as paid.' : `Order ${orderId} does not exist in ${shop}`,
      )
    },

    async findOrderByTag(shop, tag) {
      // Shopify's `tag:` matches whole tags; LIKE only narrows the rows to split.
      const candidates = await db
        .selectFrom('commerce_orders')
        .select(['id', 'name', 'tags'])
        .where('store_shop', '=', shop)
        .where('tags', 'like', `%${tag}%`)
        .orderBy('id')
        .execute()
      const order = candidates.find((row) => row.tags.split(', ').includes(tag))
      return order ? { id: orderGid(Number(order.id)), name: order.name } : null
    },

    async orderFinancialStatus(shop, orderId) {
      const numericId = orderNumber(orderId)
      const order = numericId === null ? undefined : await orderOf(shop, numericId)
      if (!order) throw new CommerceError(`Order ${orderId} does not exist in ${shop}`)
      return order.paid ? 'PAID' : 'PENDING'
    },
  }

  const orderOf = (shop: string, id: number) =>
    db
      .selectFrom('commerce_orders')
      .select('paid')
      .where('id', '=', id)
      .where('store_shop', '=', shop)
      .executeTakeFirst()

  return {
    syncProducts: (shop) => scripted('syncProducts', shop, () => port.syncProducts(shop)),
    // A creator order is asked of every creator shop: the fault's target is the order id.
    findCreatorOrder: (id) =>
      scripted('findCreatorOrder', String(id), () => port.findCreatorOrder(id)),
    createOrder: (shop, input) =>
      scripted('createOrder', shop, () => port.createOrder(shop, input)),
    markOrderAsPaid: (shop, id) =>
      scripted('markOrderAsPaid', shop, () => port.markOrderAsPaid(shop, id)),
    findOrderByTag: (shop, tag) =>
      scripted('findOrderByTag', shop, () => port.findOrderByTag(shop, tag)),
    orderFinancialStatus: (shop, id) =>
      scripted('orderFinancialStatus', shop, () => port.orderFinancialStatus(shop, id)),
  }
}

/**
 * Shopify hands out order ids; here the next id is one past the highest. Two transactions may
 * pick the same one on PostgreSQL, so the insert skips a taken id and the loop picks again.
 */
async function insertOrderWithNextId(
  trx: Db,
  row: (id: number) => Insertable<CommerceOrdersTable>,
): Promise<number> {
  for (;;) {
    const { highest } = await trx
      .selectFrom('commerce_orders')
      .select((eb) => eb.fn.max('id').as('highest'))
      .executeTakeFirstOrThrow()
    const id = Number(highest ?? 0) + 1
    const result = await trx
      .insertInto('commerce_orders')
      .values(row(id))
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst()
    if (result.numInsertedOrUpdatedRows !== 0n) return id
  }
}
