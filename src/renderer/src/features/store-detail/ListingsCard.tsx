import { useCallback, useId, useMemo, useState } from 'react'
import { Button, Card, Group, Text, Title } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import type { CatalogListing, Store } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { useBridge } from '@renderer/lib/bridge'
import { useRemote } from '@renderer/lib/useRemote'
import { ListingsTable } from './ListingsTable'
import { ListProductsPicker } from './ListProductsPicker'
import { useFollowPendingSyncs } from './useFollowPendingSyncs'

/** The server's order: by title, then id. */
const byTitle = (a: CatalogListing, b: CatalogListing) =>
  a.title.localeCompare(b.title) || a.id.localeCompare(b.id)

/**
 * A creator's page: the brand products listed on its store, each with its price, status and how
 * far the store follows it, to pause, resume, reprice or remove, and "List products" to list more
 * from a brand's synced catalogue. While a sync is pending the list is read again until it is not.
 */
export function ListingsCard({ shop, brands }: { shop: string; brands: Store[] }) {
  const bridge = useBridge()
  const load = useCallback(
    () => bridge.invoke('adminCatalogListings', { creatorStoreShop: shop }),
    [bridge, shop],
  )
  const { remote, retry, refresh, update } = useRemote(load)
  const listings = remote.status === 'ready' ? remote.value.listings : null
  useFollowPendingSyncs(listings, refresh)
  const [picking, setPicking] = useState(false)
  const headingId = useId()

  // A removed listing may be listed again; any other is on the store already.
  const listedProductIds = useMemo(
    () =>
      new Set(
        (listings ?? [])
          .filter((listing) => listing.status !== 'REMOVED')
          .map((listing) => listing.brandProductId),
      ),
    [listings],
  )

  // What the server answered replaces what was shown of the same listings, as a reload would.
  const replace = useCallback(
    (changed: CatalogListing[]) => {
      const ids = new Set(changed.map((listing) => listing.id))
      update((value) => ({
        ...value,
        listings: [...value.listings.filter((listing) => !ids.has(listing.id)), ...changed].sort(
          byTitle,
        ),
      }))
    },
    [update],
  )

  return (
    <Card withBorder padding="lg" maw={960} component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Listings
        </Title>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={16} stroke={1.75} />}
          disabled={listings === null}
          onClick={() => setPicking(true)}
        >
          List products
        </Button>
      </Group>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {listings !== null && (
        <ListingsTable
          creatorShop={shop}
          listings={listings}
          onChanged={(listing) => replace([listing])}
        />
      )}
      <ListProductsPicker
        opened={picking}
        onClose={() => setPicking(false)}
        creatorShop={shop}
        brands={brands}
        listedProductIds={listedProductIds}
        onListed={replace}
      />
    </Card>
  )
}
