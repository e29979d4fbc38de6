import { useCallback, useState } from 'react'
import { Button, Paper, Stack, Text } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { PAGE_LIMIT, type DataRequestSummary } from '@shared/contract'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { formatDateTime, storeName } from '@renderer/lib/format'
import { Paged } from '@renderer/lib/Paged'
import { showToast } from '@renderer/lib/toast'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import classes from './ActivityDrawer.module.css'

/**
 * The customers' data requests Shopify sent (docs/privacy.md), newest first, each downloadable as
 * the JSON of what Tandem held on the customer for the store, for the administrator to send on.
 */
export function DataRequests() {
  const bridge = useBridge()
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<DataRequestSummary>> => {
      const { requests, nextCursor } = await bridge.invoke('adminDataRequests', {
        ...(cursor === undefined ? {} : { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: requests, nextCursor }
    },
    [bridge],
  )

  return (
    <Paged fetchPage={fetchPage} empty="No data requests yet.">
      {({ items }) => (
        <Stack component="ul" gap="sm" className={classes.list} aria-label="Data requests">
          {items.map((request) => (
            <DataRequest key={request.id} request={request} />
          ))}
        </Stack>
      )}
    </Paged>
  )
}

function DataRequest({ request }: { request: DataRequestSummary }) {
  const bridge = useBridge()
  const [saving, setSaving] = useState(false)

  // Main downloads the JSON and writes exactly its bytes where the administrator chooses.
  const download = async () => {
    setSaving(true)
    try {
      const saved = await bridge.invoke('adminDataRequestJson', { id: request.id })
      // A cancelled dialog is the person's choice, not news.
      if (saved.saved) showToast({ title: 'Data request saved', message: saved.path ?? '' })
    } catch (error) {
      showToast({
        tone: 'error',
        title: 'Failed to download data request',
        message: failureReason(error),
      })
    } finally {
      setSaving(false)
    }
  }

  return (
    <Paper component="li" withBorder p="sm">
      <Text fw={600} size="sm" className={classes.wrap} title={request.shop}>
        {storeName(request.shop)}
      </Text>
      <Text size="sm">
        Request {request.requestId} · Customer {request.customerId}
      </Text>
      <Text size="xs" c="dimmed">
        <time dateTime={request.receivedAt}>{formatDateTime(request.receivedAt)}</time>
      </Text>
      <Button
        mt={6}
        size="xs"
        variant="default"
        leftSection={<IconDownload size={14} />}
        loading={saving}
        aria-label={`Download data request ${request.requestId} as JSON`}
        onClick={() => void download()}
      >
        Download JSON
      </Button>
    </Paper>
  )
}
