import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadStateFile, saveStateFile } from '../state-file'
import { announcePaid } from './announcements'
import { BulkOperations, DEFAULT_BULK_OBJECTS_PER_SECOND } from './bulk'
import { CancelJobs, cancelOrder } from './cancellation'
import { requestCustomerData, type CustomerDataRequest } from './compliance'
import type { Runtime } from './context'
import { FaultScript, type ShopifyFault } from './faults'
import {
  orderSummary,
  refundInAdmin,
  refundSummaries,
  type EmulatedOrder,
  type EmulatedRefund,
} from './merchant'
import {
  fulfillInAdmin,
  fulfillmentOrderSummaries,
  fulfillmentSummaries,
  holdInAdmin,
  releaseInAdmin,
  updateTrackingInAdmin,
  type EmulatedFulfillment,
  type EmulatedFulfillmentOrder,
} from './merchant-fulfillments'
import {
  deleteInAdmin,
  editVariantInAdmin,
  productSummary,
  setStatusInAdmin,
  setHandleInAdmin,
  setStockInAdmin,
  type EmulatedProduct,
  type VariantEdit,
} from './merchant-catalog'
import { signedAppLaunch } from './oauth'
import { addToOrder, createOrder, findOrder, markOrderPaid, removeFromOrder } from './orders'
import { ProductSetOperations } from './product-operations'
import { answerAdminControl } from './admin-controls'
import { requestListener, type Surface } from './routes'
import { addCopies, addGeneratedProducts, seedSandbox } from './seed'
import {
  addShopRecord,
  emptyState,
  findVariant,
  gid,
  type AppRecord,
  type CancelReason,
  type EmulatorState,
  type FinancialStatus,
  type FulfillmentHoldReason,
  type OrderRecord,
  type ProductRecord,
  type RiskAssessmentRecord,
  type ShopRecord,
} from './state'
import {
  withCatalogue,
  withFulfillments,
  withOrderHistory,
  withOrderUpdates,
} from './state-upgrade'
import { LeakyBucket, type ThrottleConfig } from './throttle'
import { Timers } from './timers'
import { WebhookDispatcher } from './webhooks'

// A local Shopify: the HTTP surface Tandem's Shopify adapter talks to (OAuth, Admin GraphQL
// 2026-10, bulk result files) plus the controls tests and demos need to make Shopify misbehave.
// Shopify's https://{shop} is `${url}/{shop}` here.

export type { ShopifyFault } from './faults'
export type { EmulatedOrder, EmulatedRefund } from './merchant'
export type { EmulatedFulfillment, EmulatedFulfillmentOrder } from './merchant-fulfillments'
export type { EmulatedProduct } from './merchant-catalog'
export type { ThrottleConfig } from './throttle'
export type { CustomerDataRequest } from './compliance'
export { sandboxCatalogue } from './seed'

export interface ShopifyEmulatorOptions {
  /** 0 or absent: a free port on 127.0.0.1. */
  port?: number
  /** Where product images are served (the Tandem server's public URL). */
  imageBaseUrl: string
  /** Loaded at start when present, rewritten after each change; in memory only when absent. */
  stateFile?: string
  /** The sandbox marketplace, unless false; ignored when the state file exists. */
  seed?: boolean
  /** Per shop; 2000 points, restoring 100 per second, unless told otherwise. */
  throttle?: ThrottleConfig
  /** How long a new order stays invisible to orders(query:); 0 when absent. */
  searchLagMs?: number
  /** How fast bulk operations read; 20,000 objects a second unless told otherwise. */
  bulkObjectsPerSecond?: number
  /** How long orderCancel's job takes to cancel (setCancelDelay changes it); 0 when absent. */
  cancelDelayMs?: number
  /**
   * Where the app's configuration sends Shopify's compliance topics (shopify.app.toml's
   * `compliance_topics` subscription; compliance.ts): Tandem's `{publicUrl}/webhooks/shopify`, as
   * the stack and the tests' servers set it. Absent: a data request is refused, as Shopify sends
   * those topics to no other address.
   */
  complianceUri?: string
  log?: (line: string) => void
}

