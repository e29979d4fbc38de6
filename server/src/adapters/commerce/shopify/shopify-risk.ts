import type { CommercePort, OrderFraudReading } from '../commerce-port'
import { orderGid } from './order-gid'
import type { ShopifyApi } from './shopify-api'

// What Shopify found of fraud on a creator order, read before any transfer of it
// (transfers/fraud-check.ts): Order.risk (Admin API 2026-10: OrderRiskSummary, its
// OrderRiskAssessment list and their RiskFact list, all under read_orders) and the holds on its
// fulfillment orders (FulfillmentHold, under read_merchant_managed_fulfillment_orders).

/**
 * A creator's order has one fulfillment order per location it ships from: a few. The query costs
 * about 5 + 2 + 10 × 2 points, far within Shopify's 1,000 per query.
 */
const FULFILLMENT_ORDERS_READ = 10

const ORDER_FRAUD_SIGNALS = /* GraphQL */ `
  query OrderFraudSignals($id: ID!) {
    order(id: $id) {
      risk {
        recommendation
        assessments {
          riskLevel
          provider {
            title
          }
          facts {
            description
            sentiment
          }
        }
      }
      fulfillmentOrders(first: ${FULFILLMENT_ORDERS_READ}) {
        nodes {
          fulfillmentHolds {
            reason
            reasonNotes
          }
        }
      }
    }
  }
`

interface FraudNode {
  risk: {
    recommendation: string
    assessments: {
      riskLevel: string
      provider: { title: string } | null
      facts: { description: string; sentiment: string }[]
    }[]
  }
  fulfillmentOrders: {
    nodes: { fulfillmentHolds: { reason: string; reasonNotes: string | null }[] }[]
  }
}

export function shopifyRisk(api: ShopifyApi): Pick<CommercePort, 'readFraudSignals'> {
  return {
    async readFraudSignals(shop, orderId, options): Promise<OrderFraudReading | null> {
      const answer: { order: FraudNode | null } = await api.request(
        shop,
        ORDER_FRAUD_SIGNALS,
        { id: orderGid(orderId) },
        options,
      )
      if (!answer.order) return null
      const { risk, fulfillmentOrders } = answer.order
      return {
        recommendation: risk.recommendation,
        assessments: risk.assessments.map((assessment) => ({
          riskLevel: assessment.riskLevel,
          provider: assessment.provider?.title ?? null,
          negativeFacts: assessment.facts
            .filter((fact) => fact.sentiment === 'NEGATIVE')
            .map((fact) => fact.description),
        })),
        holds: fulfillmentOrders.nodes.flatMap((node) =>
          node.fulfillmentHolds.map((hold) => ({ reason: hold.reason, notes: hold.reasonNotes })),
        ),
      }
    },
  }
}
