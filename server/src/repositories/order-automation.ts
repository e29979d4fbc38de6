import type { Db } from '../db/connect'
import type { Selectable } from 'kysely'
import type { AutomationState, OrderAutomationTable } from '../db/schema'
import { lockStore } from './stores'
import type { AttentionKind, AttentionReason } from '../domain/attention'

// Where each automatic order's processing stands (transfers/automatic-transfers.ts), and what a
// person must fix before it can go on. Every outcome is written for one generation of the order's
// job: an order put back on the queue meanwhile (its brand fixed) raises the generation, and the
// outcome of the job that ran before is dropped rather than written over the newer one.

export interface AutomaticOrder {
  creatorOrderId: string
  storeShop: string
  createdAt: string
  paidAt: string
  state: AutomationState
  dueAt: string | null
  message: string | null
  generation: number
  /** When Tandem last wrote where it stands: its job's reads came after. */
  updatedAt: string
}

export interface Outcome {
  state: AutomationState
  dueAt?: string | null
  message?: string | null
  /** What a person must act on; written only with NEEDS_ATTENTION. */
  reasons?: readonly AttentionReason[]
  /** The paused brand it waits on; written only with HELD. */
  pausedBrand?: string
}

/**
 * Records an order the policy made automatic, waiting until `dueAt`. Answers false when it was
 * recorded already (a webhook sent twice, the catch-up finding an order a webhook brought).
 */
export async function recordAutomaticOrder(
  db: Db,
  order: {
    creatorOrderId: string
    storeShop: string
    createdAt: string
    paidAt: string
    dueAt: string
  },
  now: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('order_automation')
    .values({
      creator_order_id: order.creatorOrderId,
      store_shop: order.storeShop,
      created_at: order.createdAt,
      paid_at: order.paidAt,
      state: 'WAITING',
      due_at: order.dueAt,
      message: null,
      generation: 1,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('creator_order_id').doNothing())
    .executeTakeFirst()
  return inserted.numInsertedOrUpdatedRows !== 0n
}

export async function findAutomaticOrder(
  db: Db,
  creatorOrderId: string,
): Promise<AutomaticOrder | null> {
  const row = await db
    .selectFrom('order_automation')
    .selectAll()
    .where('creator_order_id', '=', creatorOrderId)
    .executeTakeFirst()
  return row ? automaticOrderOf(row) : null
}

/**
 * The order as findAutomaticOrder reads it, its row locked until the transaction ends (a write
 * that changes nothing, for SQLite's sake): a fix to the order and its job's outcome take turns.
 */
export async function lockAutomaticOrder(
  trx: Db,
  creatorOrderId: string,
): Promise<AutomaticOrder | null> {
  const row = await trx
    .updateTable('order_automation')
    .set((eb) => ({ state: eb.ref('state') }))
    .where('creator_order_id', '=', creatorOrderId)
    .returningAll()
    .executeTakeFirst()
  return row ? automaticOrderOf(row) : null
}

const automaticOrderOf = (row: Selectable<OrderAutomationTable>): AutomaticOrder => ({
  creatorOrderId: row.creator_order_id,
  storeShop: row.store_shop,
  createdAt: row.created_at,
  paidAt: row.paid_at,
  state: row.state,
  dueAt: row.due_at,
  message: row.message,
  generation: Number(row.generation),
  updatedAt: row.updated_at,
})

/** What each reason fixed through Tandem's own calls is fixed by. */
const COMMISSION_FIXES: readonly AttentionKind[] = ['noDefaultCommission']
const ACCOUNT_FIXES: readonly AttentionKind[] = ['noPayoutAccount', 'payoutAccountUnknown']
/** What an administrator overrides for one order, the reasons each fixes, and when it was made. */
const ORDER_OVERRIDES: readonly {
  fixes: readonly AttentionKind[]
  madeAt: (
    trx: Db,
    creatorOrderId: string,
  ) => { executeTakeFirst(): Promise<{ at: string } | undefined> }
}[] = [
  {
    fixes: ['priceBelowBrand'],
    madeAt: (trx, creatorOrderId) =>
      trx
        .selectFrom('price_exceptions')
        .select('accepted_at as at')
        .where('creator_order_id', '=', creatorOrderId),
  },
  {
    fixes: ['fraudRisk'],
    madeAt: (trx, creatorOrderId) =>
      trx
        .selectFrom('fraud_releases')
        .select('released_at as at')
        .where('creator_order_id', '=', creatorOrderId),
  },
]

/**
 * Locks the order for the outcome of its job of `generation`, and answers whether that outcome
 * is stale: a newer job was sent ('superseded'), or a fix made through Tandem after the job's reads
 * answers one of `reasons` ('fixed': a default commission or payout account set for a brand they
 * name, a price exception accepted or a fraud check released for the order), or else 'current'.
 * The brands' stores are locked first, then the order, as the fixes lock them
 * (requeueOrdersWaitingOn, requeueOrderFrom), so
 * that a fix either is seen here or sees the outcome written after. `since`, when Tandem last wrote
 * where the order stands, comes before the job's reads; a fix dated later than `now` (a clock
 * ahead) is not counted, so that it cannot requeue the order over and over.
 */
export async function outcomeStaleness(
  trx: Db,
  job: { creatorOrderId: string; generation: number },
  reasons: readonly AttentionReason[],
  { since, now }: { since: string; now: string },
): Promise<'current' | 'superseded' | 'fixed'> {
  const brandsFor = (kinds: readonly AttentionKind[]) => [
    ...new Set(
      reasons.filter((reason) => kinds.includes(reason.kind)).map((r) => r.brandStoreShop),
    ),
  ]
  const commissionBrands = brandsFor(COMMISSION_FIXES)
  const accountBrands = brandsFor(ACCOUNT_FIXES)
  for (const brand of [...new Set([...commissionBrands, ...accountBrands])].sort()) {
    await lockStore(trx, brand)
  }
  const order = await lockAutomaticOrder(trx, job.creatorOrderId)
  if (order?.generation !== job.generation) return 'superseded'

  if (commissionBrands.length > 0) {
    const commission = await trx
      .selectFrom('default_commissions')
      .select('brand_store_shop')
      .where('brand_store_shop', 'in', commissionBrands)
      .where('updated_at', '>', since)
      .where('updated_at', '<=', now)
      .executeTakeFirst()
    if (commission) return 'fixed'
  }
  if (accountBrands.length > 0) {
    const account = await trx
      .selectFrom('store_payment_accounts')
      .select('store_shop')
      .where('store_shop', 'in', accountBrands)
      .where('updated_at', '>', since)
      .where('updated_at', '<=', now)
      .executeTakeFirst()
    if (account) return 'fixed'
  }
  for (const override of ORDER_OVERRIDES) {
    if (!reasons.some((reason) => override.fixes.includes(reason.kind))) continue
    const made = await override.madeAt(trx, job.creatorOrderId).executeTakeFirst()
    if (made && made.at > since && made.at <= now) return 'fixed'
  }
  return 'current'
}

/**
 * Writes the outcome of the order's job of `generation`, with the reasons a person must act on
 * (replacing the earlier ones). Answers false, writing nothing, when a newer job was sent since.
 * Run it in a transaction: the state and its reasons change together.
 */
export async function recordOutcome(
  trx: Db,
  creatorOrderId: string,
  generation: number,
  outcome: Outcome,
  now: string,
): Promise<boolean> {
  const updated = await trx
    .updateTable('order_automation')
    .set({
      state: outcome.state,
      due_at: outcome.dueAt ?? null,
      message: outcome.message ?? null,
      paused_brand: outcome.state === 'HELD' ? (outcome.pausedBrand ?? null) : null,
      updated_at: now,
    })
    .where('creator_order_id', '=', creatorOrderId)
    .where('generation', '=', generation)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) return false
  await trx.deleteFrom('order_attention').where('creator_order_id', '=', creatorOrderId).execute()
  const reasons = outcome.state === 'NEEDS_ATTENTION' ? (outcome.reasons ?? []) : []
  if (reasons.length > 0) {
    await trx
      .insertInto('order_attention')
      .values(
        reasons.map((reason, position) => ({
          creator_order_id: creatorOrderId,
          position,
          brand_store_shop: reason.brandStoreShop,
          kind: reason.kind,
          sentence: reason.sentence,
        })),
      )
      .execute()
  }
  return true
}

