import type { StoreProduct } from '@shared/contract'
import type { Selectable } from 'kysely'
import type { Db } from '../db/connect'
import type { StoreProductsTable } from '../db/schema'
import { readPage, type PageRequest } from '../db/keyset'
import { formatMinorUnits } from '../domain/money'
import { requireStoreType } from '../repositories/stores'

// A store's products as its last sync read them, by title, a page at a time; a shop that is not
// one of the marketplace's stores is refused rather than answered with an empty list.

export async function listStoreProducts(db: Db, shop: string, page: PageRequest) {
  await requireStoreType(db, shop)
  const { rows, nextCursor } = await readPage(
    db.selectFrom('store_products').selectAll().where('store_shop', '=', shop),
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