/** A customer's order as a test makes it: lines, and how it was paid and discounted. */
export interface CustomerOrder {
  lines: { variantId: string; quantity: number }[]
  email?: string
  metafields?: { namespace: string; key: string; value: string }[]
  /** PAID unless told otherwise; only a PAID order is announced on orders/paid. */
  financialStatus?: FinancialStatus
  /** An order-level discount code and the amount it takes off, allocated across the lines. */
  discount?: { code: string; amountMinor: number }
  /** Now unless told otherwise: an older order falls outside the 60-day window. */
  createdAt?: string
  tags?: string[]
  /** The id a test's fixtures name; the next one Shopify would give otherwise. */
  id?: number
}

/** A line of an order, by its position (0 for the first), and how many of its units. */
export interface LineUnits {
  line: number
  quantity: number
}

/** A shipment's tracking, as the merchant types it in the admin. */
export interface Tracking {
  company?: string
  number?: string
  url?: string
}

export interface ShopifyEmulator {
  url: string
  close(): Promise<void>
  script(fault: ShopifyFault): void
  /** Also refills the shop's bucket. */
  setThrottle(shop: string, throttle: ThrottleConfig): void
  /** How long orderCancel's jobs started from now on take to cancel their orders. */
  setCancelDelay(ms: number): void
  /** 'refuse': the client-credentials grant fails, as for an app of another organisation. */
  setGrant(shop: string, grant: 'allow' | 'refuse'): void
  /** Every access token of the shop answers 401 from now on (refresh tokens still work). */
  expireTokens(shop: string): void
  /** `count` generated single-variant products; answers their variant GIDs. */
  addProducts(shop: string, count: number): string[]
  /** Creator copies of brand variants: their variant ids (Tandem's database links them). */
  addCopies(creatorShop: string, brandShop: string, brandVariantIds: string[]): string[]
  /**
   * What a merchant edits of a variant in its admin: its price, metafields, or components (a
   * bundle). Changes it at once; resolves once products/update was first attempted.
   */
  editVariant(shop: string, variantId: string, edit: VariantEdit): Promise<void>
  /** A shop with no products or orders; its app is sandboxApp(shop) unless given. */
  addShop(shop: string, options?: { app?: AppRecord; currency?: string }): void
  /**
   * The merchant sets a product's status in their admin (Unlisted, Draft …); resolves once
   * products/update was first attempted.
   */
  setProductStatus(shop: string, productId: string, status: ProductRecord['status']): Promise<void>
  /** The merchant changes a product's handle; resolves once products/update was first attempted. */
  setHandle(shop: string, productId: string, handle: string): Promise<void>
  /**
   * The merchant sets what is available of a variant at the shop's location; resolves once
   * inventory_levels/update was first attempted.
   */
  setStock(shop: string, variantId: string, available: number): Promise<void>
  /** The merchant deletes a product; resolves once products/delete was first attempted. */
  deleteProduct(shop: string, productId: string): Promise<void>
  /** A product as the merchant sees it in the admin; null when the shop has none of that id. */
  product(shop: string, productId: string): EmulatedProduct | null
  /** The shop's products, oldest first. */
  products(shop: string): EmulatedProduct[]
  stockOf(variantId: string): number
  orders(shop: string): EmulatedOrder[]
  /**
   * Requests naming that root field (or 'access_token') that reached the shop, whatever became of
   * them (throttled, faulted and refused ones included).
   */
  calls(shop: string, operation: string): number
  /** The actual cost of the GraphQL requests the shop's bucket let through so far. */
  pointsSpent(shop: string): number
  webhookSubscriptions(shop: string): { id: string; topic: string; uri: string }[]
  /**
   * Webhook deliveries of every shop, one per subscription: how many were made, and how many are
   * still being attempted (a retry waiting included).
   */
  webhookDeliveries(): { started: number; underWay: number }
  /**
   * Revokes the shop's tokens and subscriptions, and refuses the client-credentials grant until the
   * merchant approves the app again; resolves once APP_UNINSTALLED was attempted.
   */
  uninstall(shop: string): Promise<void>
  /** A customer's paid order; resolves with its GID once ORDERS_PAID was first attempted. */
  createPaidOrder(shop: string, order: Omit<CustomerOrder, 'financialStatus'>): Promise<string>
  /** A customer's order in any financial state; announced on orders/paid when PAID. */
  createCustomerOrder(shop: string, order: CustomerOrder): Promise<string>
  /**
   * The merchant refunds these units in the admin, which gives back what they cost (the last units
   * give back the rest of the order, shipping and tax too) through the order's payment. Not
   * restocked unless told. Changes the order at once; resolves once refunds/create was attempted.
   */
  refund(
    shop: string,
    orderId: string,
    units: LineUnits[],
    options?: { restockType?: 'RETURN' | 'CANCEL' | 'NO_RESTOCK'; note?: string },
  ): Promise<void>
  /** The refunds of an order, oldest first. */
  refunds(shop: string, orderId: string): EmulatedRefund[]
  /** The merchant edits the order, taking these units off (orderEditBegin … orderEditCommit). */
  removeUnits(shop: string, orderId: string, units: LineUnits[]): void
  /**
   * The merchant edits the order, adding a line of `quantity` units of its variant
   * (orderEditBegin, orderEditAddVariant, orderEditCommit): a paid order owes the balance.
   */
  addUnits(shop: string, orderId: string, variantId: string, quantity: number): void
  /**
   * The merchant marks the order as paid in the admin (orderMarkAsPaid), paying its balance by a
   * manual payment; resolves once orders/paid was first attempted.
   */
  markAsPaid(shop: string, orderId: string): Promise<void>
  /**
   * The merchant cancels the order in the admin: without a refund or restock unless told, for
   * OTHER unless told. Refuses what orderCancel refuses, with Shopify's words. Changes the order
   * at once (the admin waits for its job); resolves once refunds/create (when it refunded)
   * and orders/cancelled were attempted.
   */
  cancel(
    shop: string,
    orderId: string,
    options?: { refund?: boolean; restock?: boolean; reason?: CancelReason; staffNote?: string },
  ): Promise<void>
  /**
   * The merchant ships these units (all that is left unless told) with this tracking, and lets
   * the customer know unless told not to. Refuses what fulfillmentCreate refuses, with Shopify's
   * words. Changes the order at once; resolves with the Fulfillment GID once fulfillments/create
   * was first attempted.
   */
  fulfill(
    shop: string,
    orderId: string,
    options?: { lines?: LineUnits[]; tracking?: Tracking; notifyCustomer?: boolean },
  ): Promise<string>
  /**
   * The merchant replaces a fulfillment's tracking, letting the customer know unless told not to;
   * resolves once fulfillments/update was first attempted.
   */
  updateTracking(
    shop: string,
    fulfillmentId: string,
    tracking: Tracking,
    options?: { notifyCustomer?: boolean },
  ): Promise<void>
  /**
   * The merchant holds what is left to ship of the order; resolves once
   * fulfillment_orders/placed_on_hold was first attempted.
   */
  holdFulfillment(
    shop: string,
    orderId: string,
    reason: FulfillmentHoldReason,
    notes?: string,
  ): Promise<void>
  /**
   * The merchant releases the order's holds; resolves once fulfillment_orders/hold_released was
   * first attempted.
   */
  releaseFulfillmentHold(shop: string, orderId: string): Promise<void>
  /**
   * A risk assessment of the order, as Shopify's fraud analysis (no provider) or an app's
   * orderRiskAssessmentCreate adds one: Order.risk shows it from then on. One that rates an order
   * its provider had PENDING ("still pending", RiskAssessmentResult, Admin API 2026-10) takes the
   * pending one's place: the analysis is done.
   */
  assessRisk(shop: string, orderId: string, assessment: RiskAssessmentRecord): void
  /**
   * The merchant requests the data of the order's customer in the admin: Shopify sends the app
   * customers/data_request at its configuration's compliance address. Resolves with the payload
   * once its first attempt was made.
   */
  requestCustomerData(shop: string, orderId: string): Promise<CustomerDataRequest>
  /** The fulfillments of an order, oldest first. */
  fulfillments(shop: string, orderId: string): EmulatedFulfillment[]
  /** The fulfillment orders of an order, one per location its lines are assigned to. */
  fulfillmentOrders(shop: string, orderId: string): EmulatedFulfillmentOrder[]
  /**
   * The merchant has the variant stocked by the shop's fulfillment service (a 3PL) from now on:
   * orders placed after assign its units to that location. Answers the location's name.
   */
  stockAtFulfillmentService(shop: string, variantId: string): string
  /** What the shop's app configuration grants tokens issued from now on (client credentials). */
  setScopes(shop: string, scopes: string): void
  /** The query Shopify appends to the App URL, signed with the shop's client secret. */
  signedAppLaunch(shop: string): URLSearchParams
}

