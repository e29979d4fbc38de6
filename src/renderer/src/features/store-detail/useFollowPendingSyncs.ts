import { useEffect } from 'react'
import type { CatalogListing } from '@shared/contract'

/** How often listings are read again while a sync of one of them is pending. */
export const LISTING_POLL_MS = 3000

/**
 * While any of `listings` waits for its sync to reach the creator's store, reads them again every
 * LISTING_POLL_MS (`refresh`, which keeps what is shown until the answer comes), so that a person
 * sees each one come to In sync or Failed. It stops once none is pending, or when the card goes.
 */
export function useFollowPendingSyncs(listings: CatalogListing[] | null, refresh: () => void) {
  const pending = listings?.some((listing) => listing.syncState === 'PENDING') ?? false
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(refresh, LISTING_POLL_MS)
    return () => clearInterval(timer)
  }, [pending, refresh])
}
