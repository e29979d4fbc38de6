import { GraphQLError } from 'graphql'
import type { Runtime } from './context'
import { announceStock } from './product-announcements'
import {
  findVariantWhere,
  gid,
  shopLocation,
  type AdjustmentGroupRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// inventorySetQuantities as API 2026-04 and later run it: absolute quantities, each compared and
// swapped against the changeFromQuantity it must carry (null opts out of the check). The call
// changes all its quantities or none. The emulator keeps no committed or reserved units, so a
// shop's on_hand and available are one number, the variant's inventoryQuantity.

export interface QuantityInput {
  inventoryItemId: string
  locationId: string
  quantity: number
  changeFromQuantity?: number | null
}

export interface InventorySetQuantitiesInput {
  name: string
  reason: string
  referenceDocumentUri?: string | null
  quantities: QuantityInput[]
}

export interface InventoryUserError {
  /** Null for a refusal of the whole call (its idempotency key). */
  field: string[] | null
  message: string
  code: string
}

/** The reasons Shopify accepts for an inventory change. */
const REASONS = new Set([
  'correction',
  'cycle_count_available',
  'damaged',
  'movement_canceled',
  'movement_created',
  'movement_received',
  'movement_updated',
  'other',
  'promotion',
  'quality_control',
  'received',
  'reservation_created',
  'reservation_deleted',
  'reservation_updated',
  'restock',
  'safety_stock',
  'shrinkage',
])
const NAMES = ['available', 'on_hand'] as const
const LIMIT = 1_000_000_000

export const findInventoryItem = (shop: ShopRecord, inventoryItemId: string) =>
  findVariantWhere(shop, (variant) => variant.inventoryItemId === inventoryItemId)

function errorsOf(shop: ShopRecord, input: InventorySetQuantitiesInput): InventoryUserError[] {
  const errors: InventoryUserError[] = []
  const refuse = (code: string, message: string, ...field: (string | number)[]) =>
    errors.push({ code, message, field: field.map(String) })
  if (!(NAMES as readonly string[]).includes(input.name))
    refuse(
      'INVALID_NAME',
      "The quantity name must be either 'available' or 'on_hand'.",
      'input',
      'name',
    )
  if (!REASONS.has(input.reason))
    refuse('INVALID_REASON', 'The specified reason is invalid.', 'input', 'reason')
  input.quantities.forEach((quantity, i) => {
    const at = ['input', 'quantities', i]
    const item = findInventoryItem(shop, quantity.inventoryItemId)
    if (!item)
      refuse(
        'INVALID_INVENTORY_ITEM',
        'The specified inventory item could not be found.',
        ...at,
        'inventoryItemId',
      )
    // Admin API 2026-10's InventorySetQuantitiesUserErrorCode: "Example: if the inventory item
    // is a parent bundle."
    if (item?.variant.bundle)
      refuse(
        'NON_MUTABLE_INVENTORY_ITEM',
        'The specified inventory item is not allowed to be adjusted via API.',
        ...at,
        'inventoryItemId',
      )
    if (quantity.locationId !== shopLocation(shop).id)
      refuse('INVALID_LOCATION', 'The specified location could not be found.', ...at, 'locationId')
    const pair = (q: QuantityInput) => `${q.inventoryItemId} ${q.locationId}`
    if (input.quantities.findIndex((other) => pair(other) === pair(quantity)) < i) {
      const message = 'The combination of inventoryItemId and locationId must be unique.'
      refuse('NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR', message, ...at)
    }
    if (quantity.quantity > LIMIT)
      refuse(
        'INVALID_QUANTITY_TOO_HIGH',
        "The total quantity can't be higher than 1,000,000,000.",
        ...at,
        'quantity',
      )
    if (quantity.quantity < -LIMIT)
      refuse(
        'INVALID_QUANTITY_TOO_LOW',
        "The total quantity can't be lower than -1,000,000,000.",
        ...at,
        'quantity',
      )
    if (input.name === 'on_hand' && quantity.quantity < 0)
      refuse('INVALID_QUANTITY_NEGATIVE', "The quantity can't be negative.", ...at, 'quantity')
    const stale =
      item &&
      quantity.changeFromQuantity != null &&
      quantity.changeFromQuantity !== item.variant.inventoryQuantity
    if (stale) {
      const message = 'The changeFromQuantity value does not match persisted value.'
      refuse('CHANGE_FROM_QUANTITY_STALE', message, ...at, 'changeFromQuantity')
    }
  })
  return errors
}

export interface SetQuantitiesResult {
  group: AdjustmentGroupRecord | null
  userErrors: InventoryUserError[]
  /** Settles once inventory_levels/update was attempted for each quantity that changed. */
  announced: Promise<void>
}

export function setQuantities(
  runtime: Runtime,
  shop: ShopRecord,
  input: InventorySetQuantitiesInput,
): SetQuantitiesResult {
  // Shopify fails the whole request, not one quantity, when the check is not even asked for.
  const unchecked = input.quantities.findIndex((quantity) => !('changeFromQuantity' in quantity))
  if (unchecked >= 0)
    throw new GraphQLError(
      `changeFromQuantity is required on input.quantities.${unchecked}: pass the quantity you expect, or null to skip the check.`,
      { extensions: { code: 'BAD_REQUEST' } },
    )
  const userErrors = errorsOf(shop, input)
  if (userErrors.length > 0) return { group: null, userErrors, announced: Promise.resolve() }
  const changed: VariantRecord[] = []
  const changes = input.quantities.flatMap((quantity) => {
    const { variant } = findInventoryItem(shop, quantity.inventoryItemId)!
    const delta = quantity.quantity - variant.inventoryQuantity
    variant.inventoryQuantity = quantity.quantity
    if (delta !== 0) changed.push(variant)
    // Setting one of the two moves the other by as much: both are in the group.
    return NAMES.map((name) => ({
      name,
      delta,
      quantityAfterChange: quantity.quantity,
      inventoryItemId: quantity.inventoryItemId,
      locationId: quantity.locationId,
    }))
  })
  const group: AdjustmentGroupRecord = {
    id: gid('InventoryAdjustmentGroup', ++runtime.state.lastIds.adjustmentGroup),
    createdAt: new Date().toISOString(),
    reason: input.reason,
    referenceDocumentUri: input.referenceDocumentUri ?? null,
    changes,
  }
  runtime.save()
  const announced = Promise.all(changed.map((variant) => announceStock(runtime, shop, variant)))
  return { group, userErrors: [], announced: announced.then(() => undefined) }
}
