import { z } from 'zod'
import { HOLD_MINUTES_RULE, LATE_AFTER_DAYS_RULE, numberSchema, RATE_RULE } from './number-rules'
import {
  FulfillmentHoldReason,
  FulfillmentOrderStatus,
  FulfillmentStatus,
  JobKind,
  JobState,
  ListingStatus,
  ListingSyncState,
  MoneyMovementKind,
  ProductStatus,
  ShopType,
  TransferMode,
  TransferStatus,
} from './enums'

/**
 * `name.myshopify.com`, trimmed and lower-cased before the check; the name is one DNS label, so
 * at most 63 characters. The store's URL as the Stores list shows it (`https://name.myshopify.com/`)
 * is the same shop: its scheme and one trailing slash are dropped, and nothing else, so that a
 * path, a port, credentials or another host still fail the pattern rather than pass as a shop.
 */
export const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/
const SHOP_DOMAIN_MAX = 63 + '.myshopify.com'.length
const shopOfUrl = (text: string) => text.replace(/^https?:\/\//, '').replace(/\/$/, '')
export const ShopDomain = z
  .string()
  .trim()
  .toLowerCase()
  .overwrite(shopOfUrl)
  .min(1, { message: 'is required', abort: true })
  .max(SHOP_DOMAIN_MAX, {
    message: `must be at most ${SHOP_DOMAIN_MAX} characters (a store name of up to 63, then .myshopify.com)`,
    abort: true,
  })
  .regex(SHOP_DOMAIN_PATTERN, 'must look like name.myshopify.com')

/**
 * Shopify app credentials as a caller may store them. Shopify's client ids are 32 hex digits and
 * its secrets `shpss_` and 32 hex digits today, but older apps' and future ones differ, so a
 * length and a character set are checked, not one format: enough to refuse pasted prose, spaces
 * and megabytes, never a real credential.
 */
export const APP_CREDENTIAL_MAX = 128
export const AppCredential = z
  .string()
  .trim()
  .min(1, { message: 'is required', abort: true })
  .max(APP_CREDENTIAL_MAX, {
    message: `must be at most ${APP_CREDENTIAL_MAX} characters (Shopify's are 32 to 38)`,
    abort: true,
  })
  .regex(/^[A-Za-z0-9_-]+$/, 'must hold only letters, digits, "_" and "-", as Shopify\'s do')
export type ShopDomain = z.infer<typeof ShopDomain>

/** A percentage from 0 to 100 with at most two decimals (10 means 10 %). */
export const Rate = numberSchema(RATE_RULE)

/** Money at the API's edge: a decimal string with the currency's decimals ("102.00"). */
export const MoneyAmount = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal amount')
export const Money = z.object({ amount: MoneyAmount, currencyCode: z.string() })
/** Shopify's MoneyBag: the shop's and the customer's (presentment) currencies. */
export const MoneyBag = z.object({ presentmentMoney: Money })

export const Store = z.object({
  shop: z.string(),
  shopType: ShopType,
})
export type Store = z.infer<typeof Store>

/** How far a store's product sync got (docs/integrations.md "Shopify"). */
export const ProductSyncStatus = z.object({
  storeShop: z.string(),
  state: z.enum(['IDLE', 'RUNNING', 'FAILED']),
  fetched: z.number().int().nonnegative(),
  /** What Shopify counted when the sync began; null until then. */
  total: z.number().int().nonnegative().nullable(),
  syncedAt: z.string().nullable(),
  message: z.string().nullable(),
})
export type ProductSyncStatus = z.infer<typeof ProductSyncStatus>

/** How Tandem is connected to a shop's Admin API (docs/integrations.md "Shopify"). */
export const ShopConnection = z.object({
  shop: z.string(),
  state: z.enum(['CONNECTED', 'NOT_CONNECTED', 'ERROR']),
  method: z.enum(['CLIENT_CREDENTIALS', 'AUTHORIZATION_CODE']).nullable(),
  scopes: z.array(z.string()),
  message: z.string().nullable(),
})
export type ShopConnection = z.infer<typeof ShopConnection>

/** A Stripe connected account id: `acct_` and letters or digits. */
export const PaymentAccountId = z
  .string()
  .trim()
  .min(1, { message: 'is required', abort: true })
  // Stripe's object ids are at most 255 characters.
  .max(255, { message: 'must be at most 255 characters', abort: true })
  .regex(/^acct_[A-Za-z0-9_]+$/, 'must look like acct_…')

/** An amount of money owed, in one currency, over some creator orders. */
export const OwedAmount = z.object({
  currency: z.string(),
  /** In major units, as the order's totals are ("24.84"). */
  amount: z.string(),
  orders: z.number().int(),
})
export type OwedAmount = z.infer<typeof OwedAmount>

/**
 * The Stripe connected account a store is paid to: a brand its transfers, a creator its
 * commissions. `email` and `transfersActive` are read from Stripe: both null when no account is
 * set or Stripe does not know it.
 */
export const StorePaymentAccount = z.object({
  shop: z.string(),
  accountId: z.string().nullable(),
  email: z.string().nullable(),
  transfersActive: z.boolean().nullable(),
  /** A creator's commissions not paid yet, per currency; always empty for a brand. */
  commissionOwed: z.array(OwedAmount),
  /** Why the oldest of them was not paid when last tried; null when none was tried or owed. */
  commissionWaitingReason: z.string().nullable(),
})
export type StorePaymentAccount = z.infer<typeof StorePaymentAccount>

export const AppConfig = z.object({
  shop: z.string(),
  clientId: z.string(),
  /** Null when the server cannot read the stored secret; secretError then says why. */
  clientSecret: z.string().nullable(),
  secretError: z.string().nullable(),
  shopType: ShopType,
})
export type AppConfig = z.infer<typeof AppConfig>

export const AppUrls = z.object({
  brandAppUrl: z.string(),
  creatorAppUrl: z.string(),
  /** Comma-separated list of the brand app's callback URLs. */
  brandAppAuthUrl: z.string(),
  creatorAppAuthUrl: z.string(),
})
export type AppUrls = z.infer<typeof AppUrls>

// Answers are read leniently (a field the server adds later is ignored); what a caller sends is
// read strictly (an unknown field is refused), hence an answer schema and an input schema each.

const defaultCommissionFields = {
  brandStoreShop: ShopDomain,
  tandemCommissionRate: Rate,
  creatorCommissionRate: Rate,
}
export const DefaultCommission = z.object(defaultCommissionFields)
export type DefaultCommission = z.infer<typeof DefaultCommission>
export const DefaultCommissionInput = z
  .object(defaultCommissionFields)
  .strict()
  .refine((c) => c.tandemCommissionRate + c.creatorCommissionRate <= 100, {
    message: 'Tandem and creator commission rates together must not exceed 100',
    path: ['creatorCommissionRate'],
  })

const uniqueCommissionRateFields = {
  brandStoreShop: ShopDomain,
  creatorStoreShop: ShopDomain,
  commissionRate: Rate,
}
export const UniqueCommissionRate = z.object(uniqueCommissionRateFields)
export type UniqueCommissionRate = z.infer<typeof UniqueCommissionRate>
export const UniqueCommissionRateInput = z.object(uniqueCommissionRateFields).strict()

/** The numeric order id (`1001`) or its GID (`gid://shopify/Order/1001`). */
export const CreatorOrderId = z
  .string()
  .trim()
  .min(1, { message: 'Creator order ID is required', abort: true })
  .regex(/^(\d+|gid:\/\/shopify\/Order\/\d+)$/, 'must be an order number or an order GID')

/**
 * An order by the name the console shows it under (`#1001`, Orders' first column). Shopify's name
 * is unique only within its store and is not the order's id, so it never stands for an id as
 * typed: the console finds the one creator order of that name and sends that order's id, and
 * refuses a name several stores' orders share (docs/product-rules.md "Order transfers").
 */
export const CreatorOrderName = z
  .string()
  .trim()
  .regex(/^#\d+$/)

/** What to type where a creator order is asked for, in every form the console shows one. */
export const CREATOR_ORDER_FORMS =
  'Type the order as Orders shows it (#1001), its id (1001) or its GID (gid://shopify/Order/1001).'

export const ShippingAddress = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  address1: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
})

