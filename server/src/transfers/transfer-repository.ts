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
  /**
   * The creator order's line it stands for: what a refund of that line takes back, whatever links
   * change later. Absent on transfers frozen before it was kept.
   */
  lineItemId?: string
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
  | 'transfer_destination'
  | 'transfer_key_attempt'
  | 'transfer_declined_at'
> & { lines: FrozenLine[] }

/**
 * A brand's figures in the settlement currency, frozen with the others (docs/integrations.md
 * "Stripe").
 */
type SettlementColumn =
  | 'settlement_currency'
  | 'exchange_rate'
  | 'brand_amount_settlement_minor'
  | 'creator_commission_settlement_minor'
  | 'tandem_commission_settlement_minor'

/** A write under a lease that another request has taken over since. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError'
}

export function createTransferRepository(db: Db) {
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
     * Freezes the figures of a first attempt, after `first` (which may refuse, and then nothing is
     * frozen) in the same transaction. A concurrent first attempt may have frozen its own a moment
     * earlier: then the insert does nothing and the earlier figures stand.
     */
    async createIfAbsent(
      transfer: Pick<
        TransferRow,
        'creator_order_id' | 'creator_store_shop' | 'currency' | 'refunded_at_freeze_minor'
      >,
      brands: NewTransferBrand[],
      now: string,
      first: (trx: Db) => Promise<void> = async () => {},
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await first(trx)
        const inserted = await trx
          .insertInto('order_transfers')
          .values({
            ...transfer,
            status: 'PARTIAL',
            claimed_by: null,
            claimed_at: null,
            lease_expires_at: null,
            processed_at: null,
            processed_by: null,
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
     * Takes the transfer's lease for one request (of `claimant.adminEmail`) until `expiresAt`.
     * Succeeds only when it is not completed and nobody holds it, or the holder's lease ran out
     * (it died or stalled). A claim made before leases existed has none: it holds for `leaseMs`
     * from when it was made.
     */
    async claim(
      creatorOrderId: string,
      claimant: { token: string; adminEmail: string | null },
      now: string,
      expiresAt: string,
      leaseMs: number,
    ): Promise<boolean> {
      const claimedBefore = new Date(Date.parse(now) - leaseMs).toISOString()
      const result = await db
        .updateTable('order_transfers')
        .set({
          claimed_by: claimant.token,
          claimed_at: now,
          lease_expires_at: expiresAt,
          // The history names who processed it last.
          processed_by: claimant.adminEmail,
        })
        .where('creator_order_id', '=', creatorOrderId)
        .where('status', '!=', 'COMPLETED')
        .where((eb) =>
          eb.or([
            eb('claimed_by', 'is', null),
            eb('lease_expires_at', '<', now),
            eb.and([eb('lease_expires_at', 'is', null), eb('claimed_at', '<', claimedBefore)]),
          ]),
        )
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },

    /**
     * The writes of the request holding the lease `token`. Each renews the lease to `leaseEnd()`
     * first, in the same transaction: the renewal locks the transfer's row (on PostgreSQL a
     * concurrent claim waits for it, then sees the lease renewed), so a write lands only while the
     * lease is held. Each throws LeaseLostError once another request has taken the transfer.
     */
    underLease(creatorOrderId: string, token: string, leaseEnd: () => string) {
      /**
       * Until when the renewal this request committed last holds the lease (ms since the epoch):
       * nobody can claim it before then. Forgotten once a write finds the lease lost.
       */
      let heldUntil = -Infinity
      const renewIn = async (trx: Db, unexpiredAt?: string): Promise<string> => {
        const until = leaseEnd()
        const result = await trx
          .updateTable('order_transfers')
          .set({ lease_expires_at: until })
          .where('creator_order_id', '=', creatorOrderId)
          .where('claimed_by', '=', token)
          .$if(unexpiredAt !== undefined, (qb) => qb.where('lease_expires_at', '>', unexpiredAt!))
          .executeTakeFirst()
        if (result.numUpdatedRows === 0n) throw new LeaseLostError(creatorOrderId)
        return until
      }
      /** `write`, which renews the lease to the date it answers, once committed. */
      const renewing = async (write: Promise<string>): Promise<void> => {
        try {
          heldUntil = Date.parse(await write)
        } catch (error) {
          if (error instanceof LeaseLostError) heldUntil = -Infinity
          throw error
        }
      }
      const updateBrand = (brandStoreShop: string, values: Updateable<OrderTransferBrandsTable>) =>
        renewing(
          db.transaction().execute(async (trx) => {
            const until = await renewIn(trx)
            await trx
              .updateTable('order_transfer_brands')
              .set(values)
              .where('creator_order_id', '=', creatorOrderId)
              .where('brand_store_shop', '=', brandStoreShop)
              .execute()
            return until
          }),
        )

      return {
        /**
         * Just before a remote call: the lease must be held for at least `forMs` past `now` (the
         * call's time, and a margin for the clocks of other processes). A renewal this request
         * committed moments ago (the step's intent, or another brand's write) shows that without
         * a write: nobody can claim a lease before it runs out. Otherwise it is renewed, refused
         * once it has run out at `now` even if nobody took it: a request that stalled past its
         * lease must not make the call.
         */
        renewBeforeCall: async (now: string, forMs: number): Promise<void> => {
          if (heldUntil - Date.parse(now) >= forMs) return
          await renewing(renewIn(db, now))
        },

        /** A remote step is about to be called: until its result, its outcome is unknown. */
        recordIntent: (
          brandStoreShop: string,
          step: TransferStep,
          since: string,
          details: Pick<
            Updateable<OrderTransferBrandsTable>,
            'transfer_destination' | SettlementColumn
          > = {},
        ) => updateBrand(brandStoreShop, { pending_step: step, pending_since: since, ...details }),

        /**
         * Stripe declined the transfer under the key before, and reconciling found none: the call
         * about to be made goes under the key of `attempt`, with no decline of its own yet.
         * Recorded before the call, so that no later attempt sends the declined key again and
         * meets the answer Stripe saved for it, nor moves past this one unless it is declined.
         */
        advanceTransferKey: (brandStoreShop: string, attempt: number) =>
          updateBrand(brandStoreShop, {
            transfer_key_attempt: attempt,
            transfer_declined_at: null,
          }),

        /** A step succeeded: its intent and any failure an attempt left are cleared. */
        recordStep: (
          brandStoreShop: string,
          result: Partial<
            Pick<TransferBrandRow, 'brand_order_id' | 'paid_at' | 'payment_transfer_id'>
          > &
            Partial<ReturnType<typeof owedNothing>>,
        ) =>
          updateBrand(brandStoreShop, {
            ...result,
            pending_step: null,
            pending_since: null,
            failed_step: null,
            failed_message: null,
            transfer_declined_at: null,
          }),

        /**
         * A step failed; its intent stays, so the next attempt reconciles before acting. `declinedAt`
         * when the provider declined the transfer under its current key (and so made none); a
         * failure whose outcome is unknown leaves a decline recorded before in place, as the key's
         * saved answer is still that decline.
         */
        recordFailure: (
          brandStoreShop: string,
          step: TransferStep,
          message: string,
          declinedAt?: string,
        ) =>
          updateBrand(brandStoreShop, {
            failed_step: step,
            failed_message: message,
            ...(declinedAt !== undefined && { transfer_declined_at: declinedAt }),
          }),

        /**
         * Completes the transfer and gives the lease up, with `alongside` (what completion owes
         * others) in the same transaction.
         */
        complete: (now: string, alongside: (trx: Db) => Promise<void>): Promise<void> =>
          db.transaction().execute(async (trx) => {
            const result = await trx
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
            await alongside(trx)
          }),

        async release(): Promise<void> {
          await db
            .updateTable('order_transfers')
            .set({ claimed_by: null, claimed_at: null, lease_expires_at: null })
            .where('creator_order_id', '=', creatorOrderId)
            .where('claimed_by', '=', token)
            .execute()
        },
      }
    },
  }
}

export const frozenLines = (brand: TransferBrandRow): FrozenLine[] =>
  JSON.parse(brand.lines) as FrozenLine[]

/**
 * What settles a brand with nothing owed: its units were all refunded, removed or cancelled before
 * its order was made. The figures become what it is owed (nothing) rather than what was planned,
 * so that the history, the receipt and the CSV add up to what moved; the rates stay.
 */
export function owedNothing(brand: TransferBrandRow) {
  const settled = brand.settlement_currency === null ? null : 0
  return {
    lines: JSON.stringify([]),
    base_minor: 0,
    brand_amount_minor: 0,
    creator_commission_minor: 0,
    tandem_commission_minor: 0,
    brand_amount_settlement_minor: settled,
    creator_commission_settlement_minor: settled,
    tandem_commission_settlement_minor: settled,
  }
}

/** Whether the brand was settled with nothing owed: a frozen plan always orders a line. */
export const isOwedNothing = (brand: TransferBrandRow) => frozenLines(brand).length === 0
