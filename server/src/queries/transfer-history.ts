import type { MoneyMovement, OrderTransferRecord, SettledAmounts } from '@shared/contract'
import type { Db } from '../db/connect'
import { readPage, type PageRequest } from '../db/keyset'
import { formatMinorUnits } from '../domain/money'
import type { TransferBrandRow, TransferRow } from '../transfers/transfer-repository'
import { CSV_HEADER, transferCsvRows } from '../transfers/transfer-csv'
import { readMoneyTrails } from '../transfers/money-trail'
import { settledFiguresOf } from '../transfers/transfer-view'

// The transfer history: processed and partial transfers, newest first, with the rates and
// amounts frozen when each began, who processed it and when, and the money trail since.

export async function listOrderTransfers(
  db: Db,
  page: PageRequest,
): Promise<{ transfers: OrderTransferRecord[]; nextCursor: string | null }> {
  const { rows: transfers, nextCursor } = await readPage(
    db
      .selectFrom('order_transfers as t')
      // The order's name, as the inbox knows it; order_transfers keys orders by their id as text.
      .leftJoin('creator_order_index as o', (join) =>
        join.on((eb) => eb(eb.cast('o.order_id', 'text'), '=', eb.ref('t.creator_order_id'))),
      )
      .selectAll('t')
      .select('o.name as creator_order_name'),
    { sortedBy: 't.created_at', id: 't.creator_order_id', order: 'desc' },
    page,
  )
  const ids = transfers.map((transfer) => transfer.creator_order_id)
  const brands =
    ids.length === 0
      ? []
      : await db
          .selectFrom('order_transfer_brands')
          .selectAll()
          .where('creator_order_id', 'in', ids)
          .orderBy('creator_order_id')
          .orderBy('position')
          .execute()
  const withBrands = transfers.map((transfer) => ({
    ...transfer,
    brands: brands.filter((brand) => brand.creator_order_id === transfer.creator_order_id),
  }))
  const trails = await readMoneyTrails(db, withBrands)
  return {
    transfers: withBrands.map((transfer) =>
      recordOf(transfer, trails.get(transfer.creator_order_id) ?? []),
    ),
    nextCursor,
  }
}

function recordOf(
  transfer: TransferRow & { creator_order_name: string | null; brands: TransferBrandRow[] },
  moneyTrail: MoneyMovement[],
): OrderTransferRecord {
  const money = (minor: number) => formatMinorUnits(minor, transfer.currency)
  return {
    creatorOrderId: transfer.creator_order_id,
    creatorOrderName: transfer.creator_order_name,
    creatorStoreShop: transfer.creator_store_shop,
    currency: transfer.currency,
    status: transfer.status,
    startedAt: transfer.created_at,
    processedBy: transfer.processed_by,
    processedAt: transfer.processed_at,
    brands: transfer.brands.map((brand) => ({
      brandStoreShop: brand.brand_store_shop,
      brandOrderId: brand.brand_order_id,
      tandemCommissionRate: brand.tandem_rate_hundredths / 100,
      creatorCommissionRate: brand.creator_rate_hundredths / 100,
      baseAmount: money(brand.base_minor),
      brandAmount: money(brand.brand_amount_minor),
      creatorCommissionAmount: money(brand.creator_commission_minor),
      tandemCommissionAmount: money(brand.tandem_commission_minor),
      settlement: settlementOf(brand),
      paymentTransferId: brand.payment_transfer_id,
      failedMessage: brand.failed_message,
    })),
    moneyTrail,
  }
}

/** The brand's frozen figures in the settlement currency, as decimal strings. */
function settlementOf(brand: TransferBrandRow): SettledAmounts | null {
  const settled = settledFiguresOf(brand)
  if (!settled) return null
  const money = (minor: number) => formatMinorUnits(minor, settled.currency)
  return {
    currency: settled.currency,
    exchangeRate: settled.exchangeRate,
    brandAmount: money(settled.brandAmountMinor),
    creatorCommissionAmount: money(settled.creatorCommissionMinor),
    tandemCommissionAmount: money(settled.tandemCommissionMinor),
  }
}

/** The whole history as the CSV export's bytes, read a page at a time. */
export async function transferHistoryCsv(db: Db): Promise<Uint8Array> {
  let csv = CSV_HEADER
  let cursor: string | undefined
  do {
    const page = await listOrderTransfers(db, { cursor, limit: 500 })
    for (const transfer of page.transfers) csv += transferCsvRows(transfer)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return new Uint8Array(Buffer.from(csv, 'utf8'))
}