/** The orders that need attention for a reason naming `brandStoreShop`. */
export async function ordersWaitingOnBrand(db: Db, brandStoreShop: string): Promise<string[]> {
  const rows = await db
    .selectFrom('order_attention as a')
    .innerJoin('order_automation as o', 'o.creator_order_id', 'a.creator_order_id')
    .select('a.creator_order_id')
    .distinct()
    .where('a.brand_store_shop', '=', brandStoreShop)
    .where('o.state', '=', 'NEEDS_ATTENTION')
    .execute()
  return rows.map((row) => row.creator_order_id)
}

/**
 * The orders that need attention for no reason of `kinds` (those whose fix requeues the orders
 * itself): each reason of theirs is fixed outside Tandem, or they stopped on a lasting failure.
 */
export async function ordersNeedingAttentionExcept(
  db: Db,
  kinds: readonly AttentionKind[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('order_automation as o')
    .select('o.creator_order_id')
    .where('o.state', '=', 'NEEDS_ATTENTION')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_attention as a')
            .select('a.position')
            .whereRef('a.creator_order_id', '=', 'o.creator_order_id')
            .where('a.kind', 'in', kinds),
        ),
      ),
    )
    .execute()
  return rows.map((row) => row.creator_order_id)
}

/** The orders waiting or retrying whose job was due before `before`, and has not run since. */
export async function ordersOverdue(db: Db, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('order_automation')
    .select('creator_order_id')
    .where('state', 'in', ['WAITING', 'RETRYING'])
    .where('due_at', '<', before)
    .execute()
  return rows.map((row) => row.creator_order_id)
}

/** The automatic orders stopped by `brandStoreShop`'s pause. */
export async function ordersHeldByBrand(db: Db, brandStoreShop: string): Promise<string[]> {
  const rows = await db
    .selectFrom('order_automation')
    .select('creator_order_id')
    .where('state', '=', 'HELD')
    .where('paused_brand', '=', brandStoreShop)
    .execute()
  return rows.map((row) => row.creator_order_id)
}

/**
 * Puts orders back to waiting, due at once, under a new generation each; answers each order's
 * new generation, for its job. An order not automatic is left alone.
 */
export async function requeueOrders(
  trx: Db,
  creatorOrderIds: readonly string[],
  now: string,
): Promise<{ creatorOrderId: string; generation: number }[]> {
  if (creatorOrderIds.length === 0) return []
  const rows = await trx
    .updateTable('order_automation')
    .set((eb) => ({
      state: 'WAITING',
      due_at: now,
      message: null,
      paused_brand: null,
      generation: eb('generation', '+', 1),
      updated_at: now,
    }))
    .where('creator_order_id', 'in', creatorOrderIds)
    .returning(['creator_order_id', 'generation'])
    .execute()
  await trx.deleteFrom('order_attention').where('creator_order_id', 'in', creatorOrderIds).execute()
  return rows.map((row) => ({
    creatorOrderId: row.creator_order_id,
    generation: Number(row.generation),
  }))
}