export const LineItem = z.object({
  id: z.string(),
  title: z.string().nullish(),
  name: z.string().nullish(),
  quantity: z.number().int().nullish(),
  currentQuantity: z.number().int().nullish(),
  image: z.object({ url: z.string() }).nullish(),
  originalUnitPriceSet: MoneyBag,
  originalTotalSet: MoneyBag,
  /** The brand store the line's product comes from; null for the creator's own products. */
  brandStoreShop: z.string().nullable(),
})
export type LineItem = z.infer<typeof LineItem>

export const CreatorOrder = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  createdAt: z.string(),
  creatorStoreShop: z.string(),
  currentSubtotalPriceSet: MoneyBag,
  currentTotalTaxSet: MoneyBag,
  /** Shipping charged, so that subtotal, shipping and tax add up to the total. */
  currentShippingPriceSet: MoneyBag,
  currentTotalPriceSet: MoneyBag,
  shippingAddress: ShippingAddress.nullable(),
  lineItems: z.object({ nodes: z.array(LineItem) }),
})
export type CreatorOrder = z.infer<typeof CreatorOrder>

/**
 * A brand's figures in the currency its order's charge settled in (Stripe's balance transaction):
 * what the Stripe transfer moves, converted at the charge's own exchange rate.
 */
export const SettledAmounts = z.object({
  currency: z.string(),
  /** Stripe's rate, as a decimal: the order's amount times it is the settled amount. */
  exchangeRate: z.string(),
  brandAmount: MoneyAmount,
  creatorCommissionAmount: MoneyAmount,
  tandemCommissionAmount: MoneyAmount,
})
export type SettledAmounts = z.infer<typeof SettledAmounts>

