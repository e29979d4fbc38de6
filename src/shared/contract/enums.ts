import { z } from 'zod'
import { PRODUCT_KEY } from '../product'

// Every enumeration the specification names (docs/product-rules.md "Names"), as const arrays (for
// UIs and loops) with a zod schema each.

export const SHOP_TYPES = ['BRAND', 'CREATOR'] as const
export const ShopType = z.enum(SHOP_TYPES)
export type ShopType = z.infer<typeof ShopType>

export const COMMISSION_TYPES = ['FIXED_AMOUNT', 'PERCENTAGE'] as const
export const CommissionType = z.enum(COMMISSION_TYPES)

export const CATALOG_TYPES = ['APP', 'COMPANY_LOCATION', 'MARKET', 'NONE'] as const
export const CatalogType = z.enum(CATALOG_TYPES)

/**
 * Shopify's product statuses known today (UNLISTED since Admin API 2025-10). Shopify adds more,
 * so a product's status is any upper-case name: one unknown here is shown as it is, never a
 * reason for a whole list to fail.
 */
export const PRODUCT_STATUSES = ['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED'] as const
export type KnownProductStatus = (typeof PRODUCT_STATUSES)[number]
export const ProductStatus = z
  .string()
  .regex(/^[A-Z][A-Z_]{0,39}$/, 'must be a Shopify product status, in upper case')

/** What an administrator set of a brand product listed on a creator store (catalog listings). */
export const LISTING_STATUSES = ['ACTIVE', 'PAUSED', 'REMOVED'] as const
export const ListingStatus = z.enum(LISTING_STATUSES)
export type ListingStatus = z.infer<typeof ListingStatus>

/** How far the creator's store follows a listing's brand product. */
export const LISTING_SYNC_STATES = ['IN_SYNC', 'PENDING', 'FAILED'] as const
export const ListingSyncState = z.enum(LISTING_SYNC_STATES)

export const PROVIDERS = ['SHOPIFY'] as const
export const Provider = z.enum(PROVIDERS)

export const ORDER_TAG = PRODUCT_KEY
export const DISCOUNT_CODE = PRODUCT_KEY.toUpperCase()

export const INVENTORY_BEHAVIOURS = [
  'BYPASS',
  'DECREMENT_IGNORING_POLICY',
  'DECREMENT_OBEYING_POLICY',
] as const
export const InventoryBehaviour = z.enum(INVENTORY_BEHAVIOURS)

export const DISCOUNT_TYPES = ['automatic', 'discount_code', 'manual', 'script'] as const
export const DiscountType = z.enum(DISCOUNT_TYPES)
export const DISCOUNT_VALUE_TYPES = ['fixed_amount', 'percentage', 'shipping'] as const
export const DiscountValueType = z.enum(DISCOUNT_VALUE_TYPES)
export const DISCOUNT_TARGET_TYPES = ['line_item', 'shipping_line'] as const
export const DiscountTargetType = z.enum(DISCOUNT_TARGET_TYPES)
export const ALLOCATION_METHODS = ['ACROSS', 'EACH', 'ONE'] as const
export const AllocationMethod = z.enum(ALLOCATION_METHODS)
export const TARGET_SELECTIONS = ['ALL', 'ENTITLED', 'EXPLICIT'] as const
export const TargetSelection = z.enum(TARGET_SELECTIONS)

export const FULFILLMENT_STATUSES = [
  'CANCELLED',
  'ERROR',
  'FAILURE',
  'SUCCESS',
  'OPEN',
  'PENDING',
] as const
export const FulfillmentStatus = z.enum(FULFILLMENT_STATUSES)
export type FulfillmentStatus = z.infer<typeof FulfillmentStatus>

export const FULFILLMENT_ORDER_STATUSES = [
  'CANCELLED',
  'CLOSED',
  'INCOMPLETE',
  'IN_PROGRESS',
  'ON_HOLD',
  'OPEN',
  'SCHEDULED',
] as const
export const FulfillmentOrderStatus = z.enum(FULFILLMENT_ORDER_STATUSES)
export type FulfillmentOrderStatus = z.infer<typeof FulfillmentOrderStatus>

export const FULFILLMENT_ORDER_REQUEST_STATUSES = [
  'ACCEPTED',
  'CANCELLATION_ACCEPTED',
  'CANCELLATION_REJECTED',
  'CANCELLATION_REQUESTED',
  'CLOSED',
  'REJECTED',
  'SUBMITTED',
  'UNSUBMITTED',
] as const
export const FulfillmentOrderRequestStatus = z.enum(FULFILLMENT_ORDER_REQUEST_STATUSES)

export const FULFILLMENT_EVENT_STATUSES = [
  'ATTEMPTED_DELIVERY',
  'CONFIRMED',
  'DELIVERED',
  'FAILURE',
  'IN_TRANSIT',
  'LABEL_PRINTED',
  'LABEL_PURCHASED',
  'OUT_FOR_DELIVERY',
  'READY_FOR_PICKUP',
] as const
export const FulfillmentEventStatus = z.enum(FULFILLMENT_EVENT_STATUSES)

