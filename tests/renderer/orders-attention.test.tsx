import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { consolePaths, type CreatorOrderSummary, type OrderReadiness } from '@shared/contract'
import { ATTENTION_POLL_MS } from '@renderer/features/orders/attention-count'
import { useOrdersPage } from '@renderer/features/orders/orders-page-state'
import { formatDateTime } from '@renderer/lib/format'
import { MAYA, creatorOrder } from './support/creator-orders'
import { fakeBridge, serverRefusal, type FakeAnswers } from './support/fake-bridge'
import { ordersPageAnswers } from './support/fakes/orders-page'
import { renderApp } from './support/render-app'
import { cellTexts, dataRows, layOutAsInAWindow } from './support/table'
import { expectToast } from './support/toasts'

// Issue 32, as an administrator sees it: under each order of the inbox, what will happen to it and
// what stops it; the orders needing attention one filter away; their count beside Orders in the
// sidebar.

const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const IRONPEAK_REASON = {
  sentence:
    'Commission not found: ironpeak outdoor has no default commission: set it on its store page',
  remedy: {
    party: { role: 'ADMINISTRATOR', shop: null },
    fix: 'set it on its store page',
    link: { label: "ironpeak outdoor's store page", to: consolePaths.store(IRONPEAK, 'BRAND') },
  },
} as const
// The order has no Stripe payment: only its creator can mend it.
const NO_PAYMENT_REASON = {
  sentence:
    "Payment intent id not found: creator order #1002 of maya makes has no Stripe payment on record, so Tandem has nothing to pay its brands and creator from: maya makes, the creator, has the customer pay through Tandem's checkout, or refunds or cancels the order in its Shopify admin",
  remedy: {
    party: { role: 'CREATOR', shop: MAYA },
    fix: "have the customer pay through Tandem's checkout, or refund or cancel the order in the creator's Shopify admin",
    link: { label: "maya makes's store page", to: consolePaths.store(MAYA, 'CREATOR') },
  },
} as const
const IRONPEAK_TEXT = `${IRONPEAK_REASON.sentence} (fixed by an administrator: ironpeak outdoor's store page)`
const NO_PAYMENT_TEXT = `${NO_PAYMENT_REASON.sentence} (fixed by maya makes, the creator: maya makes's store page)`

const order = (id: string, readiness: OrderReadiness) =>
  creatorOrder(id, {
    transferStatus: readiness.state === 'COMPLETED' ? 'COMPLETED' : 'NOT_STARTED',
    readiness,
  })

const NEEDS_ATTENTION = order('1002', {
  state: 'NEEDS_ATTENTION',
  reasons: [IRONPEAK_REASON, NO_PAYMENT_REASON],
})

const ORDERS: CreatorOrderSummary[] = [
  order('1008', { state: 'MANUAL' }),
  order('1007', { state: 'WAITING', until: '2026-11-06T14:32:00.000Z' }),
  order('1006', {
    state: 'RETRYING',
    until: '2026-11-06T14:40:00.000Z',
    message: 'Transfer create failed',
  }),
  NEEDS_ATTENTION,
  order('1003', { state: 'NOTHING_TO_TRANSFER', message: 'No brand orders found' }),
  order('1005', { state: 'PROCESSING' }),
  order('1001', { state: 'COMPLETED' }),
  order('1004', {
    state: 'PARTIAL',
    failedStep: 'createTransfer for northwind-apparel.myshopify.com: Transfer create failed',
  }),
  order('1009', {
    state: 'HELD',
    reason: 'The customer asked to change the size',
    by: 'ops@tandem.test',
    since: '2026-11-06T15:00:00.000Z',
  }),
]

layOutAsInAWindow(100)
beforeEach(() => {
  useOrdersPage.setState({ tab: 'orders', status: null, needsAttention: false, search: '' })
})

function renderAt(path: string, answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    ...ordersPageAnswers(),
    adminAllStores: () => [{ shop: MAYA, shopType: 'CREATOR' }],
    adminCreatorOrders: (query) => ({
      orders: query.needsAttention ? [NEEDS_ATTENTION] : ORDERS,
      nextCursor: null,
    }),
    ...answers,
  })
  renderApp(fake.bridge, path)
  return { ...fake, user: userEvent.setup() }
}

/** Each order's rows: its own, then its readiness's (one cell across every column). */
const rowPairs = () => {
  const rows = dataRows()
  return rows
    .filter((_, index) => index % 2 === 0)
    .map((own, index) => ({ own, readiness: rows[index * 2 + 1]! }))
}
const readinessOf = (name: string) => {
  const pair = rowPairs().find(({ own }) => cellTexts(own)[0]?.startsWith(name))
  if (!pair) throw new Error(`No order ${name}`)
  return pair.readiness
}