export const BrandTransfer = z.object({
  brandStoreShop: z.string(),
  /** Null until processing has created the brand order. */
  brandOrderId: z.string().nullable(),
  brandAmount: MoneyAmount,
  creatorCommissionAmount: MoneyAmount,
  tandemCommissionAmount: MoneyAmount,
  /**
   * The same in the currency the order's charge settled in, which its Stripe transfer moves; null
   * while Tandem has no charge of the order to read it from.
   */
  settlement: SettledAmounts.nullable(),
})
export type BrandTransfer = z.infer<typeof BrandTransfer>

/**
 * One movement of an order's money between the platform and a party, as Stripe made it (or would
 * not): in the currency it moved in (the charge's settlement currency), with Stripe's id of it (the
 * transfer or the reversal; for an amount owed, the transfer Stripe would not reverse).
 */
export const MoneyMovement = z.object({
  at: z.string(),
  kind: MoneyMovementKind,
  party: ShopType,
  storeShop: z.string(),
  amount: MoneyAmount,
  currency: z.string(),
  stripeId: z.string().nullable(),
})
export type MoneyMovement = z.infer<typeof MoneyMovement>

export const TransferPreview = z.object({
  currency: z.string(),
  status: TransferStatus,
  processedAt: z.string().nullable(),
  brands: z.array(BrandTransfer),
  totals: z.object({
    totalBrandAmount: MoneyAmount,
    totalCreatorCommissionAmount: MoneyAmount,
    totalTandemCommissionAmount: MoneyAmount,
  }),
  /** What the brands' transfers move in all, in the settlement currency; null as a brand's. */
  settledTotals: z.object({ currency: z.string(), totalBrandAmount: MoneyAmount }).nullable(),
  /** Every movement of the order's money since its transfer began, oldest first. */
  moneyTrail: z.array(MoneyMovement),
  /**
   * A refund of the order that has not gone back yet: why, as the refund job's last run said
   * (funds Stripe holds pending, the customer not yet refunded in Stripe), and when it runs again
   * (RETRYING) or stopped (DEAD, retried from the Jobs page); null when none waits.
   */
  refundWaiting: z
    .object({ reason: z.string(), state: z.enum(['RETRYING', 'DEAD']), at: z.string() })
    .nullable(),
})
export type TransferPreview = z.infer<typeof TransferPreview>

/** A brand's base split three ways, as decimal strings of the order's currency. */
export const PartAmounts = z.object({
  brandAmount: MoneyAmount,
  creatorCommissionAmount: MoneyAmount,
  tandemCommissionAmount: MoneyAmount,
})

/**
 * What refunds of a completed transfer's order take back from each brand's part, at the rates
 * frozen when it ran and with the same rounding, and what each party keeps (issue 33).
 */
export const RefundSplitPreview = z.object({
  currency: z.string(),
  brands: z.array(
    z.object({
      brandStoreShop: z.string(),
      /** The brand's units the order would no longer sell. */
      refundedUnits: z.number().int().nonnegative(),
      back: PartAmounts,
      kept: PartAmounts,
    }),
  ),
  totals: z.object({ back: PartAmounts, kept: PartAmounts }),
})
export type RefundSplitPreview = z.infer<typeof RefundSplitPreview>

