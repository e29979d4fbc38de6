import { useCallback, useRef, useState } from 'react'
import { Button, Group, Text } from '@mantine/core'
import { IconFileSpreadsheet } from '@tabler/icons-react'
import { PAGE_LIMIT, type OrderTransferRecord } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { useCursorPages, type CursorPage } from '@renderer/lib/useCursorPages'
import { ListFooter } from './ListFooter'
import { TransferHistoryTable } from './TransferHistoryTable'

/** The Transfer history tab: processed and partial transfers, newest first, and their export. */
export function TransferHistoryTab() {
  const bridge = useBridge()
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<OrderTransferRecord>> => {
      const { transfers, nextCursor } = await bridge.invoke('orders/transfers', {
        ...(cursor ? { cursor } : {}),
        limit: PAGE_LIMIT.default,
      })
      return { items: transfers, nextCursor }
    },
    [bridge],
  )
  const { pages, loadMore, retry } = useCursorPages(fetchPage)

  return (
    <>
      <Group justify="flex-end" mb="md">
        <ExportCsvButton />
      </Group>
      {pages.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {pages.status === 'failed' && <LoadFailure message={pages.message} onRetry={retry} />}
      {pages.status === 'ready' && pages.items.length === 0 && (
        <Text c="dimmed">No transfers yet.</Text>
      )}
      {pages.status === 'ready' && pages.items.length > 0 && (
        <>
          <TransferHistoryTable
            transfers={pages.items}
            hasMore={pages.nextCursor !== null}
            canLoadMore={pages.nextCursor !== null && pages.more.status === 'idle'}
            onLoadMore={loadMore}
          />
          <ListFooter pages={pages} noun={['transfer', 'transfers']} onLoadMore={loadMore} />
        </>
      )}
    </>
  )
}

/**
 * Every brand transfer as a CSV file: main downloads it and saves exactly its bytes where the
 * administrator chooses in the OS's save dialog.
 */
function ExportCsvButton() {
  const bridge = useBridge()
  const [exporting, setExporting] = useState(false)
  // A ref as well as state: a second click before the button shows it is busy exports nothing.
  const exportingNow = useRef(false)

  const exportCsv = async () => {
    if (exportingNow.current) return
    exportingNow.current = true
    setExporting(true)
    try {
      const saved = await bridge.invoke('orders/exportCsv')
      // A cancelled dialog is the person's choice, not news.
      if (saved.saved) showToast({ title: 'CSV exported', message: saved.path ?? '' })
    } catch (error) {
      showToast({ tone: 'error', title: 'Failed to export CSV', message: failureReason(error) })
    } finally {
      exportingNow.current = false
      setExporting(false)
    }
  }

  return (
    <Button
      variant="default"
      leftSection={<IconFileSpreadsheet size={16} />}
      loading={exporting}
      onClick={() => void exportCsv()}
    >
      Export CSV
    </Button>
  )
}
