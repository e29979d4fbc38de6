import { Badge } from '@mantine/core'
import type { FulfillmentOrderStatus, FulfillmentStatus, MirrorState } from '@shared/contract'
import { enumWords } from '@renderer/lib/format'

// A shipment's Shopify statuses as badges, in Shopify's words (enumWords: ON_HOLD reads "On hold")
// as the console shows every Shopify enum; the colour says whether it needs a look.

const ORDER_STATUS_COLORS: Readonly<Record<FulfillmentOrderStatus, string>> = {
  SCHEDULED: 'gray',
  OPEN: 'blue',
  IN_PROGRESS: 'blue',
  INCOMPLETE: 'orange',
  ON_HOLD: 'orange',
  CLOSED: 'green',
  CANCELLED: 'red',
}

const FULFILLMENT_COLORS: Readonly<Record<FulfillmentStatus, string>> = {
  PENDING: 'gray',
  OPEN: 'blue',
  SUCCESS: 'green',
  CANCELLED: 'gray',
  ERROR: 'red',
  FAILURE: 'red',
}

const MIRROR_COLORS: Readonly<Record<MirrorState, string>> = {
  MIRRORED: 'green',
  PENDING: 'gray',
  FAILED: 'red',
}

/**
 * The brand's fulfillment order's status; "Cannot see" when Tandem's access shows it none of them
 * (ShipmentDetail says what to grant), and "Not read yet" until Tandem first reads it.
 */
export function FulfillmentOrderStatusBadge({
  status,
  unseen,
}: {
  status: FulfillmentOrderStatus | null
  unseen: boolean
}) {
  if (status === null) {
    return (
      <Badge variant="light" color={unseen ? 'orange' : 'gray'}>
        {unseen ? 'Cannot see' : 'Not read yet'}
      </Badge>
    )
  }
  return (
    <Badge variant="light" color={ORDER_STATUS_COLORS[status]}>
      {enumWords(status)}
    </Badge>
  )
}

export function FulfillmentStatusBadge({ status }: { status: FulfillmentStatus }) {
  return (
    <Badge variant="light" size="sm" color={FULFILLMENT_COLORS[status]}>
      {enumWords(status)}
    </Badge>
  )
}

/** How far a fulfillment reached the creator's order: Mirrored, Pending or Failed. */
export function MirrorStateBadge({ state }: { state: MirrorState }) {
  return (
    <Badge variant="light" size="sm" color={MIRROR_COLORS[state]}>
      {enumWords(state)}
    </Badge>
  )
}

/** Not shipped in full within the policy's days. */
export function LateBadge() {
  return (
    <Badge variant="filled" color="red">
      Late
    </Badge>
  )
}
