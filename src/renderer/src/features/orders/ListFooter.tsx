import { Box, Button, Group, Text } from '@mantine/core'
import { LoadFailure } from '@renderer/app/LoadFailure'
import type { CursorPages } from '@renderer/lib/useCursorPages'

const count = new Intl.NumberFormat('en-US')

interface ListFooterProps {
  pages: Extract<CursorPages<unknown>, { status: 'ready' }>
  /** What the list holds: ['order', 'orders']. */
  noun: readonly [string, string]
  onLoadMore: () => void
}

/**
 * Under a paged table: how many rows are loaded, and "Load more" for whoever does not scroll (it
 * reads the same next page scrolling would, never a second one at once). A next page that failed
 * says why, with Retry; scrolling does not retry it on its own.
 */
export function ListFooter({ pages, noun, onLoadMore }: ListFooterProps) {
  const shown = pages.items.length
  const { more } = pages
  return (
    <>
      <Group justify="space-between" mt="sm" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {count.format(shown)} {shown === 1 ? noun[0] : noun[1]} shown
        </Text>
        {pages.nextCursor !== null && more.status !== 'failed' && (
          <Button
            variant="default"
            size="xs"
            loading={more.status === 'loading'}
            onClick={onLoadMore}
          >
            Load more
          </Button>
        )}
      </Group>
      {more.status === 'failed' && (
        <Box mt="sm">
          <LoadFailure message={more.message} onRetry={onLoadMore} />
        </Box>
      )}
    </>
  )
}
