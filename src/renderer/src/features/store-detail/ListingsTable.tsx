import { useState } from 'react'
import { ActionIcon, Group, Menu, Table, Text, VisuallyHidden } from '@mantine/core'
import { IconDots } from '@tabler/icons-react'
import type { CatalogListing, ListingStatus } from '@shared/contract'
import { ConfirmDialog } from '@renderer/app/ConfirmDialog'
import { ProductThumbnail } from '@renderer/app/ProductThumbnail'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { formatMoney, storeName } from '@renderer/lib/format'
import { useWrite } from '@renderer/lib/useWrite'
import { ListingState } from './ListingState'
import { listingPrice } from './listing-words'
import { PriceDialog } from './PriceDialog'

interface ListingsTableProps {
  creatorShop: string
  listings: CatalogListing[]
  /** The listing as the server answered a change of it. */
  onChanged: (listing: CatalogListing) => void
}

/** A changed listing, and what the toast says of the change. */
interface Changed {
  listing: CatalogListing
  done: string
}

/** What selling at `listing`'s price means, after a price was set or cleared. */
const priceSentence = (listing: CatalogListing) =>
  listing.price === null
    ? `${listing.title} sells at the brand's price.`
    : `${listing.title} sells at ${formatMoney(listing.price, listing.currency ?? '')}.`

/** A creator's listings, one row each, with what can be done to each. */
export function ListingsTable({ creatorShop, listings, onChanged }: ListingsTableProps) {
  const bridge = useBridge()
  const [removing, setRemoving] = useState<CatalogListing | null>(null)
  const [pricing, setPricing] = useState<CatalogListing | null>(null)
  // Rows change side by side, each under its own key; a refusal is the server's sentence.
  const change = useWrite<Changed>({
    success: ({ done }) => ({ title: 'Success', message: done }),
    failure: (reason) => ({ title: 'Failed to change listing', message: reason }),
  })
  const reprice = useWrite<CatalogListing>({
    success: (listing) => ({ title: 'Success', message: priceSentence(listing) }),
    failure: (reason) => ({ title: 'Failed to change listing', message: reason }),
  })

  /** Sets the listing's status, and its price when one is given (null: the brand's). */
  const setListing = (listing: CatalogListing, status: ListingStatus, price?: string | null) =>
    bridge.invoke('adminSetListing', {
      listingId: listing.id,
      status,
      ...(price === undefined ? {} : { price }),
    })

  const changeTo = async (
    listing: CatalogListing,
    status: ListingStatus,
    done: (changed: CatalogListing) => string,
    price?: string | null,
  ) => {
    const answer = await change.run(async () => {
      const changed = await setListing(listing, status, price)
      return { listing: changed, done: done(changed) }
    }, listing.id)
    if (answer) onChanged(answer.listing)
  }

  const savePrice = async (listing: CatalogListing, price: string | null) => {
    const changed = await reprice.run(() => setListing(listing, listing.status, price))
    if (!changed) return
    onChanged(changed)
    setPricing(null)
  }

  if (listings.length === 0) {
    return <Text c="dimmed">No products listed on this store yet.</Text>
  }

  const creator = storeName(creatorShop)
  return (
    <>
      <RefusalAlert refusal={change.refusal} mb="md" />
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" aria-label="Listings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th w={120}>Price</Table.Th>
              <Table.Th w="34%">State</Table.Th>
              <Table.Th w={56}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listings.map((listing) => (
              <Table.Tr key={listing.id}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <ProductThumbnail src={listing.imageUrl} size={40} />
                    <div>
                      <Text size="sm" fw={500}>
                        {listing.title}
                      </Text>
                      <Text size="xs" c="dimmed" title={listing.brandStoreShop}>
                        {storeName(listing.brandStoreShop)}
                      </Text>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td>
                  {/* At the brand's price, the brand's amount as last read: it follows a reprice. */}
                  {listing.price === null && listing.brandPrice !== null && (
                    <Text size="sm">{formatMoney(listing.brandPrice, listing.currency ?? '')}</Text>
                  )}
                  <Text
                    size={listing.price === null && listing.brandPrice !== null ? 'xs' : 'sm'}
                    c={listing.price === null ? 'dimmed' : undefined}
                  >
                    {listingPrice(listing)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ListingState {...listing} />
                </Table.Td>
                <Table.Td ta="right">
                  {listing.status !== 'REMOVED' && (
                    <RowActions
                      listing={listing}
                      busy={change.isBusy(listing.id)}
                      onStatus={(status) =>
                        void changeTo(listing, status, () =>
                          status === 'PAUSED'
                            ? `${listing.title} paused.`
                            : `${listing.title} resumed.`,
                        )
                      }
                      onSetPrice={() => {
                        reprice.clearRefusal()
                        setPricing(listing)
                      }}
                      onClearPrice={() =>
                        void changeTo(listing, listing.status, priceSentence, null)
                      }
                      onRemove={() => setRemoving(listing)}
                    />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        title="Remove listing"
        confirmLabel="Remove"
        question={
          removing === null
            ? null
            : `Remove ${removing.title} from ${creator}? It leaves the creator's store; you can list it again later.`
        }
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing === null) return
          setRemoving(null)
          void changeTo(removing, 'REMOVED', () => `${removing.title} removed from ${creator}.`)
        }}
      />
      <PriceDialog
        listing={pricing}
        busy={reprice.busy}
        refusal={reprice.refusal}
        onCancel={() => setPricing(null)}
        onSubmit={(price) => pricing && void savePrice(pricing, price)}
        onEdit={reprice.clearRefusal}
      />
    </>
  )
}

interface RowActionsProps {
  listing: CatalogListing
  busy: boolean
  /** Pause an active listing, or resume a paused one. */
  onStatus: (status: 'ACTIVE' | 'PAUSED') => void
  onSetPrice: () => void
  onClearPrice: () => void
  onRemove: () => void
}

/** A listing's actions, in a menu that keeps the row narrow. */
function RowActions({
  listing,
  busy,
  onStatus,
  onSetPrice,
  onClearPrice,
  onRemove,
}: RowActionsProps) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Actions for ${listing.title}`}
          loading={busy}
        >
          <IconDots size={18} stroke={1.75} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {listing.status === 'ACTIVE' ? (
          <Menu.Item onClick={() => onStatus('PAUSED')}>Pause</Menu.Item>
        ) : (
          <Menu.Item onClick={() => onStatus('ACTIVE')}>Resume</Menu.Item>
        )}
        <Menu.Item onClick={onSetPrice}>Set price…</Menu.Item>
        {listing.price !== null && (
          <Menu.Item onClick={onClearPrice}>Use the brand's price</Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item color="red" onClick={onRemove}>
          Remove
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
