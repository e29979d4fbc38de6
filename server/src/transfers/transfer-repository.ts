import type { Selectable, Updateable } from 'kysely'
import type { Db } from '../db/connect'
import type { OrderTransferBrandsTable, OrderTransfersTable } from '../db/schema'

// The order_transfers tables: what processing froze and what each step achieved. Every write that
// races another request is a single conditional statement, so SQLite and PostgreSQL decide the
// race the same way without locks held across calls to the commerce platform or payment provider.
// Writes made while processing are fenced by the lease's token: once another request has taken
// the transfer over, they change nothing and say so.

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
  | 'pending_step'
  | 'pending_since'
> & { lines: FrozenLine[] }

/** A write under a lease that another request has taken over since. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError'
}

export function createTransferRepository(db: Db) {
  /** Sets columns of one brand's row, only while `token` holds the transfer's lease. */
  const updateBrandUnderLease = async (
    creatorOrderId: string,
    token: string,
    brandStoreShop: string,
    values: Updateable<OrderTransferBrandsTable>,
  ): Promise<void> => {
    const result = await db
      .updateTable('order_transfer_brands')
      .set(values)
      .where('creator_order_id', '=', creatorOrderId)
      .where('brand_store_shop', '=', brandStoreShop)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('order_transfers')
            .select('creator_order_id')
            .where('creator_order_id', '=', creatorOrderId)
            .where('claimed_by', '=', token),
        ),
      )
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw new LeaseLostError(creatorOrderId)
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
            lease_expires_at: null,
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
     * Takes the transfer's lease for one request until `expiresAt`. Succeeds only when it is not
     * completed and nobody holds it, or the holder's lease ran out (it died or stalled).
     */
    async claim(
      creatorOrderId: string,
      token: string,
      now: string,
      expiresAt: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable('order_transfers')
        .set({ claimed_by: token, claimed_at: now, lease_expires_at: expiresAt })
        .where('creator_order_id', '=', creatorOrderId)
        .where('status', '!=', 'COMPLETED')
        .where((eb) =>
          eb.or([
            eb('claimed_by', 'is', null),
            eb('lease_expires_at', 'is', null),
            eb('lease_expires_at', '<', now),
          ]),
        )
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /** Extends the lease `token` holds; throws LeaseLostError when it holds it no more. */
    async renew(creatorOrderId: string, token: string, expiresAt: string): Promise<void> {
      const result = await db
        .updateTable('order_transfers')
        .set({ lease_expires_at: expiresAt })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .executeTakeFirst()
      if (result.numUpdatedRows === 0n) throw new LeaseLostError(creatorOrderId)
    },

    async release(creatorOrderId: string, token: string): Promise<void> {
      await db
        .updateTable('order_transfers')
        .set({ claimed_by: null, claimed_at: null, lease_expires_at: null })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .execute()
    },

    /** Records that a remote step is about to be called: until its result, its outcome is unknown. */
    async recordIntent(
      creatorOrderId: string,
      token: string,
      brandStoreShop: string,
      step: TransferStep,
      since: string,
    ): Promise<void> {
      await updateBrandUnderLease(creatorOrderId, token, brandStoreShop, {
        pending_step: step,
        pending_since: since,
      })
    },

    /** Records a step that succeeded, clearing its intent and the failure an attempt left. */
    async recordStep(
      creatorOrderId: string,
      token: string,
      brandStoreShop: string,
      result: Partial<Pick<TransferBrandRow, 'brand_order_id' | 'paid_at' | 'payment_transfer_id'>>,
    ): Promise<void> {
      await updateBrandUnderLease(creatorOrderId, token, brandStoreShop, {
        ...result,
        pending_step: null,
        pending_since: null,
        failed_step: null,
        failed_message: null,
      })
    },

    /** Records a failed step; its intent stays, so the next attempt reconciles before acting. */
    async recordFailure(
      creatorOrderId: string,
      token: string,
      brandStoreShop: string,
      step: TransferStep,
      message: string,
    ): Promise<void> {
      await updateBrandUnderLease(creatorOrderId, token, brandStoreShop, {
        failed_step: step,
        failed_message: message,
      })
    },

    /** Completes the transfer and gives the lease up; throws LeaseLostError when not held. */
    async complete(creatorOrderId: string, token: string, now: string): Promise<void> {
      const result = await db
        .updateTable('order_transfers')
        .set({
          status: 'COMPLETED',
          processed_at: now,
          claimed_by: null,
          claimed_at: null,
          lease_expires_at: null,
        })
        .where('creator_order_id', '=', creatorOrderId)
        .where('claimed_by', '=', token)
        .executeTakeFirst()
      if (result.numUpdatedRows === 0n) throw new LeaseLostError(creatorOrderId)
    },
  }
}

export const frozenLines = (brand: TransferBrandRow): FrozenLine[] =>
  JSON.parse(brand.lines) as FrozenLine[]
