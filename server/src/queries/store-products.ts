import type { StoreProduct } from '@shared/contract'
import { sql, type Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { StoreProductsTable } from '../db/schema'
import { readPage, type PageRequest } from '../db/keyset'
import { formatMinorUnits } from '../domain/money'
import { requireStoreType } from '../repositories/stores'

// A store's products as its last sync read them, by title, a page at a time, those whose title
// contains `search` when given (what a listing's picker searches); a shop that is not one of the
// marketplace's stores is refused rather than answered with an empty list.

/** `search` as a LIKE pattern matching it literally: % and _ are only themselves. */
const containing = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`

export async function listStoreProducts(
  db: Db,
  shop: string,
  page: PageRequest & { search?: string },
) {
  await requireStoreType(db, shop)
  let products = db.selectFrom('store_products').selectAll().where('store_shop', '=', shop)
  if (page.search) {
    const pattern = containing(page.search)
    products = products.where(
      (eb) => sql<boolean>`lower(${eb.ref('title')}) like ${pattern} escape '\\'`,
    )
  }
  const { rows, nextCursor } = await readPage(
    products,
    { sortedBy: 'title', id: 'product_id', order: 'asc' },
    page,
  )
  return { products: rows.map(productOf), nextCursor }
}

const productOf = (row: Selectable<StoreProductsTable>): StoreProduct => ({
  id: row.product_id,
  title: row.title,
  status: row.status,
  variantCount: Number(row.variant_count),
  price: formatMinorUnits(Number(row.min_price_minor), row.currency),
  currency: row.currency,
  imageUrl: row.image_url,
})
