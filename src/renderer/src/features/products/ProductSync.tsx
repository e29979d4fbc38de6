import { useId } from 'react'
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import type { ProductSyncStatus } from '@shared/contract'
import { useBridge } from '@renderer/lib/bridge'
import { formatDateTime } from '@renderer/lib/format'
import type { Remote } from '@renderer/lib/useRemote'
import { useStoresPage, type SyncProgress } from '@renderer/features/stores/stores-page-state'
import { syncStoreProducts, syncingLabel } from '@renderer/features/stores/sync-products'

interface ProductSyncProps {
  shop: string
  /** The store's sync as the server last answered it. */
  status: Remote<ProductSyncStatus>
}

/**
 * When the store's products were last synced, a button to sync them again, and while a sync runs
 * (started here, from the stores list, or found running) its progress. Syncs are the stores page's
 * (sync-products.ts): one store never syncs twice at once, and both pages show the same progress.
 */
export function ProductSync({ shop, status }: ProductSyncProps) {
  const bridge = useBridge()
  const syncing = useStoresPage((state) => state.syncingShops.has(shop))
  const progress = useStoresPage((state) => state.syncProgress[shop])

  return (
    <Stack gap="xs" mb="md">
      <Group gap="sm" wrap="wrap">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={16} stroke={1.75} />}
          disabled={syncing}
          onClick={() => void syncStoreProducts(bridge, shop)}
        >
          Sync products
        </Button>
        <LastSync status={status} />
      </Group>
      {syncing && <SyncProgressBar progress={progress} />}
      {!syncing && status.status === 'ready' && status.value.state === 'FAILED' && (
        <Alert color="red" variant="light" title="Last sync failed" maw={640}>
          {status.value.message ?? 'The server gave no reason.'}
        </Alert>
      )}
    </Stack>
  )
}

function LastSync({ status }: { status: Remote<ProductSyncStatus> }) {
  if (status.status === 'loading') return null
  if (status.status === 'failed') {
    return (
      <Text size="sm" c="red">
        Sync status unavailable: {status.message}
      </Text>
    )
  }
  const { syncedAt } = status.value
  return (
    <Text size="sm" c="dimmed">
      {syncedAt === null ? 'Never synced' : `Synced ${formatDateTime(syncedAt)}`}
    </Text>
  )
}

/**
 * "Syncing... 1,200 / 10,000" over a bar filled that far; striped and full, as an indeterminate
 * bar, until the server has counted the products.
 */
function SyncProgressBar({ progress }: { progress: SyncProgress | undefined }) {
  const labelId = useId()
  const label = syncingLabel(progress)
  const percent =
    progress && progress.total
      ? Math.min(100, Math.round((progress.fetched / progress.total) * 100))
      : null
  return (
    <Stack gap={4} maw={640}>
      <Text size="sm" id={labelId}>
        {label}
      </Text>
      <Progress.Root size="md">
        <Progress.Section
          value={percent ?? 100}
          striped={percent === null}
          animated={percent === null}
          withAria={false}
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={label}
        />
      </Progress.Root>
    </Stack>
  )
}
