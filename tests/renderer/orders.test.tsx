import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CreatorOrderSummary, OrderTransferRecord } from '@shared/contract'
import type { ChannelArgs, ChannelResult, SavedFile } from '@shared/ipc'
import { useOrdersPage } from '@renderer/features/orders/orders-page-state'
import { formatDateTime } from '@renderer/lib/format'
import {
  LUMEN,
  NORTHWIND,
  ORDER_1001_SETTLED,
  ORDER_1001_TOTALS,
  ORDER_1001_TRAIL,
  order1001Brands,
  order1001CreatorOrder,
} from '../support/sandbox-figures'
import { MAYA, URBAN, creatorOrder as order } from './support/creator-orders'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { ordersPageAnswers } from './support/fakes/orders-page'
import { renderApp } from './support/render-app'
import { declaredStyle } from './support/styles'
import { expectToast } from './support/toasts'
import { layOutAsInAWindow } from './support/table'

// docs/product-rules.md "The console's screens": /main/orders and its Transfer history tab, as a
// person sees them.

type OrdersPage = ChannelResult<'adminCreatorOrders'>
type OrdersQuery = ChannelArgs<'adminCreatorOrders'>
type TransfersPage = ChannelResult<'adminOrderTransfers'>

/** The sandbox's orders, newest first, as the inbox lists them after 1001 was processed. */
const ORDERS: CreatorOrderSummary[] = [
  order('1005', { createdAt: '2026-11-04T10:30:00.000Z', currency: 'EUR', totalAmount: '70.00' }),
  order('1004', {
    creatorStoreShop: URBAN,
    createdAt: '2026-11-03T12:00:00.000Z',
    totalAmount: '53.75',
    transferStatus: 'PARTIAL',
  }),
  order('1001', {
    totalAmount: '197.54',
    transferStatus: 'COMPLETED',
    processedAt: '2026-11-03T09:00:00.000Z',
  }),
]

/** What the server answers: the orders the query matches, all in one page. */
function matching(query: OrdersQuery): OrdersPage {
  const q = query.q?.toLowerCase()
  return {
    orders: ORDERS.filter(
      (candidate) =>
        (!query.status || candidate.transferStatus === query.status) &&
        (!query.creatorShop || candidate.creatorStoreShop === query.creatorShop) &&
        (!q || candidate.name.includes(q) || candidate.id === q),
    ),
    nextCursor: null,
  }
}

/** `count` orders from #`from` down, as one page of the server's. */
const manyOrders = (from: number, count: number) =>
  Array.from({ length: count }, (_, n) => order(String(from - n)))