const DEFAULT_THROTTLE: ThrottleConfig = { maximumAvailable: 2000, restoreRate: 100 }

/** Where a customer's order goes when the test does not care. */
const CUSTOMER_ADDRESS = {
  firstName: 'Alex',
  lastName: 'Morgan',
  address1: '10 Market St',
  city: 'San Francisco',
  province: 'CA',
  zip: '94105',
  countryCode: 'US',
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

export async function startShopifyEmulator(
  options: ShopifyEmulatorOptions,
): Promise<ShopifyEmulator> {
  const log = options.log ?? (() => {})
  const file = options.stateFile ? loadStateFile<EmulatorState>(options.stateFile) : undefined
  const loaded = file && withOrderUpdates(withFulfillments(withCatalogue(withOrderHistory(file))))
  const state = loaded ?? emptyState()
  if (!loaded && options.seed !== false) seedSandbox(state, options.imageBaseUrl)

  const server = createServer()
  const url = `http://127.0.0.1:${await listen(server, options.port ?? 0)}`
  const timers = new Timers()
  const faults = new FaultScript()
  const callCounts = new Map<string, number>()
  const buckets = new Map<string, LeakyBucket>()
  const runtime: Runtime = {
    state,
    url,
    searchLagMs: options.searchLagMs ?? 0,
    searchableAt: new Map(),
    orderEdits: new Map(),
    save: () => {
      if (options.stateFile) saveStateFile(options.stateFile, state)
    },
    bulk: new BulkOperations(
      url,
      timers,
      options.bulkObjectsPerSecond ?? DEFAULT_BULK_OBJECTS_PER_SECOND,
    ),
    productSetOperations: new ProductSetOperations(),
    cancelJobs: new CancelJobs(timers, options.cancelDelayMs ?? 0),
    webhooks: new WebhookDispatcher(timers, log),
    log,
  }
  if (!loaded) runtime.save()

  const shopOf = (domain: string): ShopRecord => {
    const shop = state.shops[domain]
    if (!shop) throw new Error(`The emulator has no shop ${domain}`)
    return shop
  }
  const orderOf = (shop: string, orderId: string) => {
    const order = findOrder(shopOf(shop), orderId)
    if (!order) throw new Error(`${shop} has no order ${orderId}`)
    return order
  }
  const lineUnits = (order: OrderRecord, { line, quantity }: LineUnits) => {
    const found = order.lines[line]
    if (!found) throw new Error(`Order ${order.name} has no line at position ${line}`)
    return { lineItemId: found.id, quantity }
  }
  async function createCustomerOrder(shop: string, order: CustomerOrder): Promise<string> {
    const record = shopOf(shop)
    const input = {
      email: order.email ?? 'customer@example.com',
      lineItems: order.lines,
      shippingAddress: CUSTOMER_ADDRESS,
      metafields: order.metafields,
      tags: order.tags,
    }
    const financialStatus = order.financialStatus ?? 'PAID'
    // A checkout claims stock; the emulator lets a test oversell rather than fail.
    const created = createOrder(runtime, record, input, {
      inventoryBehaviour: 'DECREMENT_IGNORING_POLICY',
      financialStatus,
      discount: order.discount,
      id: order.id,
    })
    if (!created.order) throw new Error(created.userErrors.map((e) => e.message).join('; '))
    if (order.createdAt) {
      created.order.createdAt = order.createdAt
      runtime.save()
    }
    if (financialStatus === 'PAID') await announcePaid(runtime, record, created.order)
    return gid('Order', created.order.id)
  }
  const bucketOf = (domain: string) => {
    const bucket = buckets.get(domain) ?? new LeakyBucket(options.throttle ?? DEFAULT_THROTTLE)
    buckets.set(domain, bucket)
    return bucket
  }
  const surface: Surface = {
    runtime,
    faults,
    timers,
    bucketOf,
    countCall: (shop, operation) => {
      const key = `${shop} ${operation}`
      callCounts.set(key, (callCounts.get(key) ?? 0) + 1)
    },
  }
  const api = requestListener(surface)
  server.on('request', (request, response) => {
    answerAdminControl(emulator, state, request, response)
      .then((answered) => answered || api(request, response))
      .catch((error: unknown) => log(`admin control ${request.url} failed: ${String(error)}`))
  })

  const emulator: ShopifyEmulator = {
    url,
    close: () => {
      timers.clear()
      runtime.webhooks.stop()
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
    },
    script: (fault) => faults.add(fault),
    setThrottle: (shop, throttle) =>
      void buckets.set(shopOf(shop).domain, new LeakyBucket(throttle)),
    setCancelDelay: (ms) => void (runtime.cancelJobs.delayMs = ms),
    setGrant: (shop, grant) => {
      shopOf(shop).grant = grant
      runtime.save()
    },
    expireTokens: (shop) => {
      for (const token of shopOf(shop).accessTokens) token.expiresAt = 0
      runtime.save()
    },
    addProducts: (shop, count) => {
      const variantIds = addGeneratedProducts(state, shopOf(shop), count)
      runtime.save()
      return variantIds
    },
    addCopies: (creatorShop, brandShop, brandVariantIds) => {
      const variantIds = addCopies(state, shopOf(creatorShop), shopOf(brandShop), brandVariantIds)
      runtime.save()
      return variantIds
    },
    editVariant: (shop, variantId, edit) =>
      editVariantInAdmin(runtime, shopOf(shop), variantId, edit),
    addShop: (shop, shopOptions) => {
      addShopRecord(state, shop, shopOptions)
      runtime.save()
    },
    setProductStatus: (shop, productId, status) =>
      setStatusInAdmin(runtime, shopOf(shop), productId, status),
    setHandle: (shop, productId, handle) =>
      setHandleInAdmin(runtime, shopOf(shop), productId, handle),
    setStock: (shop, variantId, available) =>
      setStockInAdmin(runtime, shopOf(shop), variantId, available),
    deleteProduct: (shop, productId) => deleteInAdmin(runtime, shopOf(shop), productId),
    product: (shop, productId) => {
      const record = shopOf(shop)
      const found = record.products.find((candidate) => candidate.id === productId)
      return found ? productSummary(record, found) : null
    },
    products: (shop) => {
      const record = shopOf(shop)
      return record.products.map((product) => productSummary(record, product))
    },
    stockOf: (variantId) => {
      for (const shop of Object.values(state.shops)) {
        const found = findVariant(shop, variantId)
        if (found) return found.variant.inventoryQuantity
      }
      throw new Error(`The emulator has no variant ${variantId}`)
    },
    orders: (shop) => shopOf(shop).orders.map(orderSummary),
    calls: (shop, operation) => callCounts.get(`${shop} ${operation}`) ?? 0,
    pointsSpent: (shop) => bucketOf(shopOf(shop).domain).spent(),
    webhookSubscriptions: (shop) =>
      shopOf(shop).webhooks.map(({ id, topic, uri }) => ({ id, topic, uri })),
    webhookDeliveries: () => runtime.webhooks.deliveries(),
    uninstall: async (shop) => {
      const record = shopOf(shop)
      const subscriptions = record.webhooks.filter((w) => w.topic === 'APP_UNINSTALLED')
      // Shopify revokes the app's access and forgets its subscriptions as it uninstalls it.
      record.uninstalled = true
      record.webhooks = []
      record.accessTokens = []
      record.refreshTokens = []
      record.authorizationCodes = []
      runtime.save()
      const payload = {
        id: record.numericId,
        domain: shop,
        myshopify_domain: shop,
        name: record.name,
      }
      await runtime.webhooks.deliver(record, 'APP_UNINSTALLED', payload, subscriptions)
    },
    createPaidOrder: (shop, order) => createCustomerOrder(shop, order),
    createCustomerOrder: (shop, order) => createCustomerOrder(shop, order),
    refund: (shop, orderId, units, refundOptions = {}) => {
      const order = orderOf(shop, orderId)
      const restockType = refundOptions.restockType ?? 'NO_RESTOCK'
      const lines = units.map((unit) => ({ ...lineUnits(order, unit), restockType }))
      return refundInAdmin(runtime, shopOf(shop), order, lines, refundOptions.note ?? null)
    },
    refunds: (shop, orderId) => refundSummaries(orderOf(shop, orderId)),
    removeUnits: (shop, orderId, units) => {
      const order = orderOf(shop, orderId)
      for (const unit of units) {
        const { lineItemId, quantity } = lineUnits(order, unit)
        removeFromOrder(order, lineItemId, quantity)
      }
      runtime.save()
    },
    addUnits: (shop, orderId, variantId, quantity) =>
      addToOrder(runtime, shopOf(shop), orderOf(shop, orderId), variantId, quantity),
    markAsPaid: async (shop, orderId) => {
      const { userErrors, announced } = markOrderPaid(runtime, shopOf(shop), orderId)
      if (userErrors.length > 0) throw new Error(userErrors[0]!.message)
      await announced
    },
    cancel: (shop, orderId, cancelOptions = {}) => {
      orderOf(shop, orderId)
      const result = cancelOrder(runtime, shopOf(shop), {
        orderId,
        refund: cancelOptions.refund ?? false,
        restock: cancelOptions.restock ?? false,
        reason: cancelOptions.reason ?? 'OTHER',
        staffNote: cancelOptions.staffNote,
      })
      if (result.userErrors.length > 0)
        throw new Error(result.userErrors.map((error) => error.message).join('; '))
      return result.announced
    },
    fulfill: (shop, orderId, fulfillOptions = {}) => {
      const order = orderOf(shop, orderId)
      return fulfillInAdmin(runtime, shopOf(shop), order, {
        lines: fulfillOptions.lines?.map((unit) => lineUnits(order, unit)),
        tracking: fulfillOptions.tracking,
        notifyCustomer: fulfillOptions.notifyCustomer ?? true,
      })
    },
    updateTracking: (shop, fulfillmentId, tracking, trackingOptions = {}) =>
      updateTrackingInAdmin(
        runtime,
        shopOf(shop),
        fulfillmentId,
        tracking,
        trackingOptions.notifyCustomer ?? true,
      ),
    holdFulfillment: (shop, orderId, reason, notes) =>
      holdInAdmin(runtime, shopOf(shop), orderOf(shop, orderId), {
        reason,
        reasonNotes: notes ?? null,
      }),
    releaseFulfillmentHold: (shop, orderId) =>
      releaseInAdmin(runtime, shopOf(shop), orderOf(shop, orderId)),
    assessRisk: (shop, orderId, assessment) => {
      const order = orderOf(shop, orderId)
      const rated = (earlier: RiskAssessmentRecord) =>
        earlier.riskLevel === 'PENDING' && earlier.provider === assessment.provider
      order.riskAssessments = [
        ...(order.riskAssessments ?? []).filter((earlier) => !rated(earlier)),
        assessment,
      ]
      runtime.save()
    },
    requestCustomerData: async (shop, orderId) => {
      const order = orderOf(shop, orderId)
      if (!options.complianceUri)
        throw new Error(
          "The app's configuration names no address for compliance webhooks: start the emulator with complianceUri",
        )
      return requestCustomerData(runtime, shopOf(shop), order, options.complianceUri)
    },
    fulfillments: (shop, orderId) => fulfillmentSummaries(orderOf(shop, orderId)),
    fulfillmentOrders: (shop, orderId) =>
      fulfillmentOrderSummaries(shopOf(shop), orderOf(shop, orderId)),
    stockAtFulfillmentService: (shop, variantId) => {
      const [service] = shopOf(shop).serviceLocations ?? []
      if (!service) throw new Error(`${shop} has no fulfillment service`)
      service.variantIds.push(variantId)
      runtime.save()
      return service.name
    },
    setScopes: (shop, scopes) => {
      shopOf(shop).scopes = scopes
      runtime.save()
    },
    signedAppLaunch: (shop) => signedAppLaunch(shopOf(shop)),
  }
  return emulator
}