/** Units of a creator order's line to refund, in a refund split's preview. */
export const RefundLineInput = z
  .object({
    lineItemId: z.string().trim().min(1, 'is required'),
    // Up to the units the line still sells, which only the order knows: checked against them
    // (server/src/transfers/refund-splits.ts) by refundUnitsRule, as the console's field is.
    quantity: z.number(),
  })
  .strict()

// The daily screens (docs/product-rules.md "The console's screens"): lists paged by an opaque
// cursor, newest first.

/** How many rows a page holds: 50 unless asked, at most 500. */
export const PAGE_LIMIT = { default: 50, max: 500 } as const
export const PageQuery = {
  cursor: z.string().trim().min(1).optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(PAGE_LIMIT.max, `must be at most ${PAGE_LIMIT.max}`)
    .optional(),
}

/** Who can fix what stops an order: a Tandem administrator, or the brand or creator store named. */
export const AttentionParty = z.object({
  role: z.enum(['ADMINISTRATOR', 'BRAND', 'CREATOR']),
  /** The brand's or creator's shop; null for an administrator. */
  shop: z.string().nullable(),
})
export type AttentionParty = z.infer<typeof AttentionParty>

/** Who fixes a reason, the fix, and the console page where it is made or shown. */
export const AttentionRemedy = z.object({
  party: AttentionParty,
  fix: z.string(),
  /** A console route (`consolePaths`) and what the link says. */
  link: z.object({ label: z.string(), to: z.string() }),
})
export type AttentionRemedy = z.infer<typeof AttentionRemedy>

/**
 * One reason an order needs attention: the sentence, and its remedy; null when the refusal is of
 * the order's own data and names no party (the sentence says what is wrong).
 */
export const AttentionReasonView = z.object({
  sentence: z.string(),
  remedy: AttentionRemedy.nullable(),
})
export type AttentionReasonView = z.infer<typeof AttentionReasonView>

/**
 * What will happen to an order, and what stops it (docs/product-rules.md "Automatic transfers"):
 * it waits for an administrator (MANUAL: the policy, or paid before the policy was automatic); it
 * is held; it waits for the end of its hold, or for its next retry after Shopify or Stripe failed; a person
 * must act first (each reason names who can fix it, the fix and where); it has nothing to transfer; or its
 * transfer is under way, completed, or partial (a brand's step failed: which, and why).
 */
export const OrderReadiness = z.discriminatedUnion('state', [
  z.object({ state: z.literal('MANUAL') }),
  z.object({ state: z.literal('WAITING'), until: z.string() }),
  /** Held by an administrator, or one of its brands paused: by whom, why, since when. */
  z.object({
    state: z.literal('HELD'),
    reason: z.string(),
    by: z.string().nullable(),
    since: z.string(),
  }),
  z.object({ state: z.literal('RETRYING'), until: z.string(), message: z.string() }),
  z.object({ state: z.literal('NEEDS_ATTENTION'), reasons: z.array(AttentionReasonView).min(1) }),
  z.object({ state: z.literal('NOTHING_TO_TRANSFER'), message: z.string() }),
  z.object({ state: z.literal('PROCESSING') }),
  z.object({ state: z.literal('COMPLETED') }),
  z.object({ state: z.literal('PARTIAL'), failedStep: z.string() }),
])
export type OrderReadiness = z.infer<typeof OrderReadiness>

/** Why an administrator holds an order or pauses a brand, as the audit log keeps it. */
export const HoldReason = z
  .string()
  .trim()
  .min(10, 'must say why, in at least 10 characters')
  .max(500, 'must be at most 500 characters')

/** An order an administrator holds: automatic processing leaves it until released. */
export const OrderHold = z.object({
  creatorOrderId: z.string(),
  reason: z.string(),
  heldBy: z.string().nullable(),
  heldAt: z.string(),
})
export type OrderHold = z.infer<typeof OrderHold>

/** A brand an administrator paused: automatic processing leaves its orders until resumed. */
export const BrandPause = z.object({
  shop: z.string(),
  reason: z.string(),
  pausedBy: z.string().nullable(),
  pausedAt: z.string(),
})
export type BrandPause = z.infer<typeof BrandPause>

/** A creator order as the orders inbox lists it, with where its transfer stands. */
export const CreatorOrderSummary = z.object({
  /** The numeric order id. */
  id: z.string(),
  name: z.string(),
  creatorStoreShop: z.string(),
  createdAt: z.string(),
  currency: z.string(),
  totalAmount: MoneyAmount,
  transferStatus: TransferStatus,
  processedAt: z.string().nullable(),
  readiness: OrderReadiness,
})
export type CreatorOrderSummary = z.infer<typeof CreatorOrderSummary>