const sidebar = () => within(screen.getByRole('navigation', { name: 'Sections' }))

describe('Each order’s readiness', () => {
  it('says under each order what will happen to it, and what stops it', async () => {
    renderAt('/main/orders')
    await screen.findByRole('table', { name: 'Creator orders' })

    // After each readiness, Hold where automatic processing may still act, Release where held.
    expect(
      rowPairs().map(({ own, readiness }) => [cellTexts(own)[0], readiness.textContent]),
    ).toEqual([
      ['#1008', 'Waits for an administratorHold'],
      ['#1007', `Transfers automatically at ${formatDateTime('2026-11-06T14:32:00.000Z')}Hold`],
      [
        '#1006',
        `Retrying from ${formatDateTime('2026-11-06T14:40:00.000Z')}: Transfer create failedHold`,
      ],
      ['#1002', `Needs attention${IRONPEAK_TEXT}${NO_PAYMENT_TEXT}Hold`],
      ['#1003', 'Nothing to transfer: No brand orders found'],
      ['#1005', 'Processing'],
      ['#1001', 'Completed'],
      [
        '#1004',
        'Partial: createTransfer for northwind-apparel.myshopify.com: Transfer create failedHold',
      ],
      [
        '#1009',
        `Held: The customer asked to change the size (ops@tandem.test, since ${formatDateTime('2026-11-06T15:00:00.000Z')})Release`,
      ],
    ])
    // The transfer status keeps its own column.
    expect(cellTexts(rowPairs()[6]!.own)).toContain('Completed')
  })

  // jsdom lays nothing out, so the table stays wide; a narrow one is seen in Chromium (CONTRIBUTING.md).
  it('lists the reasons an order needs attention whole, one a line, across the row', async () => {
    renderAt('/main/orders')
    await screen.findByRole('table', { name: 'Creator orders' })

    const [cell] = within(readinessOf('#1002')).getAllByRole('cell')
    expect(cell).toHaveAttribute('colspan', '7')
    expect(within(cell!).getByText('Needs attention')).toBeVisible()
    const reasons = within(cell!).getAllByRole('listitem')
    expect(reasons.map((item) => item.textContent)).toEqual([IRONPEAK_TEXT, NO_PAYMENT_TEXT])
    // Not cut short with an ellipsis and whole only on hover, as the row's own cells are.
    for (const reason of reasons) expect(reason.closest('[data-truncate], [title]')).toBeNull()
  })

  it('links each reason to the page where whoever can fix it does, and opens it', async () => {
    const { user } = renderAt('/main/orders', {
      adminAllStores: () => [
        { shop: MAYA, shopType: 'CREATOR' },
        { shop: IRONPEAK, shopType: 'BRAND' },
      ],
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    const [ironpeak, creator] = within(readinessOf('#1002')).getAllByRole('link')
    expect(creator).toHaveAttribute('href', '/main/stores/maya-makes.myshopify.com?type=CREATOR')
    expect(ironpeak).toHaveAttribute(
      'href',
      '/main/stores/ironpeak-outdoor.myshopify.com?type=BRAND',
    )
    await user.click(ironpeak!)
    expect(await screen.findByText(IRONPEAK)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'ironpeak outdoor', level: 1 })).toBeInTheDocument()
  })
})