const TRANSFERS: OrderTransferRecord[] = [
  {
    creatorOrderId: '1004',
    // Orders whose header Tandem never read: the history shows their ids.
    creatorOrderName: null,
    creatorStoreShop: URBAN,
    currency: 'USD',
    status: 'PARTIAL',
    startedAt: '2026-11-03T12:30:00.000Z',
    processedBy: 'ops@tandem.test',
    processedAt: null,
    brands: [
      {
        brandStoreShop: LUMEN,
        brandOrderId: 'gid://shopify/Order/5003',
        tandemCommissionRate: 8,
        creatorCommissionRate: 12,
        baseAmount: '27.75',
        brandAmount: '22.20',
        creatorCommissionAmount: '3.33',
        tandemCommissionAmount: '2.22',
        settlement: {
          currency: 'USD',
          exchangeRate: '1',
          brandAmount: '22.20',
          creatorCommissionAmount: '3.33',
          tandemCommissionAmount: '2.22',
        },
        paymentTransferId: 'tr_sandbox_1004_lumen',
        failedMessage: null,
      },
      {
        brandStoreShop: NORTHWIND,
        brandOrderId: null,
        tandemCommissionRate: 10,
        creatorCommissionRate: 15,
        baseAmount: '18.00',
        brandAmount: '13.50',
        creatorCommissionAmount: '2.70',
        tandemCommissionAmount: '1.80',
        settlement: {
          currency: 'USD',
          exchangeRate: '1',
          brandAmount: '13.50',
          creatorCommissionAmount: '2.70',
          tandemCommissionAmount: '1.80',
        },
        paymentTransferId: null,
        failedMessage: 'Transfer create failed',
      },
    ],
    moneyTrail: [],
  },
  {
    creatorOrderId: '1001',
    creatorOrderName: null,
    creatorStoreShop: MAYA,
    currency: 'USD',
    status: 'COMPLETED',
    startedAt: '2026-11-03T08:59:00.000Z',
    processedBy: 'admin@tandem.test',
    processedAt: '2026-11-03T09:00:00.000Z',
    brands: [
      {
        brandStoreShop: NORTHWIND,
        brandOrderId: 'gid://shopify/Order/5001',
        tandemCommissionRate: 10,
        creatorCommissionRate: 15,
        baseAmount: '136.00',
        brandAmount: '102.00',
        creatorCommissionAmount: '20.40',
        tandemCommissionAmount: '13.60',
        settlement: {
          currency: 'USD',
          exchangeRate: '1',
          brandAmount: '102.00',
          creatorCommissionAmount: '20.40',
          tandemCommissionAmount: '13.60',
        },
        paymentTransferId: 'tr_sandbox_1001_northwind',
        failedMessage: null,
      },
      {
        brandStoreShop: LUMEN,
        brandOrderId: 'gid://shopify/Order/5002',
        // Frozen at processing: the unique rate of lumen × maya.
        tandemCommissionRate: 8,
        creatorCommissionRate: 20,
        baseAmount: '34.50',
        brandAmount: '24.84',
        creatorCommissionAmount: '6.90',
        tandemCommissionAmount: '2.76',
        settlement: {
          currency: 'USD',
          exchangeRate: '1',
          brandAmount: '24.84',
          creatorCommissionAmount: '6.90',
          tandemCommissionAmount: '2.76',
        },
        paymentTransferId: 'tr_sandbox_1001_lumen',
        failedMessage: null,
      },
    ],
    moneyTrail: ORDER_1001_TRAIL.slice(0, 3),
  },
]

const transfer = (creatorOrderId: string): OrderTransferRecord => ({
  ...TRANSFERS[1]!,
  creatorOrderId,
})

// Each search waits out the debounce and the tables hold thousands of rows: on a busy machine a
// test can take longer than the default five seconds.
vi.setConfig({ testTimeout: 15_000 })

/** An order's rows (its own and its readiness), or a transfer's, as measured here. */
const ORDER_HEIGHT = 160

layOutAsInAWindow(ORDER_HEIGHT)

// The page's tab and filters outlive it by design; each test starts afresh.
beforeEach(() => {
  useOrdersPage.setState({ tab: 'orders', status: null, creatorShop: null, search: '' })
})

function renderOrders(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    ...ordersPageAnswers(),
    adminCreatorOrders: matching,
    adminOrderTransfers: () => ({ transfers: TRANSFERS, nextCursor: null }),
    ...answers,
  })
  const { router, location } = renderApp(fake.bridge, '/main/orders')
  return { ...fake, router, location, user: userEvent.setup() }
}

const ordersTable = () => screen.getByRole('table', { name: 'Creator orders' })
const historyTable = () => screen.getByRole('table', { name: 'Transfer history' })
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent)
/** A table's rows that hold cells: the header and the virtualizer's spacers left out. */
const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
/** Each order's own row, its readiness beneath it (one cell across the columns) left out. */
const orderRows = () =>
  bodyRows(ordersTable())
    .map(cellsOf)
    .filter((cells) => cells.length > 1)
/** The first cell of each order shown: its name. */
const orderNames = () => orderRows().map((cells) => cells[0])
const ordersQueries = (calls: { args: unknown }[]) => calls.map((call) => call.args)

/** The scroller around a table: where the person scrolls. */
const scrollTo = (table: HTMLElement, top: number) => {
  const scroller = table.parentElement!
  Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: top })
  fireEvent.scroll(scroller)
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }))
  await user.click(await screen.findByRole('option', { name: option }))
}

