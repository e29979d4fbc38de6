import { Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core'
import type { CatalogListing } from '@shared/contract'
import { LISTING_STATUS_BADGES, SYNC_STATE_BADGES, brandStatusNote } from './listing-words'

type ListingStateProps = Pick<
  CatalogListing,
  'status' | 'syncState' | 'syncMessage' | 'brandStatus'
>

/**
 * A listing's status and how far the creator's store follows it, as badges, with what a person
 * must read whole rather than hover for: why its last sync failed, and whether the brand still
 * sells the product.
 */
export function ListingState({ status, syncState, syncMessage, brandStatus }: ListingStateProps) {
  const shown = LISTING_STATUS_BADGES[status]
  const sync = SYNC_STATE_BADGES[syncState]
  const brandNote = brandStatusNote(brandStatus)
  return (
    <Stack gap={4}>
      <Group gap={6}>
        <Badge variant="light" color={shown.color}>
          {shown.label}
        </Badge>
        {/* Two badges side by side: the second says what it is about to one who cannot see. */}
        <VisuallyHidden>Sync:</VisuallyHidden>
        <Badge variant="dot" color={sync.color}>
          {sync.label}
        </Badge>
      </Group>
      {syncState === 'FAILED' && (
        <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
          {syncMessage ?? 'The server gave no reason.'}
        </Text>
      )}
      {brandNote !== null && (
        <Text size="sm" c="orange">
          {brandNote}
        </Text>
      )}
    </Stack>
  )
}
