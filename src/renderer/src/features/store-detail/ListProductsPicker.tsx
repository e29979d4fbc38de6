import { useMemo, useState, type FormEvent } from 'react'
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import type { CatalogListing, Store, StoreProduct } from '@shared/contract'
import type { ChannelResult } from '@shared/ipc'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { plural, storeName, storeOption } from '@renderer/lib/format'
import { useWrite } from '@renderer/lib/useWrite'
import { SEARCH_DELAY_MS } from '@renderer/features/orders/OrdersTab'
import { BrandSelect } from './BrandSelect'
import { PickableProducts } from './PickableProducts'
import { PriceInput, readPrice } from './PriceInput'

/** The contract's most products listed at once. */
const MOST_AT_ONCE = 50
/** The contract's longest search. */
const SEARCH_MAX_LENGTH = 200

type Refused = ChannelResult<'adminListProducts'>['refused']
/** A product the server would not list, by the title it was picked by, with why. */
interface RefusedProduct {
  productId: string
  title: string
  message: string
}

interface ListProductsPickerProps {
  opened: boolean
  onClose: () => void
  creatorShop: string
  brands: Store[]
  listedProductIds: ReadonlySet<string>
  onListed: (listed: CatalogListing[]) => void
}

/**
 * "List products": a brand's synced products, searched by title, picked with checkboxes and listed
 * on the creator's store, at the brand's price or one above it. Each opening starts afresh.
 */
export function ListProductsPicker({ opened, onClose, ...form }: ListProductsPickerProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="List products" size="lg">
      <PickerForm {...form} onDone={onClose} />
    </Modal>
  )
}

type PickerFormProps = Omit<ListProductsPickerProps, 'opened' | 'onClose'> & {
  /** Every product picked was listed: nothing is left to say here. */
  onDone: () => void
}

function PickerForm({ creatorShop, brands, listedProductIds, onListed, onDone }: PickerFormProps) {
  const bridge = useBridge()
  const [brand, setBrand] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS)
  const [picked, setPicked] = useState<ReadonlyMap<string, StoreProduct>>(new Map())
  const [priceText, setPriceText] = useState('')
  const [invalidPrice, setInvalidPrice] = useState<string | null>(null)
  // The products the last listing refused, with the titles they were picked by.
  const [refused, setRefused] = useState<RefusedProduct[]>([])
  const creator = storeName(creatorShop)
  const write = useWrite<ChannelResult<'adminListProducts'>>({
    success: ({ listed, refused }) => ({
      title: listed.length === 0 ? 'No products listed' : 'Products listed',
      message: `Listed ${plural(listed.length, 'product', 'products')} on ${creator}.${
        refused.length === 0 ? '' : ` ${plural(refused.length, 'was', 'were')} not listed.`
      }`,
    }),
    failure: (reason) => ({ title: 'Failed to list products', message: reason }),
  })
  const brandOptions = useMemo(() => brands.map(storeOption), [brands])
  const currency = picked.values().next().value?.currency ?? null

  const edit = () => {
    write.clearRefusal()
    setRefused([])
  }

  const chooseBrand = (shop: string | null) => {
    setBrand(shop)
    setSearch('')
    setPicked(new Map())
    edit()
  }

  const toggle = (product: StoreProduct, pick: boolean) => {
    setPicked((previous) => {
      const next = new Map(previous)
      if (pick) next.set(product.id, product)
      else next.delete(product.id)
      return next
    })
    edit()
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (brand === null || picked.size === 0 || write.busy) return
    const read = readPrice(priceText)
    if ('invalid' in read) {
      setInvalidPrice(read.invalid)
      return
    }
    const answer = await write.run(() =>
      bridge.invoke('adminListProducts', {
        creatorStoreShop: creatorShop,
        brandStoreShop: brand,
        productIds: [...picked.keys()],
        ...(read.price !== null && { price: read.price }),
      }),
    )
    if (!answer) return
    onListed(answer.listed)
    if (answer.refused.length === 0) {
      onDone()
      return
    }
    setRefused(reasons(answer.refused, picked))
    setPicked(new Map())
  }

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="List products" noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Products picked here are listed on {creator}, which sells them for the brand.
        </Text>
        <BrandSelect data={brandOptions} value={brand} onChange={chooseBrand} data-autofocus />
        <TextInput
          label="Search products"
          placeholder="Title contains..."
          leftSection={<IconSearch size={16} stroke={1.75} />}
          maxLength={SEARCH_MAX_LENGTH}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          disabled={brand === null}
        />
        {brand === null ? (
          <Text c="dimmed" size="sm">
            Choose a brand to see its products.
          </Text>
        ) : (
          // One per brand: another brand starts afresh, and what the last one awaited is ignored.
          <PickableProducts
            key={brand}
            brandShop={brand}
            query={query}
            picked={picked}
            listedProductIds={listedProductIds}
            full={picked.size >= MOST_AT_ONCE}
            onToggle={toggle}
          />
        )}
        <PriceInput
          label="Price (optional)"
          value={priceText}
          onChange={(value) => {
            setPriceText(value)
            setInvalidPrice(null)
            edit()
          }}
          currency={currency}
          error={invalidPrice}
        />
        <RefusalAlert refusal={write.refusal} mb={0} />
        {refused.length > 0 && (
          <Alert
            color="red"
            variant="light"
            title={`${plural(refused.length, 'product was', 'products were')} not listed`}
          >
            <List size="sm" spacing={4}>
              {refused.map(({ productId, title, message }) => (
                <List.Item key={productId}>
                  <Text span fw={500} inherit>
                    {title}
                  </Text>
                  : {message}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group justify="space-between" mt="xs">
          <Text size="sm" c="dimmed">
            {picked.size === 0
              ? `Pick up to ${MOST_AT_ONCE} at once`
              : `${plural(picked.size, 'product', 'products')} picked`}
          </Text>
          <Button type="submit" disabled={brand === null || picked.size === 0} loading={write.busy}>
            {picked.size === 0
              ? 'List products'
              : `List ${plural(picked.size, 'product', 'products')}`}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

/** Each refused product by the title it was picked by, and the server's reason. */
const reasons = (refused: Refused, picked: ReadonlyMap<string, StoreProduct>): RefusedProduct[] =>
  refused.map(({ productId, message }) => ({
    productId,
    title: picked.get(productId)?.title ?? productId,
    message,
  }))
