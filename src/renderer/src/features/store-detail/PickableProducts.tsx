import { useCallback } from 'react'
import { Checkbox, Group, ScrollArea, Stack, Text } from '@mantine/core'
import { PAGE_LIMIT, type StoreProduct } from '@shared/contract'
import { ProductThumbnail } from '@renderer/app/ProductThumbnail'
import { useBridge } from '@renderer/lib/bridge'
import { formatMoney } from '@renderer/lib/format'
import { Paged } from '@renderer/lib/Paged'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import classes from './PickableProducts.module.css'

interface PickableProductsProps {
  brandShop: string
  /** Titles containing it, whatever the case; empty for every product. */
  query: string
  picked: ReadonlyMap<string, StoreProduct>
  /** Products on the creator's store already: shown, but not to be picked again. */
  listedProductIds: ReadonlySet<string>
  /** No more may be picked (the contract's most at once): only picked ones can change. */
  full: boolean
  onToggle: (product: StoreProduct, picked: boolean) => void
}

/** A brand's synced products whose titles match, each with a checkbox, read a page at a time. */
export function PickableProducts({
  brandShop,
  query,
  picked,
  listedProductIds,
  full,
  onToggle,
}: PickableProductsProps) {
  const bridge = useBridge()
  // A new brand or search is a new loader, and so a fresh list from its first page.
  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<CursorPage<StoreProduct>> => {
      const { products, nextCursor } = await bridge.invoke('adminStoreProducts', {
        storeShop: brandShop,
        ...(query && { search: query }),
        ...(cursor && { cursor }),
        limit: PAGE_LIMIT.default,
      })
      return { items: products, nextCursor }
    },
    [bridge, brandShop, query],
  )

  return (
    <Paged
      fetchPage={fetchPage}
      empty={query ? 'No products match.' : 'No products synced for this brand yet.'}
      noun={['product', 'products']}
    >
      {({ items }) => (
        <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
          <Stack component="ul" gap={0} className={classes.list} aria-label="Products">
            {items.map((product) => {
              const listed = listedProductIds.has(product.id)
              const checked = picked.has(product.id)
              return (
                <Group
                  component="li"
                  key={product.id}
                  justify="space-between"
                  wrap="nowrap"
                  gap="sm"
                  className={classes.item}
                >
                  <Checkbox
                    checked={checked}
                    disabled={listed || (full && !checked)}
                    onChange={(event) => onToggle(product, event.currentTarget.checked)}
                    description={listed ? 'Listed on this store already' : undefined}
                    label={
                      <Group gap="sm" wrap="nowrap" component="span">
                        <ProductThumbnail src={product.imageUrl} />
                        {product.title}
                      </Group>
                    }
                  />
                  <Text size="sm" className={classes.price}>
                    {formatMoney(product.price, product.currency)}
                  </Text>
                </Group>
              )
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paged>
  )
}
