// A catalog listing (a brand product listed on a creator's store) in the words the store pages and
// the activity log use: what an administrator set of it, how far the creator's store follows it,
// and what became of the brand's product.
import type { CatalogListing, ListingStatus } from '@shared/contract'
import { formatMoney } from '@renderer/lib/format'
import { productStatusBadge } from '@renderer/features/products/ProductTable'

type ListingSyncState = CatalogListing['syncState']

export const LISTING_STATUS_BADGES: Record<ListingStatus, { label: string; color: string }> = {
  ACTIVE: { label: 'Active', color: 'green' },
  PAUSED: { label: 'Paused', color: 'orange' },
  REMOVED: { label: 'Removed', color: 'gray' },
}

export const SYNC_STATE_BADGES: Record<ListingSyncState, { label: string; color: string }> = {
  IN_SYNC: { label: 'In sync', color: 'green' },
  PENDING: { label: 'Pending', color: 'blue' },
  FAILED: { label: 'Failed', color: 'red' },
}

/** The listing status as a word, for a value the activity log recorded (maybe not one known). */
export const listingStatusLabel = (status: string): string =>
  Object.hasOwn(LISTING_STATUS_BADGES, status)
    ? LISTING_STATUS_BADGES[status as ListingStatus].label
    : status

/** The brand status the server gives a product once the brand deleted it. */
const GONE = 'GONE'

/**
 * Why the creator's store cannot sell the product whatever its listing says: the brand archived
 * it, left it a draft or deleted it. Null while the brand sells it (or it was not read yet).
 */
export function brandStatusNote(brandStatus: string | null): string | null {
  if (brandStatus === null || brandStatus === 'ACTIVE' || brandStatus === 'UNLISTED') return null
  if (brandStatus === GONE) return "Gone from the brand's store"
  return `Brand product: ${productStatusBadge(brandStatus).label}`
}

/** The price the creator's store sells at: the one set above the brand's, or the brand's own. */
export const listingPrice = (listing: Pick<CatalogListing, 'price' | 'currency'>): string =>
  listing.price === null ? "Brand's price" : formatMoney(listing.price, listing.currency ?? '')