export const FULFILLMENT_HOLD_REASONS = [
  'AWAITING_PAYMENT',
  'AWAITING_RETURN_ITEMS',
  'HIGH_RISK_OF_FRAUD',
  'INCORRECT_ADDRESS',
  'INVENTORY_OUT_OF_STOCK',
  'ONLINE_STORE_POST_PURCHASE_CROSS_SELL',
  'OTHER',
  'UNKNOWN_DELIVERY_DATE',
] as const
export const FulfillmentHoldReason = z.enum(FULFILLMENT_HOLD_REASONS)
export type FulfillmentHoldReason = z.infer<typeof FulfillmentHoldReason>

export const RETURN_STATUSES = ['CANCELED', 'CLOSED', 'DECLINED', 'OPEN', 'REQUESTED'] as const
export const ReturnStatus = z.enum(RETURN_STATUSES)
export const RETURN_REASONS = [
  'COLOR',
  'DEFECTIVE',
  'NOT_AS_DESCRIBED',
  'OTHER',
  'SIZE_TOO_LARGE',
  'SIZE_TOO_SMALL',
  'STYLE',
  'UNKNOWN',
  'UNWANTED',
  'WRONG_ITEM',
] as const
export const ReturnReason = z.enum(RETURN_REASONS)
export const REVERSE_FULFILLMENT_ORDER_STATUSES = ['CANCELED', 'CLOSED', 'OPEN'] as const
export const ReverseFulfillmentOrderStatus = z.enum(REVERSE_FULFILLMENT_ORDER_STATUSES)

export const FILTER_OPERATORS = [
  'EQUALS',
  'NOT_EQUALS',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'NOT_STARTS_WITH',
  'NOT_ENDS_WITH',
  'IN',
  'NOT_IN',
] as const
export const FilterOperator = z.enum(FILTER_OPERATORS)
export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const
export const SortDirection = z.enum(SORT_DIRECTIONS)
export const COUNT_PRECISIONS = ['AT_LEAST', 'EXACT'] as const
export const CountPrecision = z.enum(COUNT_PRECISIONS)
export const BUNDLE_COMPONENT_TYPES = ['PRODUCT', 'COUNT'] as const
export const BundleComponentType = z.enum(BUNDLE_COMPONENT_TYPES)

export const MEDIA_CONTENT_TYPES = ['EXTERNAL_VIDEO', 'IMAGE', 'MODEL_3D', 'VIDEO'] as const
export const MediaContentType = z.enum(MEDIA_CONTENT_TYPES)
/** File content accepts every media content type plus FILE. */
export const FILE_CONTENT_TYPES = [...MEDIA_CONTENT_TYPES, 'FILE'] as const
export const FileContentType = z.enum(FILE_CONTENT_TYPES)
export const MEDIA_PREVIEW_STATUSES = ['FAILED', 'PROCESSING', 'READY', 'UPLOADED'] as const
export const MediaPreviewStatus = z.enum(MEDIA_PREVIEW_STATUSES)

/** Where an order transfer stands: nothing done yet, some brands done, every brand done. */
export const TRANSFER_STATUSES = ['NOT_STARTED', 'PARTIAL', 'COMPLETED'] as const
export const TransferStatus = z.enum(TRANSFER_STATUSES)
export type TransferStatus = z.infer<typeof TransferStatus>

/**
 * What moved money of an order after its sale: a party's transfer; a reversal taking part of it
 * back after a refund; an amount Stripe would not take back (the account's balance could not cover
 * it), owed by the party; a debt taken from a later transfer to the party.
 */
export const MONEY_MOVEMENT_KINDS = ['TRANSFER', 'REVERSAL', 'OWED', 'DEDUCTION'] as const
export const MoneyMovementKind = z.enum(MONEY_MOVEMENT_KINDS)
export type MoneyMovementKind = z.infer<typeof MoneyMovementKind>

/** How paid orders are transferred: by an administrator's click, or by themselves after a hold. */
export const TRANSFER_MODES = ['MANUAL', 'AUTOMATIC'] as const
export const TransferMode = z.enum(TRANSFER_MODES)
export type TransferMode = z.infer<typeof TransferMode>

/**
 * The server's background jobs, by the name each is registered under
 * (server/src/services/background-work.ts).
 */
export const JOB_KINDS = [
  'shopify-webhook',
  'transfer-order',
  'creator-payout',
  'order-refund',
  'store-debt',
  'brand-product',
  'listing-sync',
  'brand-shipment',
  'attention-recheck',
  'creator-order-catch-up',
  'refund-catch-up',
  'retention',
] as const
export const JobKind = z.enum(JOB_KINDS)
export type JobKind = z.infer<typeof JobKind>

/** A job in trouble: failed and waiting for its next retry, or out of retries. */
export const JOB_STATES = ['RETRYING', 'DEAD'] as const
export const JobState = z.enum(JOB_STATES)
export type JobState = z.infer<typeof JobState>
