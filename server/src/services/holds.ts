import { TRANSFER_ERRORS, type BrandPause, type OrderHold } from '@shared/contract'
import { orderNumber } from '../adapters/commerce/shopify/order-gid'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { findOrderShop } from '../repositories/creator-orders'
import {
  findBrandPause,
  findOrderHold,
  holdOrder,
  pauseBrand,
  releaseOrder,
  resumeBrand,
} from '../repositories/holds'
import { requireStoreOf, requireStoreType } from '../repositories/stores'
import { auditedChange, type Actor } from './audited-change'
import { requeueOrderFrom, requeueOrdersHeldByBrand } from './automatic-transfers'

// Holds (docs/product-rules.md "Automatic transfers"): an administrator holds one order, or
// pauses a brand, with a reason. Automatic processing leaves them alone until released, when the
// orders they stopped go back on the queue; an administrator's click still processes a held order.

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now'>

/** The order's numeric id, once Tandem knows it as a creator order. */
async function knownOrder(deps: Deps, creatorOrderId: string): Promise<string> {
  const id = orderNumber(creatorOrderId)
  if (id === null || (await findOrderShop(deps.db, id)) === null) {
    throw new Refusal('not_found', `${TRANSFER_ERRORS.creatorOrderNotFound}: ${creatorOrderId}`)
  }
  return String(id)
}

/**
 * Only a brand is paused. Its store stays locked to the end of the transaction: an automatic order
 * held for its pause takes turns with it (holdForPause, automatic-transfers.ts).
 */
const requireBrand = (trx: Deps['db'], shop: string) =>
  requireStoreOf(trx, shop, 'BRAND', {
    wrongType: `${shop} is a creator store: only a brand is paused`,
    lock: true,
  })

export async function holdCreatorOrder(
  deps: Deps,
  actor: Actor,
  input: { creatorOrderId: string; reason: string },
): Promise<OrderHold> {
  const creatorOrderId = await knownOrder(deps, input.creatorOrderId)
  return auditedChange(deps, actor, async (trx) => {
    const before = await findOrderHold(trx, creatorOrderId)
    const hold = {
      creatorOrderId,
      reason: input.reason,
      heldBy: actor,
      heldAt: deps.now().toISOString(),
    }
    await holdOrder(trx, hold)
    return {
      result: hold,
      audit: {
        action: 'order.hold',
        target: creatorOrderId,
        details: { before: before && { reason: before.reason }, after: { reason: hold.reason } },
      },
    }
  })
}

export async function releaseCreatorOrder(
  deps: Deps,
  actor: Actor,
  input: { creatorOrderId: string },
): Promise<{ released: OrderHold }> {
  const creatorOrderId = await knownOrder(deps, input.creatorOrderId)
  return auditedChange(deps, actor, async (trx) => {
    const hold = await findOrderHold(trx, creatorOrderId)
    if (!hold) throw new Refusal('not_found', `Creator order ${creatorOrderId} is not held`)
    await releaseOrder(trx, creatorOrderId)
    // An order still waiting is run again too: its job goes by the policy's hold as it is now, so
    // it waits out what is left of it; and one retrying, whose job may be finding the hold just
    // released (its HELD is then dropped for the newer job's outcome).
    await requeueOrderFrom(deps, trx, creatorOrderId, ['HELD', 'WAITING', 'RETRYING'])
    return {
      result: { released: hold },
      audit: { action: 'order.release', target: creatorOrderId, details: { reason: hold.reason } },
    }
  })
}

export async function brandPause(deps: Deps, shop: string): Promise<{ pause: BrandPause | null }> {
  await requireStoreType(deps.db, shop)
  return { pause: await findBrandPause(deps.db, shop) }
}

export function pauseBrandStore(
  deps: Deps,
  actor: Actor,
  input: { shop: string; reason: string },
): Promise<BrandPause> {
  return auditedChange(deps, actor, async (trx) => {
    await requireBrand(trx, input.shop)
    const before = await findBrandPause(trx, input.shop)
    const pause = {
      shop: input.shop,
      reason: input.reason,
      pausedBy: actor,
      pausedAt: deps.now().toISOString(),
    }
    await pauseBrand(trx, pause)
    return {
      result: pause,
      audit: {
        action: 'brand.pause',
        target: input.shop,
        details: { before: before && { reason: before.reason }, after: { reason: pause.reason } },
      },
    }
  })
}

export function resumeBrandStore(
  deps: Deps,
  actor: Actor,
  input: { shop: string },
): Promise<{ resumed: BrandPause }> {
  return auditedChange(deps, actor, async (trx) => {
    await requireBrand(trx, input.shop)
    const pause = await findBrandPause(trx, input.shop)
    if (!pause) throw new Refusal('not_found', `${input.shop} is not paused`)
    await resumeBrand(trx, input.shop)
    await requeueOrdersHeldByBrand(deps, trx, input.shop)
    return {
      result: { resumed: pause },
      audit: { action: 'brand.resume', target: input.shop, details: { reason: pause.reason } },
    }
  })
}
