import { useCallback, useId } from 'react'
import { Paper, Text } from '@mantine/core'
import { useBridge } from '@renderer/lib/bridge'
import { useRemote } from '@renderer/lib/useRemote'
import {
  OrderHoldsProvider,
  ReadinessWithHold,
  type OrderChanged,
} from '@renderer/features/orders/order-holds'
import { readCreatorOrder } from '@renderer/features/orders/read-order'
import type { PreviewState } from './useOrderTransfer'

/**
 * Where the order sent stands with automatic transfers, as the orders inbox says it (held by whom,
 * why and since when; what it needs, when its preview is refused; ...), with the inbox's Hold and
 * Release. Read again with every preview or refusal shown, since processing moves the order on. A
 * held order is still processed by hand: Process transfer does not depend on it. Nothing shows
 * while the order cannot be read, or when the inbox does not list it.
 */
export function TransferReadiness({
  preview,
}: {
  preview: Extract<PreviewState, { orderId: string }>
}) {
  const bridge = useBridge()
  const load = useCallback(() => readCreatorOrder(bridge, preview.orderId), [bridge, preview])
  const { remote, refresh, update } = useRemote(load)
  const onChanged = useCallback<OrderChanged>(
    (_, now) => (now ? update(() => now) : refresh()),
    [update, refresh],
  )
  const headingId = useId()

  if (remote.status !== 'ready' || remote.value === null) return null
  return (
    <OrderHoldsProvider onChanged={onChanged}>
      <Paper component="section" aria-labelledby={headingId} withBorder p="sm" maw={720}>
        <Text id={headingId} size="xs" c="dimmed" fw={500} mb={4}>
          Automatic transfer
        </Text>
        <ReadinessWithHold order={remote.value} />
      </Paper>
    </OrderHoldsProvider>
  )
}
