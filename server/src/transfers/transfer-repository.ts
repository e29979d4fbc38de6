import type { Selectable, Updateable } from 'kysely'
import type { Db } from '../db/connect'
import type { OrderTransferBrandsTable, OrderTransfersTable } from '../db/schema'

// The order_transfers tables: what processing froze and what each step achieved. Every write that
// races another request is a single conditional statement, so SQLite and PostgreSQL decide the
// race the same way without locks held across calls to the commerce platform or payment provider.

export type TransferRow = Selectable<OrderTransfersTable>
export type TransferBrandRow = Selectable<OrderTransferBrandsTable>

export interface StoredTransfer extends TransferRow {
  /** In the order of the preview (each brand's first line in the creator order). */
  brands: TransferBrandRow[]
}

/** One line of a brand order, as frozen in order_transfer_brands.lines. */
export interface FrozenLine {
  brandVariantId: string
  quantity: number
}

export type TransferStep = 'createOrder' | 'markOrderAsPaid' | 'createTransfer'

/** A brand's figures and lines, fixed on the first processing attempt. */
type NewTransferBrand = Omit<
  TransferBrandRow,
  | 'creator_order_id'
  | 'position'
  | 'lines'
  | 'brand_order_id'
  | 'paid_at'
  | 'payment_transfer_id'
  | 'failed_step'
  | 'failed_message'
> & { lines: FrozenLine[] }

export function createTransferRepository(db: Db) {
  /** Sets columns of one brand's row: each step and failure is recorded there. */
  const updateBrand = async (
    creatorOrderId: string,
    brandStoreShop: string,
    values: Updateable<OrderTransferBrandsTable>,
  ): Promise<void> => {
    await db
      .updateTable('order_transfer_brands')
      .set(values)
      .where('creator_order_id', '=', creatorOrderId)
      .where('brand_store_shop', '=', brandStoreShop)
      .execute()
  }

  return {
    async find(creatorOrderId: string): Promise<StoredTransfer | null> {
      const [transfer, brands] = await Promise.all([
        db
          .selectFrom('order_transfers')
          .selectAll()
          .where('creator_order_id', '=', creatorOrderId)
          .executeTakeFirst(),
        db
          .selectFrom('order_transfer_brands')
          .selectAll()
          .where('creator_order_id', '=', creatorOrderId)
          .orderBy('position')
          .execute(),
      ])
      return transfer ? { ...transfer, brands } : null
    },

    /**
     * Freezes the figures of a first attempt. A concurrent first attempt may have frozen its own a
     * moment earlier: then the insert does nothing and the earlier figures stand.
     */
    async createIfAbsent(
      transfer: Pick<TransferRow, 'creator_order_id' | 'creator_store_shop' | 'currency'>,
      brands: NewTransferBrand[],
      now: string,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('order_transfers')
          .values({
            ...transfer,
            status: 'PARTIAL',
            claimed_by: null,
            claimed_at: null,
            processed_at: null,
            created_at: now,
          })
          .onConflict((oc) => oc.column('creator_order_id').doNothing())
          .executeTakeFirst()
        if (inserted.numInsertedOrUpdatedRows === 0n) return
        await trx
          .insertInto('order_transfer_brands')
          .values(
            brands.map((brand, position) => ({
              ...brand,
              creator_order_id: transfer.creator_order_id,
              position,
              lines: JSON.stringify(brand.lines),
            })),
          )
          .execute()
      })
    },

    /**
     * Takes the transfer for one request. Succeeds only when nobody holds it (or the holder's
     * claim is older than `staleBefore`, i.e. it died mid-way) and it is not completed.
     */
    async claim(
      creatorOrderId: string,
      token: string,
      now: string,
      staleBefore: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable('order_transfers')
        .set({ claimed_by: token, claimed_at: now })
        .where('creator_order_id', '=', creatorOrderId)
        .where('status', '!=', 'COMPLETED')
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', staleBefore)]))
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    async release(creatorOrderId: string, token: string): Promise<void> {
      await db
        .updateTable('order_transfers')
        .set({ claimed_by: null, claimed_at: null })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .execute()
    },

    /** Records a step that succeeded, clearing the failure an earlier attempt left. */
    async recordStep(
      creatorOrderId: string,
      brandStoreShop: string,
      result: Partial<Pick<TransferBrandRow, 'brand_order_id' | 'paid_at' | 'payment_transfer_id'>>,
    ): Promise<void> {
      await updateBrand(creatorOrderId, brandStoreShop, {
        ...result,
        failed_step: null,
        failed_message: null,
      })
    },

    async recordFailure(
      creatorOrderId: string,
      brandStoreShop: string,
      step: TransferStep,
      message: string,
    ): Promise<void> {
      await updateBrand(creatorOrderId, brandStoreShop, {
        failed_step: step,
        failed_message: message,
      })
    },

    async complete(creatorOrderId: string, token: string, now: string): Promise<void> {
      await db
        .updateTable('order_transfers')
        .set({ status: 'COMPLETED', processed_at: now })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .execute()
    },
  }
}

export const frozenLines = (brand: TransferBrandRow): FrozenLine[] =>
  JSON.parse(brand.lines) as FrozenLine[]