/** One brand of a processed or partial transfer, with the figures frozen when it began. */
export const BrandTransferRecord = z.object({
  brandStoreShop: z.string(),
  brandOrderId: z.string().nullable(),
  /** Percentages, as frozen. */
  tandemCommissionRate: z.number(),
  creatorCommissionRate: z.number(),
  baseAmount: MoneyAmount,
  brandAmount: MoneyAmount,
  creatorCommissionAmount: MoneyAmount,
  tandemCommissionAmount: MoneyAmount,
  /** The same in the settlement currency; null before the charge was read (nothing owed). */
  settlement: SettledAmounts.nullable(),
  /** The Stripe transfer, once made. */
  paymentTransferId: z.string().nullable(),
  /** The step that failed last and why; null once it succeeded. */
  failedMessage: z.string().nullable(),
})
export type BrandTransferRecord = z.infer<typeof BrandTransferRecord>

export const OrderTransferRecord = z.object({
  creatorOrderId: z.string(),
  /** The order's name as Orders shows it (#1001); null when Tandem never read the order's header. */
  creatorOrderName: z.string().nullable(),
  creatorStoreShop: z.string(),
  currency: z.string(),
  status: TransferStatus,
  /** When processing first began, and the administrator who processed it last. */
  startedAt: z.string(),
  processedBy: z.string().nullable(),
  processedAt: z.string().nullable(),
  brands: z.array(BrandTransferRecord),
  /** As the transfer screen shows it: every transfer, reversal and amount owed, oldest first. */
  moneyTrail: z.array(MoneyMovement),
})
export type OrderTransferRecord = z.infer<typeof OrderTransferRecord>

/** A store's product as its last sync read it. */
export const StoreProduct = z.object({
  id: z.string(),
  title: z.string(),
  status: ProductStatus,
  variantCount: z.number().int().nonnegative(),
  /** The lowest price of its variants. */
  price: MoneyAmount,
  currency: z.string(),
  /** Its featured image; null when it has none. The console's CSP shows only Shopify's and the server's. */
  imageUrl: z.string().nullable(),
})
export type StoreProduct = z.infer<typeof StoreProduct>

/** A brand product listed on a creator store through Tandem, and how far the store follows it. */
export const CatalogListing = z.object({
  id: z.string(),
  creatorStoreShop: z.string(),
  brandStoreShop: z.string(),
  brandProductId: z.string(),
  title: z.string(),
  /** The brand product's featured image, from the brand's last sync. */
  imageUrl: z.string().nullable(),
  status: ListingStatus,
  /** A price set above the brand's, in the brand's currency; null sells at the brand's. */
  price: MoneyAmount.nullable(),
  /**
   * The brand's own price as Tandem last read it (its lowest variant's, kept in step by
   * products/update), in `currency`; null before the brand's catalogue was synced.
   */
  brandPrice: MoneyAmount.nullable(),
  currency: z.string().nullable(),
  syncState: ListingSyncState,
  /** Why the last sync failed, in an administrator's words. */
  syncMessage: z.string().nullable(),
  /** The brand product's status when last read; GONE once the brand deleted it. */
  brandStatus: ProductStatus.nullable(),
  creatorProductId: z.string().nullable(),
  syncedAt: z.string().nullable(),
})
export type CatalogListing = z.infer<typeof CatalogListing>

/** One change an administrator made (never a secret). */
export const AuditEntry = z.object({
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
})
export type AuditEntry = z.infer<typeof AuditEntry>

/** A customers/data_request Shopify sent (docs/privacy.md); its JSON is downloaded on its own. */
export const DataRequestSummary = z.object({
  /** Tandem's id of it: `{shop}:{Shopify's request id}`. */
  id: z.string(),
  shop: z.string(),
  /** Shopify's data_request.id and customer.id. */
  requestId: z.string(),
  customerId: z.string(),
  receivedAt: z.string(),
})
export type DataRequestSummary = z.infer<typeof DataRequestSummary>
/** A background job that failed, as the Jobs view lists it. */
export const TroubledJob = z.object({
  id: z.string(),
  kind: JobKind,
  state: JobState,
  /**
   * What it acts on: a Shopify webhook's shop and topic (never the delivery's body, which holds
   * customers' personal data), or an automatic transfer's creator order (its name) and store; null
   * for a job of the whole marketplace (the catch-up, retention, the recheck).
   */
  about: z
    .union([
      z.object({ shop: z.string(), topic: z.string() }),
      z.object({ shop: z.string(), order: z.string() }),
    ])
    .nullable(),
  /** Its runs so far, every one failed. */
  attempts: z.number().int().positive(),
  /** Its last failure's message. */
  errorMessage: z.string(),
  /** A dead job: when its last run failed. A retrying one: when its next run is due. */
  at: z.string(),
})
export type TroubledJob = z.infer<typeof TroubledJob>

