import { useCallback, useId, useMemo } from 'react'
import { Anchor, Card, Divider, Group, Stack, Text, Title } from '@mantine/core'
import { Link } from 'react-router'
import type { CatalogListing } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { ProductThumbnail } from '@renderer/app/ProductThumbnail'
import { useBridge } from '@renderer/lib/bridge'
import { storeName } from '@renderer/lib/format'
import { useRemote } from '@renderer/lib/useRemote'
import { brandStatusNote } from './listing-words'
import { ListingState } from './ListingState'
import { StockBufferForm } from './StockBufferForm'
import { useFollowPendingSyncs } from './useFollowPendingSyncs'
import classes from './ListedByCard.module.css'

/** A brand product and the creators' listings of it. */
interface ListedProduct {
  first: CatalogListing
  listings: CatalogListing[]
}

/**
 * A brand's page: which creator stores list each of its products, with each listing's status and
 * sync, and the units of stock the brand keeps back from all of them. While a sync is pending the
 * listings are read again until it is not.
 */
export function ListedByCard({ shop }: { shop: string }) {
  const bridge = useBridge()
  const load = useCallback(
    () => bridge.invoke('adminCatalogListings', { brandStoreShop: shop }),
    [bridge, shop],
  )
  const { remote, retry, refresh, update } = useRemote(load)
  const listings = remote.status === 'ready' ? remote.value.listings : null
  useFollowPendingSyncs(listings, refresh)
  const headingId = useId()

  return (
    <Card withBorder padding="lg" maw={960} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" mb="md" id={headingId}>
        Listed by
      </Title>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <Stack>
          <StockBufferForm
            shop={shop}
            current={remote.value.stockBuffer}
            onSaved={(stockBuffer) => {
              update((value) => ({ ...value, stockBuffer }))
              // Every listing of the brand syncs again with the new buffer: follow them.
              refresh()
            }}
          />
          <Divider />
          <ListedProducts listings={remote.value.listings} />
        </Stack>
      )}
    </Card>
  )
}

function ListedProducts({ listings }: { listings: CatalogListing[] }) {
  const products = useMemo(() => byProduct(listings), [listings])
  if (products.length === 0) {
    return <Text c="dimmed">No creator store lists this brand's products.</Text>
  }
  return (
    <Stack component="ul" gap="md" className={classes.list} aria-label="Listed products">
      {products.map(({ first, listings }) => {
        const brandNote = brandStatusNote(first.brandStatus)
        return (
          <li key={first.brandProductId}>
            <Group gap="sm" wrap="nowrap" mb="xs">
              <ProductThumbnail src={first.imageUrl} size={40} />
              <div>
                <Text fw={500}>{first.title}</Text>
                {brandNote !== null && (
                  <Text size="sm" c="orange">
                    {brandNote}
                  </Text>
                )}
              </div>
            </Group>
            <Stack
              component="ul"
              gap="xs"
              className={classes.creators}
              aria-label={`Creators listing ${first.title}`}
            >
              {listings.map((listing) => (
                <Group component="li" key={listing.id} gap="md" align="flex-start" wrap="wrap">
                  <Anchor
                    component={Link}
                    to={`/main/stores/${listing.creatorStoreShop}?type=CREATOR`}
                    size="sm"
                    title={listing.creatorStoreShop}
                    className={classes.creator}
                  >
                    {storeName(listing.creatorStoreShop)}
                  </Anchor>
                  {/* The brand's own status is said once, under the product. */}
                  <ListingState {...listing} brandStatus={null} />
                </Group>
              ))}
            </Stack>
          </li>
        )
      })}
    </Stack>
  )
}

/**
 * The listings grouped by brand product, in the server's order (by title); a removed listing is on
 * no creator's store, so it is left out.
 */
function byProduct(listings: CatalogListing[]): ListedProduct[] {
  const products = new Map<string, ListedProduct>()
  for (const listing of listings) {
    if (listing.status === 'REMOVED') continue
    const product = products.get(listing.brandProductId)
    if (product) product.listings.push(listing)
    else products.set(listing.brandProductId, { first: listing, listings: [listing] })
  }
  return [...products.values()]
}
