import type { OrderFraudReading } from '../adapters/commerce/commerce-port'
import { orderGid } from '../adapters/commerce/shopify/order-gid'
import type { RouteDeps } from '../deps'
import { attention, type AttentionReason } from '../domain/attention'
import { Refusal } from '../domain/errors'
import { upstreamRefusal, type Remote } from '../lib/remote-call'
import { findReleasedFindings, recordFraudRelease } from '../repositories/fraud-releases'
import { auditedChange } from '../services/audited-change'
import { requeueOrderFrom } from '../services/automatic-transfers'
import type { LinkedOrder } from './linked-order'
import type { TransferPlanning } from './transfer-planning'

// Before any transfer of a creator order, hands-free or clicked (docs/product-rules.md "Order
// transfers"): what Shopify found of fraud on it. A customer paying with a stolen card leaves the
// creator's store with a chargeback later, but a brand ordered and paid keeps the money and ships
// the goods. So an order Shopify recommends cancelling or investigating, one any assessment rates a
// high or medium risk, or one whose fulfillment is on hold for HIGH_RISK_OF_FRAUD (by Shopify or
// the merchant) needs attention until an administrator, having looked, releases it. Shopify's
// recommendation follows the most severe assessment, a medium risk INVESTIGATE ("contact the
// buyer"): that too is for a person to judge before a brand ships, so a medium risk or INVESTIGATE
// stops the order as a high risk does. While an assessment is PENDING ("still pending",
// RiskAssessmentResult, Admin API 2026-10) the transfer waits: with a hold of a few minutes a
// hands-free transfer would otherwise run before Shopify's analysis has said anything. The
// automatic job is retried later, and an administrator's click is refused until it is done.

type Deps = Pick<RouteDeps, 'db' | 'commerce'>

const RECOMMENDATIONS: Readonly<Record<string, string>> = {
  CANCEL: 'Shopify recommends cancelling it',
  INVESTIGATE: 'Shopify recommends investigating it',
}

/** The assessments' risk levels that stop an order, as their recommendations do. */
const STOPPING_LEVELS: readonly string[] = ['HIGH', 'MEDIUM']

/** What Shopify found, each a phrase of the attention's sentence; none when nothing stops it. */
function fraudFindings(reading: OrderFraudReading): string[] {
  const recommendation = RECOMMENDATIONS[reading.recommendation]
  const assessed = reading.assessments
    .filter((assessment) => STOPPING_LEVELS.includes(assessment.riskLevel))
    .map(
      (assessment) =>
        `${assessment.provider ?? 'Shopify'} rates its risk of fraud ${assessment.riskLevel.toLowerCase()}` +
        (assessment.negativeFacts.length > 0 ? ` (${assessment.negativeFacts.join('; ')})` : ''),
    )
  const held = reading.holds
    .filter((hold) => hold.reason === 'HIGH_RISK_OF_FRAUD')
    .map(
      (hold) =>
        'its fulfillment is on hold for a high risk of fraud' +
        (hold.notes ? ` (${hold.notes})` : ''),
    )
  return [...(recommendation ? [recommendation] : []), ...assessed, ...new Set(held)]
}

/** What Shopify finds of fraud on the order now, read from its store. */
async function readFindings(
  deps: Deps,
  remote: Remote,
  order: LinkedOrder,
): Promise<{ findings: string[]; pending: boolean }> {
  const reading = await remote((signal) =>
    deps.commerce.readFraudSignals(order.storeShop, order.id, { signal }),
  ).catch((error: unknown) => {
    throw upstreamRefusal('Fraud check failed', 'commerce platform', error)
  })
  if (!reading) {
    throw new Refusal('not_found', `${order.storeShop} no longer has creator order ${order.name}`)
  }
  return {
    findings: fraudFindings(reading),
    pending: reading.assessments.some((assessment) => assessment.riskLevel === 'PENDING'),
  }
}

/**
 * The order's fraud reason, or none: none when Shopify finds nothing, or only what an
 * administrator released the order with. Refused as a conflict (what a later attempt may find
 * gone; the automatic job retries it) while an assessment is still pending.
 */
export async function fraudReasons(
  deps: Deps,
  remote: Remote,
  order: LinkedOrder,
): Promise<AttentionReason[]> {
  const { findings, pending } = await readFindings(deps, remote, order)
  if (findings.length > 0) {
    const released = await findReleasedFindings(deps.db, String(order.id))
    if (!released || !findings.every((finding) => released.includes(finding))) {
      return [attention.fraudRisk(order.storeShop, order.name, findings.join('; '))]
    }
  }
  if (pending) {
    throw new Refusal(
      'conflict',
      `Shopify's fraud analysis of creator order ${order.name} is still under way: try again in a few minutes, once it has rated the order`,
    )
  }
  return []
}

/**
 * Releases, for an order not yet transferred, what Shopify finds of fraud on it now, with the
 * administrator's reason (audited in the same transaction); an automatic order it stopped is tried
 * again. Anything Shopify finds later stops the order again.
 */
export async function releaseFraudCheck(
  deps: Deps & Pick<RouteDeps, 'jobs' | 'now'> & { planning: TransferPlanning; remote: Remote },
  request: { creatorOrderId: string; reason: string; adminEmail: string | null },
) {
  const { creatorOrderId, reason, adminEmail } = request
  const { order, transfer } = await deps.planning.loadOrder(creatorOrderId)
  const id = String(order.id)
  if (transfer?.status === 'COMPLETED') {
    throw new Refusal(
      'conflict',
      `Creator order ${order.name} was transferred already: there is nothing to release`,
    )
  }
  const { findings } = await readFindings(deps, deps.remote, order)
  if (findings.length === 0) {
    throw new Refusal(
      'business_rule',
      `Shopify finds no risk of fraud on creator order ${order.name}: there is nothing to release`,
    )
  }
  const releasedAt = deps.now().toISOString()
  await auditedChange(deps, adminEmail, async (trx) => {
    await recordFraudRelease(trx, {
      creatorOrderId: id,
      findings,
      reason,
      releasedBy: adminEmail,
      releasedAt,
    })
    await requeueOrderFrom(deps, trx, id, ['NEEDS_ATTENTION'])
    return {
      result: undefined,
      audit: {
        action: 'transfer.release-fraud-check',
        target: id,
        details: { reason, findings: findings.join('; ') },
      },
    }
  })
  return { creatorOrderId: orderGid(id), findings: findings.join('; '), releasedAt }
}
