import type { KeyboardEvent, MouseEvent } from 'react'
import { StoreTypeBadge } from './StoreTypeBadge'
import { ActionIcon, Button, Paper, Table, Text, VisuallyHidden } from '@mantine/core'
import { IconChevronRight } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router'
import type { Store } from '@shared/contract'
import { consolePaths } from '@shared/contract/names'
import { useBridge } from '@renderer/lib/bridge'
import { useVirtualRows, VirtualBody } from '@renderer/lib/virtual-rows'
import { storeName } from '@renderer/lib/format'
import { useStoresPage } from './stores-page-state'
import { syncStoreProducts, syncingLabel } from './sync-products'
import classes from './StoreTable.module.css'

/** Every row is this tall, so that the virtualizer knows where each one is without measuring. */
const ROW_HEIGHT = 52
/** A row opens /main/stores/{store}?type={BRAND|CREATOR} (docs/product-rules.md "The console's screens"). */
const storePagePath = (store: Store) => consolePaths.store(store.shop, store.shopType)

/**
 * The stores of one tab. Only the rows in view (and a few around them) are in the page, with
 * spacer rows standing in for the rest, so 10,000 stores scroll as smoothly as ten; it stays a
 * real table, whose aria-rowcount and aria-rowindex tell assistive technology about the others.
 */
export function StoreTable({ stores }: { stores: Store[] }) {
  const { scrollRef, ...rows } = useVirtualRows<HTMLDivElement>({
    count: stores.length,
    estimateSize: () => ROW_HEIGHT,
  })

  return (
    <Paper withBorder ref={scrollRef} className={classes.scroller}>
      <Table stickyHeader highlightOnHover layout="fixed" aria-rowcount={stores.length + 1}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            {/* The name takes what the others leave, all of it below sm where the URL is left out
                (the name already says which store). The others fit their content. */}
            <Table.Th>Name</Table.Th>
            <Table.Th w="40%" visibleFrom="sm">
              URL
            </Table.Th>
            <Table.Th w={88}>Type</Table.Th>
            <Table.Th className={classes.syncColumn}>
              <VisuallyHidden>Sync products</VisuallyHidden>
            </Table.Th>
            <Table.Th w={48}>
              <VisuallyHidden>Open</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <VirtualBody
          rows={rows}
          items={stores}
          row={(store, rowIndex) => <StoreRow key={store.shop} store={store} rowIndex={rowIndex} />}
        />
      </Table>
    </Paper>
  )
}

/** Clicks on the row's own buttons and links do what those say, not open the store. */
const onControl = (event: MouseEvent) =>
  event.target instanceof Element && event.target.closest('button, a') !== null

function StoreRow({ store, rowIndex }: { store: Store; rowIndex: number }) {
  const bridge = useBridge()
  const navigate = useNavigate()
  const syncing = useStoresPage((state) => state.syncingShops.has(store.shop))
  const progress = useStoresPage((state) => state.syncProgress[store.shop])
  const name = storeName(store.shop)
  const path = storePagePath(store)
  const url = `https://${store.shop}`

  const openOnClick = (event: MouseEvent) => {
    if (!onControl(event)) void navigate(path)
  }
  const openOnEnter = (event: KeyboardEvent<HTMLTableRowElement>) => {
    // Enter on the Sync button or the Open link belongs to them.
    if (event.key === 'Enter' && event.target === event.currentTarget) void navigate(path)
  }

  return (
    <Table.Tr
      className={classes.row}
      h={ROW_HEIGHT}
      tabIndex={0}
      aria-rowindex={rowIndex}
      onClick={openOnClick}
      onKeyDown={openOnEnter}
    >
      <Table.Td>
        <Text size="sm" fw={500} truncate title={name}>
          {name}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        {/* Text, not a link: the row opens the store's page in the console. */}
        <Text size="sm" c="dimmed" truncate title={url}>
          {url}
        </Text>
      </Table.Td>
      <Table.Td>
        <StoreTypeBadge shopType={store.shopType} />
      </Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          classNames={{ root: classes.syncButton, label: classes.syncLabel }}
          disabled={syncing}
          onClick={() => void syncStoreProducts(bridge, store.shop)}
        >
          {syncing ? syncingLabel(progress) : 'Sync'}
        </Button>
      </Table.Td>
      <Table.Td>
        <ActionIcon
          component={Link}
          to={path}
          variant="subtle"
          color="gray"
          aria-label={`Open ${name}`}
        >
          <IconChevronRight size={18} stroke={1.75} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  )
}
