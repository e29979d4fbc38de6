import { Link, type RouteObject } from 'react-router'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Store } from '@shared/contract'
import type { ChannelResult } from '@shared/ipc'
import { routes } from '@renderer/app/routes'
import { useStoresPage } from '@renderer/features/stores/stores-page-state'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { declaredStyle } from './support/styles'
import { cellTexts, dataRows, rowOf, layOutAsInAWindow } from './support/table'

// docs/product-rules.md "The console's screens" (/main/stores), issue 4 and its deliberate
// departures, as a person sees them.

const STORES: Store[] = [
  { shop: 'ironpeak-outdoor.myshopify.com', shopType: 'BRAND' },
  { shop: 'lumen-botanicals.myshopify.com', shopType: 'BRAND' },
  { shop: 'northwind-apparel.myshopify.com', shopType: 'BRAND' },
  { shop: 'maya-makes.myshopify.com', shopType: 'CREATOR' },
  { shop: 'urban-trail-edits.myshopify.com', shopType: 'CREATOR' },
]

type SyncResult = ChannelResult<'adminUpdateProducts'>
const synced = (storeShop: string, productCount: number): SyncResult => ({
  storeShop,
  productCount,
  syncedAt: '2025-01-01T00:00:00.000Z',
})

layOutAsInAWindow()

// The page's tab, selection and syncs outlive it by design; each test starts afresh.
beforeEach(() => {
  useStoresPage.setState({
    tab: 'BRAND',
    selectedShop: { BRAND: null, CREATOR: null },
    syncingShops: new Set(),
  })
})

/** Stands in for the store's own page, built elsewhere: its address and a way back. */
function StorePageStandIn() {
  return (
    <>
      <h1>A store page</h1>
      <Link to="/main/stores">Back to stores</Link>
    </>
  )
}

/** The console's routes with the stand-in at /main/stores/{store}. */
const routesWithStorePage: RouteObject[] = routes.map((route) =>
  route.path === '/main' && !route.index
    ? {
        ...route,
        children: [
          { path: 'stores/:store', element: <StorePageStandIn /> },
          ...(route.children ?? []),
        ],
      }
    : route,
)

function renderStores(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminAllStores: () => STORES,
    ...answers,
  })
  const { router, location } = renderApp(fake.bridge, '/main/stores', routesWithStorePage)
  return { ...fake, router, location }
}

const selector = () => screen.getByPlaceholderText('Select store...')

