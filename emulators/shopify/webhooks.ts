import { createHmac, randomUUID } from 'node:crypto'
import { API_VERSION } from './schema'
import type { ShopRecord, WebhookRecord } from './state'
import type { Timers } from './timers'

// Deliveries as Shopify makes them: a JSON POST signed with the app's client secret, retried when
// the receiver fails or takes longer than 5 s, with the same X-Shopify-Webhook-Id on every attempt.

export type WebhookTopic =
  | 'ORDERS_PAID'
  | 'ORDERS_CANCELLED'
  | 'REFUNDS_CREATE'
  | 'APP_UNINSTALLED'
  | 'PRODUCTS_CREATE'
  | 'PRODUCTS_UPDATE'
  | 'PRODUCTS_DELETE'
  | 'INVENTORY_LEVELS_UPDATE'
  | 'FULFILLMENTS_CREATE'
  | 'FULFILLMENTS_UPDATE'
  | 'FULFILLMENT_ORDERS_PLACED_ON_HOLD'
  | 'FULFILLMENT_ORDERS_HOLD_RELEASED'

/** The compliance topics sent: to the app configuration's address, never subscribed to. */
export type ComplianceTopic = 'CUSTOMERS_DATA_REQUEST'

/** The resources whose names have an underscore; the others are the topic's first word. */
const RESOURCES_WITH_UNDERSCORES = ['inventory_levels', 'fulfillment_orders']

/**
 * The header form of a topic, resource/event: ORDERS_PAID → orders/paid,
 * INVENTORY_LEVELS_UPDATE → inventory_levels/update,
 * FULFILLMENT_ORDERS_PLACED_ON_HOLD → fulfillment_orders/placed_on_hold. Either part may have
 * underscores, so the resource is looked up rather than read off the name.
 */
export function headerTopic(topic: WebhookTopic | ComplianceTopic): string {
  const name = topic.toLowerCase()
  const resource =
    RESOURCES_WITH_UNDERSCORES.find((candidate) => name.startsWith(`${candidate}_`)) ??
    name.slice(0, name.indexOf('_'))
  return `${resource}/${name.slice(resource.length + 1)}`
}

const ATTEMPT_TIMEOUT_MS = 5000
/** Waits before the second and third attempts: short, so that tests see retries quickly. */
const RETRY_DELAYS_MS = [200, 800]

export class WebhookDispatcher {
  /** Aborts attempts under way and forbids new ones once the emulator closes. */
  private readonly stopping = new AbortController()
  /** Deliveries (one per subscription) made so far, and those whose attempts have not ended. */
  private readonly counts = { started: 0, underWay: 0 }

  constructor(
    private readonly timers: Timers,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Posts `payload` to every subscription of the topic (or to those given, when the shop's own
   * list is already gone, as on uninstall). Settles after each one's first attempt; retries
   * continue in the background. Never rejects.
   */
  async deliver(
    shop: ShopRecord,
    topic: WebhookTopic | ComplianceTopic,
    payload: unknown,
    subscriptions = shop.webhooks.filter((subscription) => subscription.topic === topic),
  ): Promise<void> {
    const body = JSON.stringify(payload)
    const eventId = randomUUID()
    const triggeredAt = new Date().toISOString()
    await Promise.all(
      subscriptions.map((subscription) => {
        const headers = {
          'Content-Type': 'application/json',
          'X-Shopify-Topic': headerTopic(topic),
          'X-Shopify-Hmac-Sha256': createHmac('sha256', shop.app.clientSecret)
            .update(body)
            .digest('base64'),
          'X-Shopify-Shop-Domain': shop.domain,
          'X-Shopify-Webhook-Id': randomUUID(),
          'X-Shopify-Event-Id': eventId,
          'X-Shopify-Triggered-At': triggeredAt,
          'X-Shopify-API-Version': API_VERSION,
        }
        this.counts.started += 1
        this.counts.underWay += 1
        return this.attempt(subscription, headers, body, 1)
      }),
    )
  }

  /** A copy of the counts: a test waits on them for the news a write sent to reach its receiver. */
  deliveries(): { started: number; underWay: number } {
    return { ...this.counts }
  }

  stop(): void {
    this.stopping.abort()
  }

  private async attempt(
    subscription: WebhookRecord,
    headers: Record<string, string>,
    body: string,
    attempt: number,
  ): Promise<void> {
    let outcome: string
    try {
      const response = await fetch(subscription.uri, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      })
      await response.body?.cancel()
      if (response.ok) return this.ended()
      outcome = `HTTP ${response.status}`
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error)
    }
    // Closing: the attempt was cut short on purpose and nothing is retried.
    if (this.stopping.signal.aborted) return this.ended()
    const retryIn = RETRY_DELAYS_MS[attempt - 1]
    this.log(
      `webhook ${headers['X-Shopify-Topic']} to ${subscription.uri} failed (${outcome}), ` +
        (retryIn === undefined ? 'giving up' : `attempt ${attempt + 1} in ${retryIn} ms`),
    )
    if (retryIn === undefined) return this.ended()
    this.timers.after(retryIn, () => void this.attempt(subscription, headers, body, attempt + 1))
  }

  private ended(): void {
    this.counts.underWay -= 1
  }
}
