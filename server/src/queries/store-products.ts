import type { StoreProduct } from '@shared/contract'
import type { Db } from '../db/connect'
import { pastLastRow } from '../db/keyset'
import { formatMinorUnits } from '../domain/money'
import { decodeCursor, pageOf } from '../domain/page-cursor'

// A store's products as its last sync read them, by title, a page at a time.

export async function listStoreProducts(
  db: Db,
  shop: string,
  page: { cursor?: string; limit: number },
): Promise<{ products: StoreProduct[]; nextCursor: string | null }> {
  const after = decodeCursor(page.cursor)
  const rows = await db
    .selectFrom('store_products')
    .selectAll()
    .where('store_shop', '=', shop)
    .$if(after !== null, (qb) =>
      qb.where(pastLastRow('title', 'product_id', { sortedBy: after![0], id: after![1] }, 'asc')),
    )
    .orderBy('title')
    .orderBy('product_id')
    .limit(page.limit + 1)
    .execute()
  const { rows: products, nextCursor } = pageOf(rows, page.limit, (row) => [
    row.title,
    row.product_id,
  ])
  return {
    products: products.map((row) => ({
      id: row.product_id,
      title: row.title,
      status: row.status,
      variantCount: Number(row.variant_count),
      price: formatMinorUnits(Number(row.min_price_minor), row.currency),
      currency: row.currency,
    })),
    nextCursor,
  }
}