describe('Hold and Release', () => {
  const REASON = 'The customer asked to change the size'
  const HELD_1007 = order('1007', {
    state: 'HELD',
    reason: REASON,
    by: 'admin@tandem.test',
    since: '2026-11-06T16:00:00.000Z',
  })
  /** What the server answers a hold now, by the administrator signed in. */
  const heldNow = (creatorOrderId: string, reason: string) => ({
    creatorOrderId,
    reason,
    heldBy: 'admin@tandem.test',
    heldAt: '2026-11-06T16:00:00.000Z',
  })
  /** What the server answers the release of #1009's hold, by ops. */
  const releasedHold = (creatorOrderId: string) => ({
    released: {
      creatorOrderId,
      reason: REASON,
      heldBy: 'ops@tandem.test',
      heldAt: '2026-11-06T15:00:00.000Z',
    },
  })
  /** The inbox, answering ORDERS until a hold or release changes what the server says. */
  const inbox = (answers: FakeAnswers = {}) => {
    let orders = ORDERS
    const view = renderAt('/main/orders', {
      adminCreatorOrders: () => ({ orders, nextCursor: null }),
      ...answers,
    })
    return { ...view, answerNext: (next: CreatorOrderSummary[]) => (orders = next) }
  }
  const holdDialog = () => within(screen.getByRole('dialog', { name: 'Hold order' }))

  it('offers Hold where automatic processing may still act, and Release for a held order', async () => {
    inbox()
    await screen.findByRole('table', { name: 'Creator orders' })

    const buttons = screen
      .getAllByRole('button', { name: /^(Hold|Release) #/ })
      .map((button) => button.getAttribute('aria-label'))
    expect(buttons).toEqual([
      'Hold #1008',
      'Hold #1007',
      'Hold #1006',
      'Hold #1002',
      'Hold #1004',
      'Release #1009',
    ])
  })

  it('holds an order with the reason typed, then reads that order again to show it held', async () => {
    const { user, callsTo, answerNext } = inbox({
      adminHoldOrder: ({ creatorOrderId, reason }) => {
        answerNext(ORDERS.map((o) => (o.id === creatorOrderId ? HELD_1007 : o)))
        return heldNow(creatorOrderId, reason)
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'Hold #1007' }))
    expect(holdDialog().getByText(/leave order #1007 until you release it/)).toBeInTheDocument()
    await user.type(holdDialog().getByLabelText('Reason'), ` ${REASON} `)
    await user.click(holdDialog().getByRole('button', { name: 'Hold' }))

    await expectToast('Success', 'Order held.')
    expect(callsTo('adminHoldOrder').map((call) => call.args)).toEqual([
      { creatorOrderId: '1007', reason: REASON },
    ])
    await waitFor(() => expect(readinessOf('#1007')).toHaveTextContent(`Held: ${REASON}`))
    expect(screen.getByRole('button', { name: 'Release #1007' })).toBeInTheDocument()
    expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
      { limit: 50 },
      { q: '1007', limit: 50 },
    ])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('refuses a reason under 10 characters by the contract rule, and sends nothing', async () => {
    const { user, callsTo } = inbox()
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'Hold #1008' }))
    await user.type(holdDialog().getByLabelText('Reason'), 'Size')
    await user.click(holdDialog().getByRole('button', { name: 'Hold' }))

    expect(holdDialog().getByLabelText('Reason')).toBeInvalid()
    expect(holdDialog().getByText('Must say why, in at least 10 characters')).toBeInTheDocument()
    expect(callsTo('adminHoldOrder')).toEqual([])
  })

  it('releases a held order, then reads that order again', async () => {
    const { user, callsTo, answerNext } = inbox({
      adminReleaseOrder: ({ creatorOrderId }) => {
        answerNext(
          ORDERS.map((o) => (o.id === creatorOrderId ? order('1009', { state: 'MANUAL' }) : o)),
        )
        return releasedHold(creatorOrderId)
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'Release #1009' }))

    await expectToast('Success', 'Order released.')
    expect(callsTo('adminReleaseOrder').map((call) => call.args)).toEqual([
      { creatorOrderId: '1009' },
    ])
    await waitFor(() =>
      expect(readinessOf('#1009')).toHaveTextContent('Waits for an administrator'),
    )
    expect(screen.getByRole('button', { name: 'Hold #1009' })).toBeInTheDocument()
  })

  it('reads the list again when the released order cannot be read alone', async () => {
    let released = false
    const { user, callsTo } = inbox({
      adminCreatorOrders: ({ q }) => {
        if (q) throw new Error('The server did not answer in time.')
        const orders = ORDERS.map((o) =>
          released && o.id === '1009' ? order('1009', { state: 'MANUAL' }) : o,
        )
        return { orders, nextCursor: null }
      },
      adminReleaseOrder: ({ creatorOrderId }) => {
        released = true
        return releasedHold(creatorOrderId)
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'Release #1009' }))

    await expectToast('Success', 'Order released.')
    await waitFor(() =>
      expect(readinessOf('#1009')).toHaveTextContent('Waits for an administrator'),
    )
    expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
      { limit: 50 },
      { q: '1009', limit: 50 },
      { limit: 50 },
    ])
  })

  it('shows an order of a later page held where it is, keeping every page read', async () => {
    const SECOND_PAGE = [order('0998', { state: 'MANUAL' }), order('0997', { state: 'MANUAL' })]
    let held: CreatorOrderSummary | null = null
    const { user, callsTo } = renderAt('/main/orders', {
      adminCreatorOrders: ({ cursor, q }) => {
        if (q) return { orders: [held ?? SECOND_PAGE[0]!], nextCursor: null }
        return cursor === 'page-2'
          ? { orders: SECOND_PAGE, nextCursor: null }
          : { orders: ORDERS.slice(0, 2), nextCursor: 'page-2' }
      },
      adminHoldOrder: ({ creatorOrderId, reason }) => {
        held = order(creatorOrderId, {
          state: 'HELD',
          reason,
          by: 'admin@tandem.test',
          since: '2026-11-06T16:00:00.000Z',
        })
        return heldNow(creatorOrderId, reason)
      },
    })
    // Its two orders fill no window: the table reads the second page at once.
    await screen.findByText('4 orders shown')

    await user.click(screen.getByRole('button', { name: 'Hold #0998' }))
    await user.type(holdDialog().getByLabelText('Reason'), REASON)
    await user.click(holdDialog().getByRole('button', { name: 'Hold' }))

    await expectToast('Success', 'Order held.')
    await waitFor(() => expect(readinessOf('#0998')).toHaveTextContent(`Held: ${REASON}`))
    expect(screen.getByRole('button', { name: 'Release #0998' })).toBeInTheDocument()
    // Every order read so far is still listed, the first page's as they were.
    expect(screen.getByText('4 orders shown')).toBeInTheDocument()
    expect(rowPairs().map(({ own }) => cellTexts(own)[0])).toEqual([
      '#1008',
      '#1007',
      '#0998',
      '#0997',
    ])
    expect(readinessOf('#0997')).toHaveTextContent('Waits for an administrator')
    // Only the order that changed was read again.
    expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
      { q: '0998', limit: 50 },
    ])
  })

  it("shows the server's refusal of a release above the table: a brand's pause is no order hold", async () => {
    const refusal = 'Creator order 1009 is not held'
    const { user, callsTo } = inbox({
      adminReleaseOrder: () => {
        throw serverRefusal('release order', refusal)
      },
    })
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('button', { name: 'Release #1009' }))

    await expectToast('Failed to release order', refusal, 'error')
    expect(screen.getByText(refusal, { selector: '.mantine-Alert-body *' })).toBeInTheDocument()
    expect(readinessOf('#1009')).toHaveTextContent('Held')
    expect(callsTo('adminCreatorOrders')).toHaveLength(1)
  })
})

