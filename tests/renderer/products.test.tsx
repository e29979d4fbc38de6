import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ProductSyncStatus, Store, StoreProduct } from '@shared/contract'
import type { ChannelArgs, ChannelResult } from '@shared/ipc'
import { useStoresPage } from '@renderer/features/stores/stores-page-state'
import { formatDateTime } from '@renderer/lib/format'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { cellTexts, dataRows, layOutAsInAWindow } from './support/table'

/** The sync's progress is asked every 500 ms: a few of those, however loaded the machine. */
const POLLS_WITHIN = 10_000

// docs/product-rules.md "The console's screens": /main/products, as a person sees it.

const NORTHWIND = 'northwind-apparel.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const STORES: Store[] = [
  { shop: 'lumen-botanicals.myshopify.com', shopType: 'BRAND' },
  { shop: 'northwind-apparel.myshopify.com', shopType: 'BRAND' },
  { shop: 'maya-makes.myshopify.com', shopType: 'CREATOR' },
]

type ProductPage = ChannelResult<'adminStoreProducts'>
type ProductQuery = ChannelArgs<'adminStoreProducts'>
type SyncResult = ChannelResult<'adminUpdateProducts'>

const product = (id: string, overrides: Partial<StoreProduct> = {}): StoreProduct => ({
  id,
  title: `Product ${id}`,
  status: 'ACTIVE',
  variantCount: 1,
  price: '10.00',
  currency: 'USD',
  imageUrl: null,
  ...overrides,
})

const NORTHWIND_PRODUCTS: StoreProduct[] = [
  product('1', { title: 'Linen Overshirt', variantCount: 4, price: '68.00' }),
  product('2', { title: 'Merino Crew Socks', status: 'DRAFT', variantCount: 12, price: '18.00' }),
  product('3', { title: 'Old Raincoat', status: 'ARCHIVED', price: '1200.5', currency: 'EUR' }),
]

/** `count` products numbered from `from`, as one page of the list. */
const numbered = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => product(String(from + index).padStart(5, '0')))

const SYNCED_AT = '2025-03-04T10:30:00.000Z'
const status = (storeShop: string, overrides: Partial<ProductSyncStatus> = {}) =>
  ({
    storeShop,
    state: 'IDLE',
    fetched: 0,
    total: null,
    syncedAt: SYNCED_AT,
    message: null,
    ...overrides,
  }) satisfies ProductSyncStatus

layOutAsInAWindow()

// Syncs outlive a page by design (the stores page's state); each test starts with none.
beforeEach(() => {
  useStoresPage.setState({ syncingShops: new Set(), syncProgress: {} })
})

function renderProducts(path = '/main/products', answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminAllStores: () => STORES,
    adminProductSyncStatus: ({ storeShop }) => status(storeShop),
    adminStoreProducts: ({ storeShop }) => ({
      products: storeShop === NORTHWIND ? NORTHWIND_PRODUCTS : [],
      nextCursor: null,
    }),
    ...answers,
  })
  const { router, location } = renderApp(fake.bridge, path)
  return { ...fake, router, location }
}

const selector = () => screen.getByRole('combobox', { name: 'Store' })
const titles = () => dataRows().map((row) => cellTexts(row)[0])
const productQueries = (fake: ReturnType<typeof renderProducts>) =>
  fake.callsTo('adminStoreProducts').map((call) => call.args)

