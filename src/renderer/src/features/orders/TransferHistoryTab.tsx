import { useCallback, useRef, useState } from 'react'
import { Button, Group } from '@mantine/core'
import { IconFileSpreadsheet } from '@tabler/icons-react'
import { PAGE_LIMIT, type OrderTransferRecord } from '@shared/contract'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { PagedTable } from '@renderer/lib/PagedTable'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { TRANSFER_HISTORY_TABLE } from './TransferHistoryTable'

/** The Transfer history tab: processed and partial transfers, newest first, and their export. */
export function TransferHistoryTab() {
  const bridge = useBridge()
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<OrderTransferRecord>> => {
      const { transfers, nextCursor } = await bridge.invoke('adminOrderTransfers', {
        ...(cursor ? { cursor } : {}),
        limit: PAGE_LIMIT.default,
      })
      return { items: transfers, nextCursor }
    },
    [bridge],
  )

  return (
    <>
      <Group justify="flex-end" mb="md">
        <ExportCsvButton />
      </Group>
      <PagedTable table={TRANSFER_HISTORY_TABLE} fetchPage={fetchPage} />
    </>
  )
}

/**
 * Every brand transfer as a CSV file: main downloads it and saves exactly its bytes where the
 * administrator chooses in the OS's save dialog. With no transfer yet there is nothing to save (the
 * file would hold its header only): the button says so instead of opening the dialog.
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
      const { transfers } = await bridge.invoke('adminOrderTransfers', { limit: 1 })
      if (transfers.length === 0) {
        showToast({
          title: 'Nothing to export yet',
          message: 'No transfers yet: the CSV lists transfers once an order has been processed.',
        })
        return
      }
      const saved = await bridge.invoke('adminOrderTransfersCsv')
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
