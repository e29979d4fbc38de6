import { Badge } from '@mantine/core'
import type { TransferStatus } from '@shared/contract'

export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  NOT_STARTED: 'Not started',
  PARTIAL: 'Partial',
  COMPLETED: 'Completed',
}

const COLORS: Record<TransferStatus, string> = {
  NOT_STARTED: 'gray',
  PARTIAL: 'orange',
  COMPLETED: 'green',
}

/** Where an order's transfer stands, written as such (Mantine capitalises by default). */
export function TransferStatusBadge({ status }: { status: TransferStatus }) {
  return (
    <Badge variant="light" color={COLORS[status]}>
      {TRANSFER_STATUS_LABELS[status]}
    </Badge>
  )
}
