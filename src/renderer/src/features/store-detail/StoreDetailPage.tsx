import { useCallback, useMemo } from 'react'
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core'
import { StoreTypeBadge } from '@renderer/features/stores/StoreTypeBadge'
import { IconArrowLeft } from '@tabler/icons-react'
import { Link, useParams, useSearchParams } from 'react-router'
import { ShopDomain } from '@shared/contract/entities'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { useBridge } from '@renderer/lib/bridge'
import { storeName } from '@renderer/lib/format'
import { useRemote } from '@renderer/lib/useRemote'
import { AutomaticTransfersCard } from './AutomaticTransfersCard'
import { BrandCommission } from './BrandCommission'
import { CreatorRates } from './CreatorRates'
import { ListedByCard } from './ListedByCard'
import { ListingsCard } from './ListingsCard'
import { PayoutsCard } from './PayoutsCard'

/**
 * /main/stores/{store}?type=…: a brand's default commission, payout account, automatic transfers
 * and the creators listing its products (type BRAND), otherwise a creator's unique commission
 * rates, payout account and listings (docs/product-rules.md "The console's screens",
 * docs/integrations.md "Stripe"). The type comes from the link the list opened, as the screens'
 * rules say. A store Tandem does not know gets one page that says so, rather than cards whose
 * every read or save would fail.
 */
export default function StoreDetailPage() {
  const typed = useParams().store ?? ''
  // The address may hold the store's domain in any case: the store is the one the server reads.
  const shop = ShopDomain.safeParse(typed).data ?? typed
  const isBrand = useSearchParams()[0].get('type') === 'BRAND'
  const bridge = useBridge()
  const load = useCallback(() => bridge.invoke('adminAllStores'), [bridge])
  const { remote, retry } = useRemote(load)
  // Null until the list of stores has been read.
  const known = remote.status === 'ready' ? remote.value.some((store) => store.shop === shop) : null
  // The brands a creator may list products of.
  const brands = useMemo(
    () =>
      remote.status === 'ready' ? remote.value.filter((store) => store.shopType === 'BRAND') : [],
    [remote],
  )

  return (
    <Stack gap="lg">
      <div>
        {/* A link, not history: the list keeps its own tab and selection however one comes. */}
        <Anchor component={Link} to="/main/stores" size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} stroke={1.75} />
            Back to stores
          </Group>
        </Anchor>
        {known === false ? (
          <StoreNotFound shop={typed} />
        ) : (
          <>
            <Title order={1} size="h2" mt="sm">
              {storeName(shop)}
            </Title>
            <Group gap="sm" mt={4}>
              <Text c="dimmed">{shop}</Text>
              <StoreTypeBadge shopType={isBrand ? 'BRAND' : 'CREATOR'} />
            </Group>
          </>
        )}
      </div>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {/* Keyed by shop: another store's page starts from its own answers, not this one's. */}
      {known &&
        (isBrand ? (
          <Stack key={shop}>
            <BrandCommission shop={shop} />
            <PayoutsCard shop={shop} />
            <AutomaticTransfersCard shop={shop} />
            <ListedByCard shop={shop} />
          </Stack>
        ) : (
          <Stack key={shop}>
            <CreatorRates shop={shop} />
            <PayoutsCard shop={shop} />
            <ListingsCard shop={shop} brands={brands} />
          </Stack>
        ))}
    </Stack>
  )
}

/** The one thing to say of an address no store has: which store, and the way back. */
function StoreNotFound({ shop }: { shop: string }) {
  return (
    <>
      <Title order={1} size="h2" mt="sm">
        Store not found
      </Title>
      <Alert color="yellow" variant="light" mt="md" maw={640}>
        <Text>
          Tandem has no store {shop}. It may have been removed, or the address may be mistyped.
        </Text>
        <Button component={Link} to="/main/stores" mt="sm" size="xs" variant="default">
          Go to Stores
        </Button>
      </Alert>
    </>
  )
}