/** A job's id, as the Jobs view lists it. */
export const JobId = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200, 'must be at most 200 characters')

export const HoldMinutes = numberSchema(HOLD_MINUTES_RULE)

/** The marketplace's transfer policy, as an administrator sets it. */
export const TransferPolicyInput = z.object({ mode: TransferMode, holdMinutes: HoldMinutes })
export const TransferPolicy = TransferPolicyInput.extend({
  /**
   * When the policy last turned AUTOMATIC: only orders paid then or later transfer by
   * themselves. Null while MANUAL.
   */
  automaticSince: z.string().nullable(),
})
export type TransferPolicy = z.infer<typeof TransferPolicy>

// Shipping (docs/integrations.md "Shipping"): what each brand of a transferred order shipped, as
// Tandem last read it from the brand's Shopify, and how far the creator's order follows it.

/** A shipment's tracking, as the brand gave it: any of the three may be missing. */
export const Tracking = z.object({
  company: z.string().nullable(),
  number: z.string().nullable(),
  url: z.string().nullable(),
})
export type Tracking = z.infer<typeof Tracking>

/** How far a brand's fulfillment reached the creator's order. */
export const MIRROR_STATES = ['MIRRORED', 'PENDING', 'FAILED'] as const
export const MirrorState = z.enum(MIRROR_STATES)
export type MirrorState = z.infer<typeof MirrorState>

export const BrandFulfillment = z.object({
  /** The brand's Fulfillment GID. */
  id: z.string(),
  status: FulfillmentStatus,
  createdAt: z.string(),
  tracking: z.array(Tracking),
  /** Units of the brand order it ships. */
  quantity: z.number().int(),
  mirrorState: MirrorState,
  /** Why the creator's order does not follow it (FAILED), in words an administrator acts on. */
  mirrorMessage: z.string().nullable(),
})
export type BrandFulfillment = z.infer<typeof BrandFulfillment>

/** One brand order of a transferred creator order, as shipped so far. */
export const Shipment = z.object({
  creatorOrderId: z.string(),
  /** The creator order's name (#1001), when the index knows it. */
  creatorOrderName: z.string().nullable(),
  creatorStoreShop: z.string(),
  brandStoreShop: z.string(),
  brandOrderId: z.string(),
  /** When the brand order was made (the transfer's step). */
  transferredAt: z.string(),
  /** The brand's fulfillment order (the busiest of them, when several); null until read. */
  fulfillmentOrderStatus: FulfillmentOrderStatus.nullable(),
  holds: z.array(z.object({ reason: FulfillmentHoldReason, notes: z.string().nullable() })),
  /** Shopify's OrderCancelReason when the order was cancelled; null while it stands. */
  cancelReason: z.string().nullable(),
  /**
   * Who cancelled it: Tandem, after the creator's refund left it selling nothing (as Activity says,
   * "Tandem (automatic)"), or the brand itself; null while it stands.
   */
  cancelledBy: z.enum(['TANDEM', 'BRAND']).nullable(),
  fulfillments: z.array(BrandFulfillment),
  /**
   * Units of the brand order Tandem cannot see (Shopify leaves out the fulfillment orders of a
   * location the app has no access to, such as a third-party warehouse's), with the brand's
   * fulfillment services' locations, where they can be; null when it sees them all.
   */
  unseen: z
    .object({ units: z.number().int().positive(), locations: z.array(z.string()) })
    .nullable(),
  /** Not shipped in full this many days after the transfer: the policy's lateAfterDays. */
  late: z.boolean(),
  /** When Tandem last read the brand order; null before the first reading. */
  readAt: z.string().nullable(),
})
export type Shipment = z.infer<typeof Shipment>

/** Days after its transfer by which a brand order is expected to have shipped in full. */
export const LateAfterDays = numberSchema(LATE_AFTER_DAYS_RULE)
export const ShippingPolicy = z.object({ lateAfterDays: LateAfterDays })
export type ShippingPolicy = z.infer<typeof ShippingPolicy>
