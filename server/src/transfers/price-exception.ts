import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { formatMinorUnits } from '../domain/money'
import { acceptShortfalls } from '../repositories/price-exceptions'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import { auditedChange } from '../services/audited-change'
import { requeueOrderFrom } from '../services/automatic-transfers'
import type { TransferPlanning } from './transfer-planning'

// The one override of the catalogue checks (docs/integrations.md "Shopify"): an administrator
// accepts one order's lines priced below their brands' prices, with a reason.

/**
 * Accepts, for an order not yet processed, its lines priced below their brands' prices as
 * they stand now, with the administrator's reason (audited in the same transaction). Every
 * other check still applies, and a price that changes afterwards is checked again.
 */
export async function acceptPriceException(
  deps: Pick<RouteDeps, 'db' | 'jobs' | 'now'> & { planning: TransferPlanning },
  request: { creatorOrderId: string; reason: string; adminEmail: string | null },
) {
  const { creatorOrderId, reason, adminEmail } = request
  const { order, transfer } = await deps.planning.loadOrder(creatorOrderId)
  const id = String(order.id)
  if (transfer) {
    throw new Refusal(
      'conflict',
      `Creator order ${order.name} was processed already (${transfer.status}): its figures are frozen, and no price exception applies to it`,
    )
  }
  const { failures } = await deps.planning.planAndCheck(order, [])
  const shortfalls = failures.flatMap((failure) =>
    failure.kind === 'priceBelowBrand' ? [failure.shortfall] : [],
  )
  if (shortfalls.length === 0) {
    throw new Refusal(
      'business_rule',
      `No line of creator order ${order.name} is priced below its brand's price: there is no price exception to accept`,
    )
  }
  const acceptedAt = deps.now().toISOString()
  await auditedChange(deps, adminEmail, async (trx) => {
    await acceptShortfalls(trx, {
      creatorOrderId: id,
      shortfalls,
      reason,
      acceptedBy: adminEmail,
      acceptedAt,
    })
    // An automatic order stopped by these prices is tried again.
    await requeueOrderFrom(deps, trx, id, ['NEEDS_ATTENTION'])
    // Each line by its title too, so that Activity names it as the order does.
    const lines = shortfalls.map((line) => ({
      lineItemId: line.lineItemId,
      title: order.lines.find((ordered) => ordered.id === line.lineItemId)?.title ?? null,
      price: `${formatMinorUnits(line.priceMinor, line.currency)} ${line.currency}`,
      brandPrice: `${formatMinorUnits(line.brandPriceMinor, line.brandCurrency)} ${line.brandCurrency}`,
    }))
    const details = { reason, lines }
    return {
      result: undefined,
      audit: { action: 'transfer.accept-price-exception', target: id, details },
    }
  })
  return { creatorOrderId: orderGid(id), acceptedLines: shortfalls.length, acceptedAt }
}