describe('Stores list', () => {
  it('shows "Loading..." until the stores arrive', async () => {
    const list = deferred<Store[]>()
    renderStores({ adminAllStores: () => list.promise })

    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()

    await act(async () => list.resolve(STORES))
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument()
    expect(dataRows()).toHaveLength(3)
  })

  it('opens on the Brands tab with name, URL and badge of each brand', async () => {
    renderStores()

    expect(await screen.findByRole('heading', { name: 'Stores' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Brands' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: 'Creators' })).toHaveAttribute('aria-selected', 'false')
    await screen.findByRole('table')
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'URL', 'Type', 'Sync products', 'Open'])
    expect(dataRows().map(cellTexts)).toEqual([
      ['ironpeak outdoor', 'https://ironpeak-outdoor.myshopify.com', 'Brand', 'Sync', ''],
      ['lumen botanicals', 'https://lumen-botanicals.myshopify.com', 'Brand', 'Sync', ''],
      ['northwind apparel', 'https://northwind-apparel.myshopify.com', 'Brand', 'Sync', ''],
    ])
    expect(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' })).toBeEnabled()
    expect(
      within(rowOf('lumen botanicals')).getByRole('link', { name: 'Open lumen botanicals' }),
    ).toHaveAttribute('href', '/main/stores/lumen-botanicals.myshopify.com?type=BRAND')
  })

  it('lists the creators on the Creators tab', async () => {
    renderStores()
    await screen.findByRole('table')

    await userEvent.click(screen.getByRole('tab', { name: 'Creators' }))

    expect(screen.getByRole('tab', { name: 'Creators' })).toHaveAttribute('aria-selected', 'true')
    expect(dataRows().map(cellTexts)).toEqual([
      ['maya makes', 'https://maya-makes.myshopify.com', 'Creator', 'Sync', ''],
      ['urban trail edits', 'https://urban-trail-edits.myshopify.com', 'Creator', 'Sync', ''],
    ])
  })

  it('says so when a tab has no stores', async () => {
    renderStores({ adminAllStores: () => STORES.filter((store) => store.shopType === 'BRAND') })
    await screen.findByRole('table')

    await userEvent.click(screen.getByRole('tab', { name: 'Creators' }))

    expect(screen.getByText('No creator stores yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('says so when there are no brand stores', async () => {
    renderStores({ adminAllStores: () => [] })

    expect(await screen.findByText('No brand stores yet.')).toBeInTheDocument()
  })

  it('narrows the table to the store chosen in the selector, and back when cleared', async () => {
    renderStores()
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.type(selector(), 'lumen')
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'lumen botanicals',
    ])
    await user.click(screen.getByRole('option', { name: 'lumen botanicals' }))

    expect(selector()).toHaveValue('lumen botanicals')
    expect(dataRows().map((row) => cellTexts(row)[0])).toEqual(['lumen botanicals'])

    await user.click(screen.getByRole('button', { name: 'Clear store' }))

    expect(selector()).toHaveValue('')
    expect(dataRows()).toHaveLength(3)
  })

  it("offers only the current tab's stores, found by name or host", async () => {
    renderStores()
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(selector())
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'ironpeak outdoor',
      'lumen botanicals',
      'northwind apparel',
    ])
    await user.type(selector(), 'northwind-app')
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'northwind apparel',
    ])
  })

  it('shows "Not found..." when no store matches', async () => {
    renderStores()
    await screen.findByRole('table')

    await userEvent.type(selector(), 'maya')

    expect(screen.getByText('Not found...')).toBeInTheDocument()
    expect(screen.queryAllByRole('option')).toHaveLength(0)
  })

  it('opens a store from a click on its row, from Enter, and from its Open link', async () => {
    const app = renderStores()
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(screen.getByText('https://lumen-botanicals.myshopify.com'))
    expect(await screen.findByRole('heading', { name: 'A store page' })).toBeInTheDocument()
    expect(app.location().pathname).toBe('/main/stores/lumen-botanicals.myshopify.com')
    expect(app.location().search).toBe('?type=BRAND')

    await user.click(screen.getByRole('link', { name: 'Back to stores' }))
    await user.click(await screen.findByRole('tab', { name: 'Creators' }))
    rowOf('maya makes').focus()
    await user.keyboard('{Enter}')
    expect(app.location().pathname).toBe('/main/stores/maya-makes.myshopify.com')
    expect(app.location().search).toBe('?type=CREATOR')

    await user.click(await screen.findByRole('link', { name: 'Back to stores' }))
    await user.click(await screen.findByRole('link', { name: 'Open urban trail edits' }))
    expect(app.location().pathname).toBe('/main/stores/urban-trail-edits.myshopify.com')
    expect(app.location().search).toBe('?type=CREATOR')
  })

  it('syncs one store: "Syncing..." and disabled on that row only, then the toast', async () => {
    const lumen = deferred<SyncResult>()
    const app = renderStores({ adminUpdateProducts: () => lumen.promise })
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' }))

    expect(app.location().pathname).toBe('/main/stores')
    expect(app.callsTo('adminUpdateProducts').map((call) => call.args)).toEqual([
      { storeShop: 'lumen-botanicals.myshopify.com' },
    ])
    expect(
      within(rowOf('lumen botanicals')).getByRole('button', { name: 'Syncing...' }),
    ).toBeDisabled()
    for (const other of ['ironpeak outdoor', 'northwind apparel']) {
      expect(within(rowOf(other)).getByRole('button', { name: 'Sync' })).toBeEnabled()
    }

    await act(async () => lumen.resolve(synced('lumen-botanicals.myshopify.com', 2)))

    expect(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' })).toBeEnabled()
    const toast = screen.getByRole('alert')
    expect(within(toast).getByText('Products synced')).toBeInTheDocument()
    expect(within(toast).getByText('lumen botanicals: 2 products')).toBeInTheDocument()
  })

  it('shows the running sync’s progress in its row, as the server reports it', async () => {
    const sync = deferred<SyncResult>()
    let fetched = 0
    renderStores({
      adminUpdateProducts: () => sync.promise,
      adminProductSyncStatus: ({ storeShop }) => ({
        storeShop,
        state: 'RUNNING',
        fetched: (fetched += 600),
        total: 10_000,
        syncedAt: null,
        message: null,
      }),
    })
    await screen.findByRole('table')
    await userEvent.click(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' }))

    expect(
      await within(rowOf('lumen botanicals')).findByRole(
        'button',
        { name: 'Syncing... 600 / 10,000' },
        { timeout: 2000 },
      ),
    ).toBeDisabled()
    expect(
      await within(rowOf('lumen botanicals')).findByRole(
        'button',
        { name: 'Syncing... 1,200 / 10,000' },
        { timeout: 2000 },
      ),
    ).toBeDisabled()

    await act(async () => sync.resolve(synced('lumen-botanicals.myshopify.com', 10_000)))
    expect(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' })).toBeEnabled()
    expect(screen.getByText('lumen botanicals: 10000 products')).toBeInTheDocument()
  })

  it('runs several syncs at once, each ending on its own', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<SyncResult>>>()
    renderStores({
      adminUpdateProducts: ({ storeShop }) => {
        const answer = deferred<SyncResult>()
        pending.set(storeShop, answer)
        return answer.promise
      },
    })
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' }))
    await user.click(within(rowOf('northwind apparel')).getByRole('button', { name: 'Sync' }))
    expect(
      within(rowOf('lumen botanicals')).getByRole('button', { name: 'Syncing...' }),
    ).toBeDisabled()
    expect(
      within(rowOf('northwind apparel')).getByRole('button', { name: 'Syncing...' }),
    ).toBeDisabled()

    await act(async () =>
      pending
        .get('northwind-apparel.myshopify.com')
        ?.resolve(synced('northwind-apparel.myshopify.com', 1)),
    )

    expect(within(rowOf('northwind apparel')).getByRole('button', { name: 'Sync' })).toBeEnabled()
    expect(
      within(rowOf('lumen botanicals')).getByRole('button', { name: 'Syncing...' }),
    ).toBeDisabled()
    expect(screen.getByText('northwind apparel: 1 product')).toBeInTheDocument()
  })

  it('shows the destructive toast "Failed to sync products: {message}" when a sync fails', async () => {
    const reason = 'Store not found: lumen-botanicals.myshopify.com'
    renderStores({
      adminUpdateProducts: () => {
        throw serverRefusal('sync products', reason)
      },
    })
    await screen.findByRole('table')

    await userEvent.click(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' }))

    const toast = await screen.findByRole('alert')
    expect(within(toast).getByText('Failed to sync products')).toBeInTheDocument()
    expect(within(toast).getByText(`Failed to sync products: ${reason}`)).toBeInTheDocument()
    expect(declaredStyle(toast, '--notification-color')).toBe('var(--mantine-color-red-filled)')
    expect(within(rowOf('lumen botanicals')).getByRole('button', { name: 'Sync' })).toBeEnabled()
  })

  it('shows why the list failed to load and reads it again on Retry', async () => {
    let attempts = 0
    const fake = renderStores({
      adminAllStores: () => {
        attempts += 1
        if (attempts === 1) {
          throw serverRefusal('fetch stores', 'the server did not answer')
        }
        return STORES
      },
    })

    expect(
      await screen.findByText('Failed to fetch stores: the server did not answer'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByText('No brand stores yet.')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))

    await screen.findByRole('table')
    expect(dataRows()).toHaveLength(3)
    expect(fake.callsTo('adminAllStores')).toHaveLength(2)
    expect(screen.queryByText(/Failed to fetch stores/)).not.toBeInTheDocument()
  })

  it('keeps the tab and the chosen store after a visit to a store page', async () => {
    renderStores()
    await screen.findByRole('table')
    const user = userEvent.setup()
    await user.click(screen.getByRole('tab', { name: 'Creators' }))
    await user.type(selector(), 'urban')
    await user.click(screen.getByRole('option', { name: 'urban trail edits' }))

    await user.click(rowOf('urban trail edits'))
    await user.click(await screen.findByRole('link', { name: 'Back to stores' }))

    await screen.findByRole('table')
    expect(screen.getByRole('tab', { name: 'Creators' })).toHaveAttribute('aria-selected', 'true')
    expect(selector()).toHaveValue('urban trail edits')
    expect(dataRows().map((row) => cellTexts(row)[0])).toEqual(['urban trail edits'])
  })

  it('still shows a sync that runs while the person visits a store page, and its toast', async () => {
    const northwind = deferred<SyncResult>()
    renderStores({ adminUpdateProducts: () => northwind.promise })
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(within(rowOf('northwind apparel')).getByRole('button', { name: 'Sync' }))
    await user.click(rowOf('ironpeak outdoor'))
    await screen.findByRole('heading', { name: 'A store page' })
    await act(async () => northwind.resolve(synced('northwind-apparel.myshopify.com', 2)))
    expect(screen.getByText('northwind apparel: 2 products')).toBeInTheDocument()

    await user.click(screen.getByRole('link', { name: 'Back to stores' }))
    await screen.findByRole('table')
    expect(within(rowOf('northwind apparel')).getByRole('button', { name: 'Sync' })).toBeEnabled()
  })
})

describe('Stores list at scale', () => {
  const MANY: Store[] = Array.from({ length: 10_000 }, (_, n) => ({
    shop: `store-${String(n).padStart(5, '0')}.myshopify.com`,
    shopType: n % 2 === 0 ? 'BRAND' : 'CREATOR',
  }))

  it('renders only the rows in view, and the table still counts them all', async () => {
    renderStores({ adminAllStores: () => MANY })
    const table = await screen.findByRole('table')

    expect(table).toHaveAttribute('aria-rowcount', '5001')
    const rows = dataRows()
    expect(rows.length).toBeGreaterThan(10)
    expect(rows.length).toBeLessThan(60)
    expect(cellTexts(rows[0]!)[0]).toBe('store 00000')
    expect(rows[0]).toHaveAttribute('aria-rowindex', '2')
  })

  it('offers at most 50 stores in the selector, and narrows from all of them', async () => {
    renderStores({ adminAllStores: () => MANY })
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(selector())
    expect(screen.getAllByRole('option')).toHaveLength(50)

    await user.type(selector(), '09998')
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'store 09998',
    ])
    await user.click(screen.getByRole('option', { name: 'store 09998' }))
    expect(dataRows().map((row) => cellTexts(row)[0])).toEqual(['store 09998'])
  })
})
