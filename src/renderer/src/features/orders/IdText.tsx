import { ActionIcon, Group, Text } from '@mantine/core'
import { IconCopy } from '@tabler/icons-react'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { shortId } from '@renderer/lib/format'
import { showToast } from '@renderer/lib/toast'
import classes from './Orders.module.css'

/**
 * A Shopify or Stripe id in a cell: short ("…/Order/1006"), on one line, whole on hover, and
 * copied whole by its button. The main process writes the clipboard (docs/product-rules.md "The
 * desktop app"), so copying works in browser mode too.
 */
export function IdText({ id, size = 'sm' }: { id: string; size?: 'xs' | 'sm' }) {
  const bridge = useBridge()
  const copy = async () => {
    try {
      await bridge.invoke('clipboard/writeText', { text: id })
      showToast({ title: 'Copied', message: `${id} has been copied to your clipboard.` })
    } catch (error) {
      showToast({ tone: 'error', title: 'Failed to copy', message: failureReason(error) })
    }
  }
  return (
    <Group gap={4} wrap="nowrap">
      <Text component="span" size={size} className={classes.id} title={id}>
        {shortId(id)}
      </Text>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Copy ${id}`}
        onClick={() => void copy()}
      >
        <IconCopy size={14} />
      </ActionIcon>
    </Group>
  )
}