describe('Orders', () => {
  it('lists the orders with their store, date, total and transfer status', async () => {
    const { callsTo } = renderOrders()

    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Orders' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: 'Transfer history' })).toBeInTheDocument()
    await screen.findByRole('table', { name: 'Creator orders' })
    expect(
      within(ordersTable())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Order', 'Creator store', 'Created', 'Total', 'Transfer', 'Processed', 'Transfer'])
    expect(orderRows()).toEqual([
      [
        '#1005',
        'maya makes',
        formatDateTime('2026-11-04T10:30:00.000Z'),
        '€70.00',
        'Not started',
        '—',
        'Preview transfer',
      ],
      [
        '#1004',
        'urban trail edits',
        formatDateTime('2026-11-03T12:00:00.000Z'),
        '$53.75',
        'Partial',
        '—',
        'Preview transfer',
      ],
      [
        '#1001',
        'maya makes',
        formatDateTime('2026-11-02T15:04:00.000Z'),
        '$197.54',
        'Completed',
        formatDateTime('2026-11-03T09:00:00.000Z'),
        // A processed order's transfer is only looked at.
        'View transfer',
      ],
    ])
    // Gray, orange and green badges.
    const badge = (text: string) =>
      within(ordersTable()).getByText(text).closest('.mantine-Badge-root')
    expect(declaredStyle(badge('Not started'), '--badge-bg')).toBe(
      'var(--mantine-color-gray-light)',
    )
    expect(declaredStyle(badge('Partial'), '--badge-bg')).toBe('var(--mantine-color-orange-light)')
    expect(declaredStyle(badge('Completed'), '--badge-bg')).toBe('var(--mantine-color-green-light)')
    expect(screen.getByRole('button', { name: 'Preview transfer #1004' })).toBeEnabled()
    expect(screen.getByText('3 orders shown')).toBeInTheDocument()
    // Everything is loaded: no "Load more".
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([{ limit: 50 }])
  })

  it('shows "Loading..." until the first page arrives', async () => {
    const page = deferred<OrdersPage>()
    renderOrders({ adminCreatorOrders: () => page.promise })

    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    await act(async () => page.resolve({ orders: ORDERS, nextCursor: null }))
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument()
    expect(orderNames()).toEqual(['#1005', '#1004', '#1001'])
  })

  it('narrows by transfer status and by creator store, each a fresh list', async () => {
    const { user, callsTo } = renderOrders()
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('combobox', { name: 'Transfer status' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All statuses',
      'Not started',
      'Partial',
      'Completed',
    ])
    await user.click(screen.getByRole('option', { name: 'Completed' }))
    await waitFor(() => expect(orderNames()).toEqual(['#1001']))
    expect(screen.getByRole('combobox', { name: 'Transfer status' })).toHaveValue('Completed')

    await choose(user, 'Transfer status', 'All statuses')
    await waitFor(() => expect(orderNames()).toEqual(['#1005', '#1004', '#1001']))

    // Creators only in the store filter.
    await user.click(screen.getByRole('combobox', { name: 'Creator store' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All creator stores',
      'maya makes',
      'urban trail edits',
    ])
    await user.click(screen.getByRole('option', { name: 'urban trail edits' }))
    await waitFor(() => expect(orderNames()).toEqual(['#1004']))

    await choose(user, 'Transfer status', 'Completed')
    expect(await screen.findByText('No orders match.')).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Creator orders' })).not.toBeInTheDocument()

    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([
      { limit: 50 },
      { status: 'COMPLETED', limit: 50 },
      { limit: 50 },
      { creatorShop: URBAN, limit: 50 },
      { status: 'COMPLETED', creatorShop: URBAN, limit: 50 },
    ])
  })

  it('searches by order name or id once typing pauses, and starts a fresh list', async () => {
    const { callsTo } = renderOrders()
    // Keys without a pause between them, however busy the machine running the test.
    const user = userEvent.setup({ delay: null })
    await screen.findByRole('table', { name: 'Creator orders' })
    const search = screen.getByRole('searchbox', { name: 'Search' })
    expect(search).toHaveAttribute('placeholder', 'Search by order name or ID')

    await user.type(search, ' 1004 ')
    // Nothing yet: the list waits for the typing to pause.
    expect(callsTo('adminCreatorOrders')).toHaveLength(1)
    await waitFor(() => expect(orderNames()).toEqual(['#1004']))
    // One request for the whole word, trimmed, not one per key.
    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([
      { limit: 50 },
      { q: '1004', limit: 50 },
    ])

    await user.clear(search)
    await user.type(search, '#1001')
    await waitFor(() => expect(orderNames()).toEqual(['#1001']))
    await user.clear(search)
    await waitFor(() => expect(orderNames()).toEqual(['#1005', '#1004', '#1001']))
    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([
      { limit: 50 },
      { q: '1004', limit: 50 },
      { q: '#1001', limit: 50 },
      { limit: 50 },
    ])
  })

  it('reads the next page with "Load more", once however often it is pressed', async () => {
    const second = deferred<OrdersPage>()
    const { user, callsTo } = renderOrders({
      adminCreatorOrders: ({ cursor }) =>
        cursor === 'page-2'
          ? second.promise
          : { orders: manyOrders(2000, 50), nextCursor: 'page-2' },
    })
    await screen.findByRole('table', { name: 'Creator orders' })
    // More on the server: how many is unknown.
    expect(ordersTable()).toHaveAttribute('aria-rowcount', '-1')
    expect(screen.getByText('50 orders shown')).toBeInTheDocument()

    const loadMore = screen.getByRole('button', { name: 'Load more' })
    await user.click(loadMore)
    await user.click(loadMore)
    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
    ])

    await act(async () => second.resolve({ orders: manyOrders(1950, 50), nextCursor: null }))
    expect(screen.getByText('100 orders shown')).toBeInTheDocument()
    // The header, then each order's row and its readiness's.
    expect(ordersTable()).toHaveAttribute('aria-rowcount', '201')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    scrollTo(ordersTable(), 100 * ORDER_HEIGHT)
    await waitFor(() => expect(orderNames()).toContain('#1901'))
    expect(callsTo('adminCreatorOrders')).toHaveLength(2)
  })

  it('reads the next page when the person scrolls near the end, never two at once', async () => {
    const pages = [deferred<OrdersPage>(), deferred<OrdersPage>()]
    const { callsTo } = renderOrders({
      adminCreatorOrders: ({ cursor }) =>
        cursor === undefined
          ? { orders: manyOrders(3000, 50), nextCursor: 'page-2' }
          : pages[cursor === 'page-2' ? 0 : 1]!.promise,
    })
    await screen.findByRole('table', { name: 'Creator orders' })
    // The first rows fill the window: nothing more is read yet.
    expect(orderNames()[0]).toBe('#3000')
    expect(callsTo('adminCreatorOrders')).toHaveLength(1)

    scrollTo(ordersTable(), 23 * ORDER_HEIGHT)
    scrollTo(ordersTable(), 35 * ORDER_HEIGHT)
    await waitFor(() => expect(callsTo('adminCreatorOrders')).toHaveLength(2))
    scrollTo(ordersTable(), 38 * ORDER_HEIGHT)
    expect(ordersQueries(callsTo('adminCreatorOrders'))).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
    ])

    await act(async () => pages[0]!.resolve({ orders: manyOrders(2950, 50), nextCursor: 'page-3' }))
    expect(screen.getByText('100 orders shown')).toBeInTheDocument()
    // Near the end of the new rows: the third page.
    scrollTo(ordersTable(), 100 * ORDER_HEIGHT)
    await waitFor(() => expect(callsTo('adminCreatorOrders')).toHaveLength(3))
    expect(callsTo('adminCreatorOrders')[2]?.args).toEqual({ cursor: 'page-3', limit: 50 })
    await waitFor(() => expect(orderNames()).toContain('#2901'))
  })

  it('says why a next page failed, and reads it again only on Retry', async () => {
    let attempts = 0
    const { user, callsTo } = renderOrders({
      adminCreatorOrders: ({ cursor }) => {
        if (!cursor) return { orders: manyOrders(2000, 50), nextCursor: 'page-2' }
        attempts += 1
        if (attempts === 1)
          throw serverRefusal('fetch orders', 'The server did not answer in time.')
        return { orders: manyOrders(1950, 50), nextCursor: null }
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    expect(
      await screen.findByText('Failed to fetch orders: The server did not answer in time.'),
    ).toBeInTheDocument()
    // The rows already read stay; scrolling to the end does not try again on its own.
    expect(screen.getByText('50 orders shown')).toBeInTheDocument()
    scrollTo(ordersTable(), 50 * ORDER_HEIGHT)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(callsTo('adminCreatorOrders')).toHaveLength(2)

    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByText('100 orders shown')).toBeInTheDocument()
    expect(screen.queryByText(/Failed to fetch orders/)).not.toBeInTheDocument()
  })

  it('ignores an answer for a filter that is no longer chosen', async () => {
    const completed = deferred<OrdersPage>()
    const partial = deferred<OrdersPage>()
    const { user } = renderOrders({
      adminCreatorOrders: (query) =>
        query.status === 'COMPLETED'
          ? completed.promise
          : query.status === 'PARTIAL'
            ? partial.promise
            : matching(query),
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    await choose(user, 'Transfer status', 'Completed')
    await choose(user, 'Transfer status', 'Partial')
    expect(screen.getByText('Loading...')).toBeInTheDocument()

    await act(async () => partial.resolve(matching({ status: 'PARTIAL' })))
    expect(orderNames()).toEqual(['#1004'])
    // The Completed answer lands last: it belongs to a filter left behind.
    await act(async () => completed.resolve(matching({ status: 'COMPLETED' })))
    expect(orderNames()).toEqual(['#1004'])
    expect(screen.getByText('1 order shown')).toBeInTheDocument()
  })

  it('ignores a next page of the list before a filter changed', async () => {
    const oldSecondPage = deferred<OrdersPage>()
    const { user, callsTo } = renderOrders({
      adminCreatorOrders: (query) =>
        query.cursor
          ? oldSecondPage.promise
          : query.status
            ? matching(query)
            : { orders: manyOrders(2000, 50), nextCursor: 'page-2' },
    })
    await screen.findByRole('table', { name: 'Creator orders' })
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    await choose(user, 'Transfer status', 'Partial')
    await waitFor(() => expect(orderNames()).toEqual(['#1004']))
    await act(async () => oldSecondPage.resolve({ orders: manyOrders(1950, 50), nextCursor: null }))
    expect(orderNames()).toEqual(['#1004'])
    expect(callsTo('adminCreatorOrders')).toHaveLength(3)
  })

  it('shows why the orders failed to load and reads them again on Retry', async () => {
    let attempts = 0
    const { user, callsTo } = renderOrders({
      adminCreatorOrders: (query) => {
        attempts += 1
        if (attempts === 1) throw serverRefusal('fetch orders', 'the server did not answer')
        return matching(query)
      },
    })

    expect(
      await screen.findByText('Failed to fetch orders: the server did not answer'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Creator orders' })).not.toBeInTheDocument()
    expect(screen.queryByText('No orders match.')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByRole('table', { name: 'Creator orders' })
    expect(orderNames()).toEqual(['#1005', '#1004', '#1001'])
    expect(callsTo('adminCreatorOrders')).toHaveLength(2)
  })

  it('still lists the orders when the creator stores cannot be read', async () => {
    renderOrders({
      adminAllStores: () => {
        throw serverRefusal('fetch stores', 'the server did not answer')
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })
    expect(
      await screen.findByText('Failed to fetch stores: the server did not answer'),
    ).toBeInTheDocument()
    expect(orderNames()).toEqual(['#1005', '#1004', '#1001'])
  })

  it('renders only the rows in view of 100,000 loaded orders', async () => {
    renderOrders({
      adminCreatorOrders: () => ({ orders: manyOrders(200_000, 100_000), nextCursor: null }),
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    expect(ordersTable()).toHaveAttribute('aria-rowcount', '200001')
    expect(orderRows().length).toBeGreaterThan(5)
    expect(orderRows().length).toBeLessThan(60)
    expect(bodyRows(ordersTable())[0]).toHaveAttribute('aria-rowindex', '2')
    expect(screen.getByText('100,000 orders shown')).toBeInTheDocument()

    scrollTo(ordersTable(), 99_990 * ORDER_HEIGHT)
    await waitFor(() => expect(orderNames()).toContain('#100001'))
    expect(orderRows().length).toBeLessThan(60)
  })
})

describe('Preview transfer', () => {
  const preview: ChannelResult<'adminPreviewOrderTransfer'> = {
    creatorOrder: order1001CreatorOrder('http://127.0.0.1:4000'),
    preview: {
      currency: 'USD',
      status: 'COMPLETED',
      processedAt: '2026-11-03T09:00:00.000Z',
      brands: order1001Brands(['gid://shopify/Order/5001', 'gid://shopify/Order/5002']),
      totals: ORDER_1001_TOTALS,
      settledTotals: ORDER_1001_SETTLED,
      moneyTrail: ORDER_1001_TRAIL,
      refundWaiting: null,
    },
  }

  it("opens the transfer page with the order's id, which previews it at once", async () => {
    const { user, location, callsTo } = renderOrders({ adminPreviewOrderTransfer: () => preview })
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'View transfer #1001' }))

    expect(await screen.findByRole('heading', { name: 'Create Order Transfer' })).toBeVisible()
    expect(location().pathname).toBe('/main/create-order-transfer')
    expect(location().search).toBe('?creatorOrderId=1001')
    expect(screen.getByLabelText('Creator order ID')).toHaveValue('1001')
    await screen.findByRole('region', { name: 'Creator Order' })
    await expectToast('Success', 'Preview fetched successfully')
    expect(callsTo('adminPreviewOrderTransfer')).toEqual([
      { channel: 'adminPreviewOrderTransfer', args: { creatorOrderId: '1001' } },
    ])
  })

  it('keeps the filters for the way back', async () => {
    const { user, router } = renderOrders({ adminPreviewOrderTransfer: () => preview })
    await screen.findByRole('table', { name: 'Creator orders' })
    await choose(user, 'Transfer status', 'Completed')
    await waitFor(() => expect(orderNames()).toEqual(['#1001']))

    await user.click(screen.getByRole('button', { name: 'View transfer #1001' }))
    await screen.findByRole('region', { name: 'Creator Order' })
    await act(() => router.navigate(-1))

    await screen.findByRole('table', { name: 'Creator orders' })
    expect(screen.getByRole('combobox', { name: 'Transfer status' })).toHaveValue('Completed')
    expect(orderNames()).toEqual(['#1001'])
  })
})

describe('Transfer history', () => {
  /** The summary row of a transfer: its order id in the first cell. */
  const summaryOf = (orderId: string) => {
    const row = bodyRows(historyTable()).find(
      (candidate) => within(candidate).getAllByRole('cell')[0]?.textContent === orderId,
    )
    if (!row) throw new Error(`No transfer of ${orderId}`)
    return row
  }
  const brandsOf = (orderId: string) =>
    bodyRows(screen.getByRole('table', { name: `Brands of order ${orderId}` })).map(cellsOf)

  async function openHistory(answers: FakeAnswers = {}) {
    const app = renderOrders(answers)
    await app.user.click(await screen.findByRole('tab', { name: 'Transfer history' }))
    return app
  }

  it('names each order as Orders does (#1001), and by its id where its name is not known', async () => {
    const named = { ...TRANSFERS[1]!, creatorOrderName: '#1001' }
    await openHistory({
      adminOrderTransfers: () => ({ transfers: [TRANSFERS[0]!, named], nextCursor: null }),
    })
    await screen.findByRole('table', { name: 'Transfer history' })
    expect(cellsOf(summaryOf('#1001')).slice(0, 2)).toEqual(['#1001', 'maya makes'])
    expect(cellsOf(summaryOf('1004')).slice(0, 2)).toEqual(['1004', 'urban trail edits'])
  })

  it('lists each transfer with who processed it when, and its frozen rates and amounts', async () => {
    const { callsTo } = await openHistory()
    await screen.findByRole('table', { name: 'Transfer history' })

    expect(callsTo('adminOrderTransfers').map((call) => call.args)).toEqual([{ limit: 50 }])
    expect(cellsOf(summaryOf('1001'))).toEqual([
      '1001',
      'maya makes',
      'Completed',
      'admin@tandem.test',
      formatDateTime('2026-11-03T09:00:00.000Z'),
    ])
    expect(cellsOf(summaryOf('1004'))).toEqual([
      '1004',
      'urban trail edits',
      'Partial',
      'ops@tandem.test',
      `Partial — started ${formatDateTime('2026-11-03T12:30:00.000Z')}`,
    ])
    expect(
      within(screen.getByRole('table', { name: 'Brands of order 1001' }))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Brand store',
      'Brand order',
      'Tandem rate',
      'Creator rate',
      'Base',
      'Brand amount',
      'Creator commission',
      'Tandem commission',
      'Stripe transfer',
    ])
    expect(brandsOf('1001')).toEqual([
      [
        'northwind apparel',
        '…/Order/5001',
        '10%',
        '15%',
        '$136.00',
        '$102.00',
        '$20.40',
        '$13.60',
        'tr_sandbox_1001_northwind',
      ],
      [
        'lumen botanicals',
        '…/Order/5002',
        '8%',
        '20%',
        '$34.50',
        '$24.84',
        '$6.90',
        '$2.76',
        'tr_sandbox_1001_lumen',
      ],
    ])
    // A brand not done yet: no brand order, no Stripe transfer, and why, in red.
    expect(brandsOf('1004')).toEqual([
      [
        'lumen botanicals',
        '…/Order/5003',
        '8%',
        '12%',
        '$27.75',
        '$22.20',
        '$3.33',
        '$2.22',
        'tr_sandbox_1004_lumen',
      ],
      ['northwind apparel', 'pending', '10%', '15%', '$18.00', '$13.50', '$2.70', '$1.80', '—'],
      ['Failed: Transfer create failed'],
    ])
    expect(declaredStyle(screen.getByText('Failed: Transfer create failed'), 'color')).toBe(
      'var(--mantine-color-red-text)',
    )
    expect(screen.getByText('2 transfers shown')).toBeInTheDocument()
  })

  it('shows, under each amount of an order charged in another currency, what the brand was paid in the settlement currency and at what rate', async () => {
    const euros: OrderTransferRecord = {
      ...TRANSFERS[1]!,
      creatorOrderId: '1005',
      currency: 'EUR',
      brands: [
        {
          ...TRANSFERS[1]!.brands[0]!,
          baseAmount: '62.00',
          brandAmount: '46.50',
          creatorCommissionAmount: '9.30',
          tandemCommissionAmount: '6.20',
          paymentTransferId: 'tr_sandbox_1005_northwind',
          settlement: {
            currency: 'USD',
            exchangeRate: '1.085',
            brandAmount: '50.45',
            creatorCommissionAmount: '10.09',
            tandemCommissionAmount: '6.73',
          },
        },
      ],
    }
    await openHistory({ adminOrderTransfers: () => ({ transfers: [euros], nextCursor: null }) })
    await screen.findByRole('table', { name: 'Brands of order 1005' })
    expect(brandsOf('1005')).toEqual([
      [
        'northwind apparel',
        '…/Order/5001',
        '10%',
        '15%',
        '€62.00',
        '€46.50$50.45',
        '€9.30$10.09',
        '€6.20$6.73',
        'tr_sandbox_1005_northwind1 EUR = 1.085 USD',
      ],
    ])
  })

  it('says under a transfer what refunds took back and what a party still owes, only when they did', async () => {
    const refunded = { ...TRANSFERS[1]!, moneyTrail: ORDER_1001_TRAIL }
    await openHistory({
      adminOrderTransfers: () => ({ transfers: [TRANSFERS[0]!, refunded], nextCursor: null }),
    })
    await screen.findByRole('table', { name: 'Transfer history' })

    const detailOf = (orderId: string) =>
      screen.getByRole('table', { name: `Brands of order ${orderId}` }).parentElement!
    expect(
      within(detailOf('1001')).getByText(
        'Taken back after refunds: $10.20 from maya makes. Owed after refunds: $51.00 by northwind apparel.',
      ),
    ).toBeInTheDocument()
    expect(within(detailOf('1004')).queryByText(/after refunds/)).not.toBeInTheDocument()
  })

  it('says so when there are no transfers yet', async () => {
    await openHistory({ adminOrderTransfers: () => ({ transfers: [], nextCursor: null }) })
    expect(await screen.findByText('No transfers yet.')).toBeInTheDocument()
  })

  it('reads the next page with "Load more", once', async () => {
    const second = deferred<TransfersPage>()
    const { user, callsTo } = await openHistory({
      adminOrderTransfers: ({ cursor }) =>
        cursor ? second.promise : { transfers: [transfer('2000')], nextCursor: 'page-2' },
    })
    await screen.findByRole('table', { name: 'Transfer history' })
    // One transfer leaves the window half empty: the next page is read without scrolling.
    await waitFor(() => expect(callsTo('adminOrderTransfers')).toHaveLength(2))
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(callsTo('adminOrderTransfers').map((call) => call.args)).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
    ])

    await act(async () => second.resolve({ transfers: [transfer('1999')], nextCursor: null }))
    expect(screen.getByText('2 transfers shown')).toBeInTheDocument()
    expect(cellsOf(summaryOf('1999'))[0]).toBe('1999')
  })

  it('reads the next page with "Load more" when the window is full', async () => {
    const { user, callsTo } = await openHistory({
      adminOrderTransfers: ({ cursor }) =>
        cursor
          ? { transfers: [transfer('1')], nextCursor: null }
          : {
              transfers: Array.from({ length: 50 }, (_, n) => transfer(String(2000 - n))),
              nextCursor: 'page-2',
            },
    })
    await screen.findByRole('table', { name: 'Transfer history' })
    expect(callsTo('adminOrderTransfers')).toHaveLength(1)

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('51 transfers shown')).toBeInTheDocument()
    expect(callsTo('adminOrderTransfers').map((call) => call.args)).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
    ])
  })

  it('shows why the history failed to load and reads it again on Retry', async () => {
    let attempts = 0
    const { user } = await openHistory({
      adminOrderTransfers: () => {
        attempts += 1
        if (attempts === 1) throw serverRefusal('fetch transfer history', 'the server is down')
        return { transfers: TRANSFERS, nextCursor: null }
      },
    })
    expect(
      await screen.findByText('Failed to fetch transfer history: the server is down'),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByRole('table', { name: 'Transfer history' })
    expect(cellsOf(summaryOf('1001'))[3]).toBe('admin@tandem.test')
  })

  it('shows ids short on one line, whole on hover, and copies them whole', async () => {
    const { user, callsTo } = await openHistory({ 'clipboard/writeText': () => undefined })
    await screen.findByRole('table', { name: 'Brands of order 1001' })
    const brandOrder = screen.getAllByText('…/Order/5001')[0]!
    expect(brandOrder).toHaveAttribute('title', 'gid://shopify/Order/5001')

    await user.click(screen.getAllByRole('button', { name: 'Copy gid://shopify/Order/5001' })[0]!)
    await expectToast('Copied', 'gid://shopify/Order/5001 has been copied to your clipboard.')
    expect(callsTo('clipboard/writeText')).toEqual([
      { channel: 'clipboard/writeText', args: { text: 'gid://shopify/Order/5001' } },
    ])
  })

  describe('Export CSV', () => {
    it('saves the CSV where the person chose, busy meanwhile, then says where', async () => {
      const saving = deferred<SavedFile>()
      const { user, callsTo } = await openHistory({ adminOrderTransfersCsv: () => saving.promise })
      await screen.findByRole('table', { name: 'Transfer history' })

      await user.click(screen.getByRole('button', { name: 'Export CSV' }))
      // After a look at whether there is any transfer to export.
      await waitFor(() =>
        expect(callsTo('adminOrderTransfersCsv')).toEqual([
          { channel: 'adminOrderTransfersCsv', args: undefined },
        ]),
      )
      expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveAttribute('data-loading')
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled()

      const path = '/home/admin/tandem-transfers-2026-11-03.csv'
      await act(async () => saving.resolve({ saved: true, path }))
      await expectToast('CSV exported', path)
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled()
    })

    it('says nothing when the person cancels the save dialog', async () => {
      const { user, callsTo } = await openHistory({
        adminOrderTransfersCsv: () => ({ saved: false, path: null }),
      })
      await screen.findByRole('table', { name: 'Transfer history' })

      await user.click(screen.getByRole('button', { name: 'Export CSV' }))
      await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled())
      expect(callsTo('adminOrderTransfersCsv')).toHaveLength(1)
      expect(screen.queryByText('CSV exported')).not.toBeInTheDocument()
      expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    })

    it('says there is nothing to export yet rather than save a file of headers only', async () => {
      const { user, callsTo } = await openHistory({
        adminOrderTransfers: () => ({ transfers: [], nextCursor: null }),
        adminOrderTransfersCsv: () => ({ saved: true, path: '/home/admin/empty.csv' }),
      })
      await screen.findByText('No transfers yet.')

      await user.click(screen.getByRole('button', { name: 'Export CSV' }))
      await expectToast(
        'Nothing to export yet',
        'No transfers yet: the CSV lists transfers once an order has been processed.',
      )
      expect(callsTo('adminOrderTransfersCsv')).toHaveLength(0)
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled()
    })

    it('says why the export failed', async () => {
      const { user } = await openHistory({
        adminOrderTransfersCsv: () => {
          throw serverRefusal('export CSV', 'The server did not answer in time.')
        },
      })
      await screen.findByRole('table', { name: 'Transfer history' })

      await user.click(screen.getByRole('button', { name: 'Export CSV' }))
      await expectToast('Failed to export CSV', 'The server did not answer in time.', 'error')
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled()
    })
  })
})
