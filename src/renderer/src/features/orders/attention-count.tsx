import { useEffect } from 'react'
import { Badge, VisuallyHidden } from '@mantine/core'
import { create } from 'zustand'
import type { TandemBridge } from '@shared/ipc'
import { useBridge } from '@renderer/lib/bridge'
import { plural } from '@renderer/lib/format'

// How many orders need attention (issue 32), beside Orders in the sidebar: automatic transfers
// stop on them until an administrator fixes what their reasons name, so they should not wait
// for someone to open the page. The shell reads the count while it is shown (only to a signed-in
// administrator) and the Orders page each time it opens.

/** Often enough to notice an order within a minute or so, rarely enough to cost the server nothing. */
export const ATTENTION_POLL_MS = 60_000

/** The last count read; null before the first answer and after a failed read. */
const useAttentionCount = create<{ count: number | null }>()(() => ({ count: null }))

/**
 * Reads the count again. A failed read hides it rather than show a number the server did not
 * confirm: it is a hint beside a link, and the Orders page says what failed.
 */
export async function refreshAttentionCount(bridge: TandemBridge): Promise<void> {
  const count = await bridge.invoke('adminOrdersNeedingAttention').then(
    (answer) => answer.count,
    () => null,
  )
  useAttentionCount.setState({ count })
}

/** The sidebar's count beside Orders, read now and every ATTENTION_POLL_MS; nothing when none. */
export function AttentionCountBadge() {
  const bridge = useBridge()
  const count = useAttentionCount((state) => state.count)
  useEffect(() => {
    void refreshAttentionCount(bridge)
    const timer = setInterval(() => void refreshAttentionCount(bridge), ATTENTION_POLL_MS)
    return () => clearInterval(timer)
  }, [bridge])

  if (!count) return null
  const text = `${plural(count, 'order needs', 'orders need')} attention`
  return (
    <Badge size="sm" color="red" circle={count < 10} title={text}>
      {/* The link reads "Orders 3 orders need attention"; the eye sees "3". */}
      <span aria-hidden>{count}</span>
      <VisuallyHidden>{text}</VisuallyHidden>
    </Badge>
  )
}