describe('The "Needs attention" filter', () => {
  it('lists only the orders that need attention, and all of them again once cleared', async () => {
    const { user, callsTo } = renderAt('/main/orders')
    await screen.findByRole('table', { name: 'Creator orders' })

    await user.click(screen.getByRole('checkbox', { name: 'Needs attention' }))
    await waitFor(() => expect(rowPairs().map(({ own }) => cellTexts(own)[0])).toEqual(['#1002']))
    await user.click(screen.getByRole('checkbox', { name: 'Needs attention' }))
    await waitFor(() => expect(rowPairs()).toHaveLength(ORDERS.length))

    expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
      { limit: 50 },
      { needsAttention: 'true', limit: 50 },
      { limit: 50 },
    ])
  })
})

describe('The sidebar’s count of orders needing attention', () => {
  afterEach(() => vi.useRealTimers())

  it(
    'shows the count beside Orders, read again when Orders opens and every minute',
    { timeout: 30_000 },
    async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true })
      let count = 2
      const { user, callsTo } = renderAt('/main/stores', {
        adminAllStores: () => [],
        adminOrdersNeedingAttention: () => ({ count }),
      })

      await screen.findByRole('heading', { name: 'Stores' })
      const orders = await screen.findByRole('link', {
        name: 'Orders 2 orders need attention',
      })
      expect(orders).toHaveTextContent(/^Orders2/)
      expect(callsTo('adminOrdersNeedingAttention')).toHaveLength(1)

      count = 1
      await user.click(orders)
      expect(
        await screen.findByRole('link', { name: 'Orders 1 order needs attention' }),
      ).toBeInTheDocument()
      expect(callsTo('adminOrdersNeedingAttention')).toHaveLength(2)

      count = 0
      await act(() => vi.advanceTimersByTimeAsync(ATTENTION_POLL_MS))
      await waitFor(() =>
        expect(sidebar().getByRole('link', { current: 'page' })).toHaveAccessibleName('Orders'),
      )
      expect(callsTo('adminOrdersNeedingAttention')).toHaveLength(3)
    },
  )

  it('shows no count once the server cannot say how many', async () => {
    let answered = false
    const { user } = renderAt('/main/stores', {
      adminAllStores: () => [],
      adminOrdersNeedingAttention: () => {
        if (answered) throw new Error('The server did not answer in time.')
        answered = true
        return { count: 3 }
      },
    })
    await user.click(await screen.findByRole('link', { name: 'Orders 3 orders need attention' }))

    await screen.findByRole('table', { name: 'Creator orders' })
    await waitFor(() =>
      expect(sidebar().getByRole('link', { current: 'page' })).toHaveTextContent(/^Orders$/),
    )
  })
})