describe('Products', () => {
  it('asks for a store first, offering every store with its type', async () => {
    const app = renderProducts()

    expect(await screen.findByRole('heading', { name: 'Products' })).toBeInTheDocument()
    expect(await screen.findByText('Choose a store to see its products.')).toBeInTheDocument()
    expect(app.callsTo('adminStoreProducts')).toHaveLength(0)

    await userEvent.click(selector())
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'lumen botanicalsBrand',
      'northwind apparelBrand',
      'maya makesCreator',
    ])
  })

  it('shows the chosen store’s products and keeps the store in the address', async () => {
    const app = renderProducts()
    const user = userEvent.setup()

    await user.type(await screen.findByRole('combobox', { name: 'Store' }), 'northwind')
    await user.click(screen.getByRole('option', { name: /northwind apparel/ }))

    expect(await screen.findByRole('table', { name: 'Products' })).toBeInTheDocument()
    expect(app.location().search).toBe(`?store=${NORTHWIND}`)
    expect(productQueries(app)).toEqual([{ storeShop: NORTHWIND, limit: 50 }])
    expect(app.callsTo('adminProductSyncStatus').map((call) => call.args)).toEqual([
      { storeShop: NORTHWIND },
    ])
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Title', 'Status', 'Variants', 'Price'])
    expect(dataRows().map(cellTexts)).toEqual([
      ['Linen Overshirt', 'Active', '4', '$68.00'],
      ['Merino Crew Socks', 'Draft', '12', '$18.00'],
      ['Old Raincoat', 'Archived', '1', '€1,200.50'],
    ])
    expect(screen.getByText(`Synced ${formatDateTime(SYNCED_AT)}`)).toBeInTheDocument()
    // Everything has come: the table knows its rows.
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '4')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Clear store' }))
    expect(await screen.findByText('Choose a store to see its products.')).toBeInTheDocument()
    expect(app.location().search).toBe('')
  })

  it('shows an UNLISTED product, and a status Shopify adds later as its words', async () => {
    renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: () => ({
        products: [
          product('1', { title: 'Hidden Tote', status: 'UNLISTED' }),
          product('2', { title: 'Next Season Coat', status: 'PRE_ORDER' }),
        ],
        nextCursor: null,
      }),
    })
    expect(await screen.findByRole('table', { name: 'Products' })).toBeInTheDocument()
    expect(dataRows().map(cellTexts)).toEqual([
      ['Hidden Tote', 'Unlisted', '1', '$10.00'],
      ['Next Season Coat', 'Pre order', '1', '$10.00'],
    ])
  })

  it("shows each product's picture beside its title, and a placeholder where it has none", async () => {
    const picture = 'https://cdn.shopify.com/s/files/1/tote.jpg'
    renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: () => ({
        products: [
          product('1', { title: 'Hidden Tote', imageUrl: picture }),
          product('2', { title: 'Next Season Coat' }),
        ],
        nextCursor: null,
      }),
    })
    expect(await screen.findByRole('table', { name: 'Products' })).toBeInTheDocument()
    const [withPicture, without] = dataRows()
    expect(withPicture!.querySelector('img')?.getAttribute('src')).toBe(picture)
    expect(without!.querySelector('img')).toBeNull()
    // The title beside it names the row: the picture adds no second name.
    expect(dataRows().map(cellTexts)).toEqual([
      ['Hidden Tote', 'Active', '1', '$10.00'],
      ['Next Season Coat', 'Active', '1', '$10.00'],
    ])
  })

  it('opens on the store named in the address, as after a reload', async () => {
    const app = renderProducts(`/main/products?store=${NORTHWIND}`)

    expect(await screen.findByRole('table', { name: 'Products' })).toBeInTheDocument()
    expect(selector()).toHaveValue('northwind apparel')
    expect(titles()).toEqual(['Linen Overshirt', 'Merino Crew Socks', 'Old Raincoat'])
    expect(productQueries(app)).toEqual([{ storeShop: NORTHWIND, limit: 50 }])
  })

  it('asks for a store when the address names one that is not known', async () => {
    const app = renderProducts('/main/products?store=gone-away.myshopify.com')

    expect(await screen.findByText('Choose a store to see its products.')).toBeInTheDocument()
    expect(selector()).toHaveValue('')
    expect(app.callsTo('adminStoreProducts')).toHaveLength(0)
  })

  it('says so when the store has no products and was never synced', async () => {
    renderProducts(`/main/products?store=${LUMEN}`, {
      adminProductSyncStatus: ({ storeShop }) => status(storeShop, { syncedAt: null }),
    })

    expect(await screen.findByText('No products synced for this store yet.')).toBeInTheDocument()
    expect(screen.getByText('Never synced')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('shows "Loading..." and then why the list failed, and reads it again on Retry', async () => {
    const first = deferred<ProductPage>()
    let attempt = 0
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: () =>
        ++attempt === 1 ? first.promise : { products: NORTHWIND_PRODUCTS, nextCursor: null },
    })

    // The stores arrive first, then the store's products are on their way.
    await screen.findByRole('combobox', { name: 'Store' })
    expect(screen.getByText('Loading...')).toBeInTheDocument()
    await act(async () => first.reject(serverRefusal('list products', 'Store not found')))

    expect(await screen.findByText('Failed to list products: Store not found')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))

    expect(await screen.findByRole('table')).toBeInTheDocument()
    expect(titles()).toEqual(['Linen Overshirt', 'Merino Crew Socks', 'Old Raincoat'])
    expect(productQueries(app)).toHaveLength(2)
  })

  it('reads the next page on "Load more", one request at a time', async () => {
    const second = deferred<ProductPage>()
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: ({ cursor }) =>
        cursor === undefined
          ? { products: numbered(0, 50), nextCursor: 'after-50' }
          : second.promise,
    })
    const user = userEvent.setup()

    const table = await screen.findByRole('table')
    // More is to come: the table cannot say how many rows it will have.
    expect(table).toHaveAttribute('aria-rowcount', '-1')
    expect(titles()[0]).toBe('Product 00000')
    // Only the rows in view are rendered, so the end is not yet in view and nothing more is read.
    expect(dataRows().length).toBeLessThan(50)
    expect(productQueries(app)).toHaveLength(1)

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    expect(productQueries(app)).toEqual([
      { storeShop: NORTHWIND, limit: 50 },
      { storeShop: NORTHWIND, cursor: 'after-50', limit: 50 },
    ])
    await act(async () => second.resolve({ products: numbered(50, 10), nextCursor: null }))

    expect(table).toHaveAttribute('aria-rowcount', '61')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('reads the next page once when the scroll reaches the end, however often it scrolls', async () => {
    const pages = new Map<string, ReturnType<typeof deferred<ProductPage>>>()
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: ({ cursor }) => {
        if (cursor === undefined) return { products: numbered(0, 50), nextCursor: 'after-50' }
        const page = deferred<ProductPage>()
        pages.set(cursor, page)
        return page.promise
      },
    })

    const table = await screen.findByRole('table')
    const scroller = table.parentElement!
    const scrollTo = (top: number) => {
      scroller.scrollTop = top
      fireEvent.scroll(scroller)
    }

    // Rows 12 to 29 in view: the first ones gone, the end still far.
    scrollTo(600)
    await waitFor(() => expect(titles()[0]).toBe('Product 00002'))
    expect(productQueries(app)).toHaveLength(1)

    scrollTo(2000)
    scrollTo(2400)
    await waitFor(() => expect(productQueries(app)).toHaveLength(2))
    scrollTo(2300)
    scrollTo(2400)
    expect(productQueries(app)).toHaveLength(2)
    expect(productQueries(app)[1]).toEqual({ storeShop: NORTHWIND, cursor: 'after-50', limit: 50 })

    await act(async () =>
      pages.get('after-50')?.resolve({ products: numbered(50, 50), nextCursor: 'after-100' }),
    )
    expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled()
    // The end moved away with the new rows: nothing more until the scroll reaches it again.
    expect(productQueries(app)).toHaveLength(2)

    scrollTo(4800)
    await waitFor(() => expect(productQueries(app)).toHaveLength(3))
    expect(productQueries(app)[2]).toEqual({
      storeShop: NORTHWIND,
      cursor: 'after-100',
      limit: 50,
    })
  })

  it('says why the next page failed, and reads it again on Retry', async () => {
    let failed = false
    renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: ({ cursor }) => {
        if (cursor === undefined) return { products: numbered(0, 50), nextCursor: 'after-50' }
        if (!failed) {
          failed = true
          throw new Error('The request timed out')
        }
        return { products: numbered(50, 1), nextCursor: null }
      },
    })
    const user = userEvent.setup()

    await user.click(await screen.findByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('The request timed out')).toBeInTheDocument()
    expect(titles()[0]).toBe('Product 00000')

    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '52')
    expect(screen.queryByText('The request timed out')).not.toBeInTheDocument()
  })

  it('ignores an answer for a store chosen before', async () => {
    const answers = new Map<string, ReturnType<typeof deferred<ProductPage>>>()
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminStoreProducts: ({ storeShop }: ProductQuery) => {
        const answer = deferred<ProductPage>()
        answers.set(storeShop, answer)
        return answer.promise
      },
    })
    const user = userEvent.setup()
    await screen.findByRole('combobox', { name: 'Store' })
    expect(screen.getByText('Loading...')).toBeInTheDocument()

    await user.click(selector())
    await user.click(screen.getByRole('option', { name: /lumen botanicals/ }))
    await waitFor(() => expect(answers.has(LUMEN)).toBe(true))

    await act(async () =>
      answers
        .get(LUMEN)
        ?.resolve({ products: [product('9', { title: 'Cedar Soap Bar' })], nextCursor: null }),
    )
    await act(async () =>
      answers.get(NORTHWIND)?.resolve({ products: NORTHWIND_PRODUCTS, nextCursor: null }),
    )

    expect(app.location().search).toBe(`?store=${LUMEN}`)
    expect(titles()).toEqual(['Cedar Soap Bar'])
  })

  it('syncs the store: progress while it runs, then the list and its date read again', async () => {
    const sync = deferred<SyncResult>()
    let synced = false
    let fetched = 0
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminUpdateProducts: () => sync.promise,
      adminProductSyncStatus: ({ storeShop }) =>
        synced
          ? status(storeShop, { syncedAt: '2025-06-01T08:00:00.000Z' })
          : app.callsTo('adminUpdateProducts').length === 0
            ? status(storeShop, { syncedAt: null })
            : status(storeShop, {
                state: 'RUNNING',
                fetched: (fetched += 600),
                total: 10_000,
                syncedAt: null,
              }),
      adminStoreProducts: () => ({
        products: synced ? [...NORTHWIND_PRODUCTS, product('4', { title: 'Wool Beanie' })] : [],
        nextCursor: null,
      }),
    })
    const user = userEvent.setup()

    expect(await screen.findByText('No products synced for this store yet.')).toBeInTheDocument()
    expect(screen.getByText('Never synced')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Sync products' }))

    expect(app.callsTo('adminUpdateProducts').map((call) => call.args)).toEqual([
      { storeShop: NORTHWIND },
    ])
    expect(screen.getByRole('button', { name: 'Sync products' })).toBeDisabled()
    expect(screen.getByText('Syncing...')).toBeInTheDocument()
    expect(
      await screen.findByText('Syncing... 600 / 10,000', undefined, { timeout: POLLS_WITHIN }),
    ).toBeInTheDocument()
    const bar = screen.getByRole('progressbar', { name: 'Syncing... 600 / 10,000' })
    expect(bar).toHaveAttribute('aria-valuenow', '6')
    expect(
      await screen.findByText('Syncing... 1,200 / 10,000', undefined, { timeout: POLLS_WITHIN }),
    ).toBeInTheDocument()
    expect(productQueries(app)).toHaveLength(1)

    synced = true
    await act(async () => sync.resolve({ storeShop: NORTHWIND, productCount: 4, syncedAt: '' }))

    expect(await screen.findByRole('table')).toBeInTheDocument()
    expect(titles()).toEqual([
      'Linen Overshirt',
      'Merino Crew Socks',
      'Old Raincoat',
      'Wool Beanie',
    ])
    expect(productQueries(app)).toEqual([
      { storeShop: NORTHWIND, limit: 50 },
      { storeShop: NORTHWIND, limit: 50 },
    ])
    expect(
      await screen.findByText(`Synced ${formatDateTime('2025-06-01T08:00:00.000Z')}`),
    ).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sync products' })).toBeEnabled()
    expect(screen.getByText('northwind apparel: 4 products')).toBeInTheDocument()
  })

  it('follows a sync found running when the page opens, then reads the list again', async () => {
    const statuses: ProductSyncStatus[] = [
      status(NORTHWIND, { state: 'RUNNING', fetched: 0, total: null, syncedAt: null }),
      status(NORTHWIND, { state: 'RUNNING', fetched: 250, total: 1000, syncedAt: null }),
      status(NORTHWIND, { syncedAt: SYNCED_AT }),
    ]
    let listed = 0
    const app = renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminProductSyncStatus: () => statuses.shift() ?? status(NORTHWIND),
      adminStoreProducts: () => ({
        products: ++listed === 1 ? [] : NORTHWIND_PRODUCTS,
        nextCursor: null,
      }),
    })

    expect(await screen.findByText('Syncing...')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Syncing...' })).not.toHaveAttribute(
      'aria-valuenow',
    )
    expect(screen.getByRole('button', { name: 'Sync products' })).toBeDisabled()
    expect(
      await screen.findByText('Syncing... 250 / 1,000', undefined, { timeout: POLLS_WITHIN }),
    ).toBeInTheDocument()

    expect(
      await screen.findByRole('table', undefined, { timeout: POLLS_WITHIN }),
    ).toBeInTheDocument()
    expect(titles()).toEqual(['Linen Overshirt', 'Merino Crew Socks', 'Old Raincoat'])
    expect(await screen.findByText(`Synced ${formatDateTime(SYNCED_AT)}`)).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    // Followed, not started again: no second sync, and no toast for a sync this window did not run.
    expect(app.callsTo('adminUpdateProducts')).toHaveLength(0)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('shows why the last sync failed', async () => {
    renderProducts(`/main/products?store=${NORTHWIND}`, {
      adminProductSyncStatus: ({ storeShop }) =>
        status(storeShop, { state: 'FAILED', message: 'Shopify answered 401 for this shop' }),
    })

    expect(await screen.findByText('Last sync failed')).toBeInTheDocument()
    expect(screen.getByText('Shopify answered 401 for this shop')).toBeInTheDocument()
    expect(screen.getByText(`Synced ${formatDateTime(SYNCED_AT)}`)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sync products' })).toBeEnabled()
  })
})
