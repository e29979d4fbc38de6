import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { Shipment, ShippingPolicy } from '@shared/contract'
import type { ChannelArgs, ChannelResult } from '@shared/ipc'
import { formatDateTime } from '@renderer/lib/format'
import { LUMEN, NORTHWIND } from '../support/sandbox-figures'
import { FILTER_STORES as STORES, MAYA, URBAN } from './support/creator-orders'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { declaredStyle } from './support/styles'
import { expectToast } from './support/toasts'
import { layOutAsInAWindow } from './support/table'

// /main/shipping as an administrator sees it: what each brand of a transferred order shipped,
// whether the creator's order shows it, which are late, and the policy that says when.

type ShipmentsPage = ChannelResult<'adminShipments'>
type ShipmentsQuery = ChannelArgs<'adminShipments'>

const UPS_URL = 'https://www.ups.com/track?tracknum=1Z999AA10123456784'
const MIRROR_FAILED =
  "The creator's order no longer holds the line Linen Overshirt: it was refunded before the brand shipped it."

/** A brand order as the server lists it: Maya's order #1005 from Northwind, open, nothing shipped. */
const shipment = (brandOrder: number, overrides: Partial<Shipment> = {}): Shipment => ({
  creatorOrderId: '1005',
  creatorOrderName: '#1005',
  creatorStoreShop: MAYA,
  brandStoreShop: NORTHWIND,
  brandOrderId: `gid://shopify/Order/${brandOrder}`,
  transferredAt: '2026-11-04T11:00:00.000Z',
  fulfillmentOrderStatus: 'OPEN',
  holds: [],
  cancelReason: null,
  cancelledBy: null,
  fulfillments: [],
  unseen: null,
  late: false,
  readAt: '2026-11-05T08:00:00.000Z',
  ...overrides,
})

/** Newest transfer first: #1005's two brands, then 1004 (its name never read), then #1001. */
const SHIPMENTS: Shipment[] = [
  shipment(5005, {
    fulfillmentOrderStatus: 'IN_PROGRESS',
    late: true,
    fulfillments: [
      {
        id: 'gid://shopify/Fulfillment/701',
        status: 'SUCCESS',
        createdAt: '2026-11-05T09:00:00.000Z',
        tracking: [{ company: 'UPS', number: '1Z999AA10123456784', url: UPS_URL }],
        quantity: 2,
        mirrorState: 'MIRRORED',
        mirrorMessage: null,
      },
      {
        id: 'gid://shopify/Fulfillment/702',
        status: 'SUCCESS',
        createdAt: '2026-11-06T09:00:00.000Z',
        tracking: [{ company: 'Canada Post', number: '7023 4567 8901', url: null }],
        quantity: 1,
        mirrorState: 'FAILED',
        mirrorMessage: MIRROR_FAILED,
      },
    ],
  }),
  shipment(5006, {
    brandStoreShop: LUMEN,
    fulfillmentOrderStatus: 'ON_HOLD',
    holds: [
      { reason: 'INVENTORY_OUT_OF_STOCK', notes: 'Back in stock on 12 November' },
      { reason: 'AWAITING_PAYMENT', notes: null },
    ],
  }),
  shipment(5003, {
    creatorOrderId: '1004',
    creatorOrderName: null,
    creatorStoreShop: URBAN,
    brandStoreShop: LUMEN,
    transferredAt: '2026-11-03T12:30:00.000Z',
    fulfillmentOrderStatus: 'CANCELLED',
    cancelReason: 'INVENTORY',
    cancelledBy: 'BRAND',
  }),
  shipment(5001, {
    creatorOrderId: '1001',
    creatorOrderName: '#1001',
    transferredAt: '2026-11-03T09:00:00.000Z',
    fulfillmentOrderStatus: 'CLOSED',
    fulfillments: [
      {
        id: 'gid://shopify/Fulfillment/601',
        status: 'SUCCESS',
        createdAt: '2026-11-03T15:00:00.000Z',
        tracking: [{ company: null, number: null, url: 'https://tracking.example/abc' }],
        quantity: 3,
        mirrorState: 'PENDING',
        mirrorMessage: null,
      },
    ],
  }),
]

/** What the server answers: the shipments the query matches, all in one page. */
function matching(query: ShipmentsQuery, shipments = SHIPMENTS): ShipmentsPage {
  return {
    shipments: shipments.filter(
      (candidate) =>
        (!query.status || candidate.fulfillmentOrderStatus === query.status) &&
        (!query.brandShop || candidate.brandStoreShop === query.brandShop) &&
        (!query.creatorShop || candidate.creatorStoreShop === query.creatorShop) &&
        (!query.late || candidate.late),
    ),
    nextCursor: null,
  }
}

/** `count` open brand orders of Maya's orders, from #`from` down, as one page of the server's. */
const manyShipments = (from: number, count: number) =>
  Array.from({ length: count }, (_, n) =>
    shipment(from - n, { creatorOrderId: String(from - n), creatorOrderName: `#${from - n}` }),
  )

// The debounce-free filters still wait for lazy chunks and thousands of rows: allow a busy machine.
vi.setConfig({ testTimeout: 15_000 })

/** A shipment's rows (its own and what it shipped), as measured here. */
const SHIPMENT_HEIGHT = 160

layOutAsInAWindow(SHIPMENT_HEIGHT)

function renderShipping(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminAllStores: () => STORES,
    adminShipments: (query) => matching(query),
    adminShippingPolicy: () => ({ lateAfterDays: 5 }),
    ...answers,
  })
  renderApp(fake.bridge, '/main/shipping')
  return { ...fake, user: userEvent.setup() }
}

const table = () => screen.getByRole('table', { name: 'Shipments' })
const loaded = () => screen.findByRole('table', { name: 'Shipments' })
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent)
/** The table's rows that hold cells: the header and the virtualizer's spacers left out. */
const bodyRows = () =>
  within(table())
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
/** Each brand order's own row, what it shipped beneath it (one cell across the columns) left out. */
const ownRows = () => bodyRows().filter((row) => within(row).getAllByRole('cell').length > 1)
const shipmentRows = () => ownRows().map(cellsOf)
const orderNames = () => shipmentRows().map((cells) => cells[0])
/** The row beneath a brand order's own: its holds, cancellation and fulfillments. */
const detailOf = (order: string, brand: string) => {
  const row = ownRows().find((candidate) => {
    const cells = cellsOf(candidate)
    return cells[0] === order && cells[2] === brand
  })
  if (!row?.nextElementSibling) throw new Error(`No shipment of ${order} by ${brand}`)
  return within(row.nextElementSibling as HTMLElement)
}
const queries = (calls: { args: unknown }[]) => calls.map((call) => call.args)

/** The scroller around the table: where the person scrolls. */
const scrollTo = (top: number) => {
  const scroller = table().parentElement!
  Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: top })
  fireEvent.scroll(scroller)
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }))
  await user.click(await screen.findByRole('option', { name: option }))
}

const badge = (text: string) =>
  within(table()).getAllByText(text)[0]!.closest('.mantine-Badge-root')

describe('Shipping', () => {
  it('lists each brand order of the transferred orders, newest first, with its status and late ones flagged', async () => {
    const { callsTo } = renderShipping()

    expect(await screen.findByRole('heading', { name: 'Shipping' })).toBeInTheDocument()
    await loaded()
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Order', 'Creator store', 'Brand store', 'Brand order', 'Transferred', 'Status'])
    const transferred = formatDateTime('2026-11-04T11:00:00.000Z')
    expect(shipmentRows()).toEqual([
      ['#1005', 'maya makes', 'northwind apparel', '…/Order/5005', transferred, 'In progressLate'],
      ['#1005', 'maya makes', 'lumen botanicals', '…/Order/5006', transferred, 'On hold'],
      // An order whose name Tandem never read: its id.
      [
        '1004',
        'urban trail edits',
        'lumen botanicals',
        '…/Order/5003',
        formatDateTime('2026-11-03T12:30:00.000Z'),
        'Cancelled',
      ],
      [
        '#1001',
        'maya makes',
        'northwind apparel',
        '…/Order/5001',
        formatDateTime('2026-11-03T09:00:00.000Z'),
        'Closed',
      ],
    ])
    expect(declaredStyle(badge('Late'), '--badge-bg')).toBe('var(--mantine-color-red-filled)')
    expect(within(table()).getAllByText('Late')).toHaveLength(1)
    expect(declaredStyle(badge('On hold'), '--badge-bg')).toBe('var(--mantine-color-orange-light)')
    expect(declaredStyle(badge('Closed'), '--badge-bg')).toBe('var(--mantine-color-green-light)')
    expect(screen.getByText('4 shipments shown')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(queries(callsTo('adminShipments'))).toEqual([{ limit: 50 }])
  })

  it("shows each fulfillment with its status, units, tracking and whether the creator's order shows it", async () => {
    renderShipping()
    await loaded()

    const fulfillments = screen.getByRole('list', {
      name: 'Fulfillments of #1005 by northwind apparel',
    })
    expect(
      within(fulfillments)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Success2 units · ${formatDateTime('2026-11-05T09:00:00.000Z')}UPS1Z999AA10123456784Creator's orderMirrored`,
      // A failed copy says why, whole.
      `Success1 unit · ${formatDateTime('2026-11-06T09:00:00.000Z')}Canada Post7023 4567 8901Creator's orderFailed${MIRROR_FAILED}`,
    ])
    expect(declaredStyle(within(fulfillments).getByText(MIRROR_FAILED), 'color')).toBe(
      'var(--mantine-color-red-text)',
    )
    expect(
      declaredStyle(
        within(fulfillments).getByText('Failed').closest('.mantine-Badge-root'),
        '--badge-bg',
      ),
    ).toBe('var(--mantine-color-red-light)')
    // A brand order with nothing shipped says so.
    expect(detailOf('#1005', 'lumen botanicals').getByText('Nothing shipped yet.')).toBeVisible()
  })

  it('opens a tracking link in the browser through main; a number without a page is plain text', async () => {
    const { user, callsTo } = renderShipping({ 'external/open': () => undefined })
    await loaded()

    const link = screen.getByRole('link', { name: '1Z999AA10123456784' })
    expect(link).toHaveAttribute('href', UPS_URL)
    await user.click(link)
    expect(callsTo('external/open')).toEqual([{ channel: 'external/open', args: { url: UPS_URL } }])
    // The console itself stays where it is.
    expect(screen.getByRole('heading', { name: 'Shipping' })).toBeInTheDocument()

    expect(screen.getByText('7023 4567 8901')).not.toHaveAttribute('href')
    expect(screen.queryByRole('link', { name: '7023 4567 8901' })).not.toBeInTheDocument()
    // A tracking page without a number is still a link.
    await user.click(
      detailOf('#1001', 'northwind apparel').getByRole('link', { name: 'Track shipment' }),
    )
    expect(callsTo('external/open').at(-1)?.args).toEqual({ url: 'https://tracking.example/abc' })
  })

  it('says why a tracking page could not be opened', async () => {
    const { user } = renderShipping({
      'external/open': () => {
        throw new Error('The OS has no browser to open it in.')
      },
    })
    await loaded()

    await user.click(screen.getByRole('link', { name: '1Z999AA10123456784' }))
    await expectToast('Failed to open link', 'The OS has no browser to open it in.', 'error')
  })

  it("shows a brand order's holds with their reasons and notes, and a brand's cancellation with its reason", async () => {
    renderShipping()
    await loaded()

    const held = detailOf('#1005', 'lumen botanicals')
    expect(
      held.getByText('On hold: Inventory out of stock — Back in stock on 12 November'),
    ).toBeVisible()
    expect(held.getByText('On hold: Awaiting payment')).toBeVisible()

    const cancelled = detailOf('1004', 'lumen botanicals')
    expect(cancelled.getByText('Cancelled by the brand: Inventory')).toBeVisible()
    expect(declaredStyle(cancelled.getByText('Cancelled by the brand: Inventory'), 'color')).toBe(
      'var(--mantine-color-red-text)',
    )
    // Cancelled: nothing is to ship, and nothing says "yet".
    expect(cancelled.queryByText('Nothing shipped yet.')).not.toBeInTheDocument()
  })

  it("says Tandem cancelled a brand order after the creator's refund, not the brand", async () => {
    // Tandem cancels with Shopify's reason CUSTOMER: the reason alone would blame the brand.
    renderShipping({
      adminShipments: () => ({
        shipments: [
          shipment(5008, {
            fulfillmentOrderStatus: 'CANCELLED',
            cancelReason: 'CUSTOMER',
            cancelledBy: 'TANDEM',
          }),
        ],
        nextCursor: null,
      }),
    })
    await loaded()
    const cancelled = detailOf('#1005', 'northwind apparel')
    expect(cancelled.getByText("Cancelled by Tandem after the creator's refund")).toBeVisible()
    expect(cancelled.queryByText(/Cancelled by the brand/)).not.toBeInTheDocument()
  })

  it('says "Not read yet" of a brand order Tandem has not read from the brand', async () => {
    renderShipping({
      adminShipments: () => ({
        shipments: [shipment(5007, { fulfillmentOrderStatus: null, readAt: null })],
        nextCursor: null,
      }),
    })
    await loaded()
    expect(shipmentRows()[0]?.[5]).toBe('Not read yet')
  })

  it('narrows by status, brand, creator and lateness, each a fresh list from the first page', async () => {
    const { user, callsTo } = renderShipping()
    await loaded()

    await user.click(screen.getByRole('combobox', { name: 'Status' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Any status',
      'Cancelled',
      'Closed',
      'Incomplete',
      'In progress',
      'On hold',
      'Open',
      'Scheduled',
    ])
    await user.click(screen.getByRole('option', { name: 'On hold' }))
    await waitFor(() =>
      expect(shipmentRows().map((cells) => cells[2])).toEqual(['lumen botanicals']),
    )
    await choose(user, 'Status', 'Any status')
    await waitFor(() => expect(orderNames()).toHaveLength(4))

    // Brands only in the brand filter, creators only in the creator filter.
    await user.click(screen.getByRole('combobox', { name: 'Brand store' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All brand stores',
      'northwind apparel',
      'lumen botanicals',
    ])
    await user.click(screen.getByRole('option', { name: 'lumen botanicals' }))
    await waitFor(() => expect(orderNames()).toEqual(['#1005', '1004']))

    await user.click(screen.getByRole('combobox', { name: 'Creator store' }))
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All creator stores',
      'maya makes',
      'urban trail edits',
    ])
    await user.click(screen.getByRole('option', { name: 'urban trail edits' }))
    await waitFor(() => expect(orderNames()).toEqual(['1004']))

    await user.click(screen.getByRole('checkbox', { name: 'Late only' }))
    expect(await screen.findByText('No shipments match.')).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Shipments' })).not.toBeInTheDocument()

    expect(queries(callsTo('adminShipments'))).toEqual([
      { limit: 50 },
      { status: 'ON_HOLD', limit: 50 },
      { limit: 50 },
      { brandShop: LUMEN, limit: 50 },
      { brandShop: LUMEN, creatorShop: URBAN, limit: 50 },
      { brandShop: LUMEN, creatorShop: URBAN, late: 'true', limit: 50 },
    ])
  })

  it('lists only the late ones with "Late only"', async () => {
    const { user } = renderShipping()
    await loaded()

    await user.click(screen.getByRole('checkbox', { name: 'Late only' }))
    await waitFor(() => expect(orderNames()).toEqual(['#1005']))
    expect(shipmentRows()[0]?.[5]).toBe('In progressLate')
  })

  it('reads the next page with "Load more", and a filter changed then starts again from the first', async () => {
    const second = deferred<ShipmentsPage>()
    const { user, callsTo } = renderShipping({
      adminShipments: (query) =>
        query.cursor === 'page-2'
          ? second.promise
          : query.late
            ? matching(query)
            : { shipments: manyShipments(2000, 50), nextCursor: 'page-2' },
    })
    await loaded()
    // More on the server: how many is unknown.
    expect(table()).toHaveAttribute('aria-rowcount', '-1')
    expect(screen.getByText('50 shipments shown')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await act(async () => second.resolve({ shipments: manyShipments(1950, 50), nextCursor: null }))
    expect(screen.getByText('100 shipments shown')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('checkbox', { name: 'Late only' }))
    await waitFor(() => expect(orderNames()).toEqual(['#1005']))
    expect(queries(callsTo('adminShipments'))).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
      { late: 'true', limit: 50 },
    ])
  })

  it('reads the next page when the person scrolls near the end', async () => {
    const { callsTo } = renderShipping({
      adminShipments: ({ cursor }) =>
        cursor
          ? { shipments: manyShipments(1950, 50), nextCursor: null }
          : { shipments: manyShipments(2000, 50), nextCursor: 'page-2' },
    })
    await loaded()
    // The first rows fill the window: nothing more is read yet.
    expect(orderNames()[0]).toBe('#2000')
    expect(callsTo('adminShipments')).toHaveLength(1)

    scrollTo(35 * SHIPMENT_HEIGHT)
    await waitFor(() => expect(callsTo('adminShipments')).toHaveLength(2))
    expect(callsTo('adminShipments')[1]?.args).toEqual({ cursor: 'page-2', limit: 50 })
    expect(await screen.findByText('100 shipments shown')).toBeInTheDocument()
  })

  it('shows why the shipments failed to load and reads them again on Retry', async () => {
    let attempts = 0
    const { user } = renderShipping({
      adminShipments: (query) => {
        attempts += 1
        if (attempts === 1) throw serverRefusal('fetch shipments', 'the server did not answer')
        return matching(query)
      },
    })

    expect(
      await screen.findByText('Failed to fetch shipments: the server did not answer'),
    ).toBeInTheDocument()
    expect(screen.queryByText('No shipments match.')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await loaded()
    expect(orderNames()).toEqual(['#1005', '#1005', '1004', '#1001'])
  })
})

describe('Shipping: the late policy', () => {
  const form = () => within(screen.getByRole('form', { name: 'Shipping policy' }))
  const daysInput = () => form().getByLabelText('Late after (days)')
  const saveButton = () => form().getByRole('button', { name: 'Save' })

  it('shows the days, and saves new ones, after which the list is read again with its late flags', async () => {
    let policy: ShippingPolicy = { lateAfterDays: 5 }
    // With 3 days, Lumen's held order is late too.
    const lateAfter = (days: number) =>
      SHIPMENTS.map((candidate) =>
        days <= 3 && candidate.brandOrderId.endsWith('/5006')
          ? { ...candidate, late: true }
          : candidate,
      )
    const answer = deferred<ShippingPolicy>()
    const { user, callsTo } = renderShipping({
      adminShippingPolicy: () => policy,
      adminSetShippingPolicy: (input) => {
        policy = input
        return answer.promise
      },
      adminShipments: (query) => matching(query, lateAfter(policy.lateAfterDays)),
    })
    await loaded()
    await screen.findByRole('form', { name: 'Shipping policy' })
    expect(daysInput()).toHaveValue('5')
    expect(daysInput()).toHaveAccessibleDescription(
      'A brand order not shipped in full this many days after its transfer is late.',
    )
    // Nothing changed yet: nothing to save.
    expect(saveButton()).toBeDisabled()
    expect(within(table()).getAllByText('Late')).toHaveLength(1)

    await user.clear(daysInput())
    await user.type(daysInput(), '3')
    await user.click(saveButton())
    expect(saveButton()).toHaveAttribute('data-loading', 'true')
    await user.click(saveButton())
    expect(callsTo('adminSetShippingPolicy')).toEqual([
      { channel: 'adminSetShippingPolicy', args: { lateAfterDays: 3 } },
    ])

    await act(async () => answer.resolve({ lateAfterDays: 3 }))
    await expectToast('Success', 'Shipping policy set successfully.')
    await waitFor(() => expect(within(table()).getAllByText('Late')).toHaveLength(2))
    expect(queries(callsTo('adminShipments'))).toEqual([{ limit: 50 }, { limit: 50 }])
    expect(daysInput()).toHaveValue('3')
    expect(saveButton()).toBeDisabled()
  })

  it.each(['61', '0', '-5', '1.5', '10,5'])(
    'refuses %s days under the field, keeping it as typed, and sends nothing',
    async (typed) => {
      const { user, callsTo } = renderShipping()
      await screen.findByRole('form', { name: 'Shipping policy' })

      await user.clear(daysInput())
      await user.type(daysInput(), typed)
      expect(daysInput()).toHaveValue(typed)
      expect(daysInput()).toBeInvalid()
      expect(form().getByText('Must be a whole number of days from 1 to 60')).toBeInTheDocument()
      expect(saveButton()).toBeDisabled()
      await user.type(daysInput(), '{Enter}')
      expect(callsTo('adminSetShippingPolicy')).toEqual([])
    },
  )

  it("says the policy failed to set, with the server's reason beside the form, and keeps the days", async () => {
    const reason = 'lateAfterDays must be at most 60'
    const { user, callsTo } = renderShipping({
      adminSetShippingPolicy: () => {
        throw serverRefusal('set shipping policy', reason)
      },
    })
    await screen.findByRole('form', { name: 'Shipping policy' })

    await user.clear(daysInput())
    await user.type(daysInput(), '7')
    await user.click(saveButton())

    await expectToast('Failed', 'Shipping policy failed to set.', 'error')
    expect(form().getByText(reason)).toBeInTheDocument()
    expect(daysInput()).toHaveValue('7')
    // A refused policy changes no flag: the list is not read again.
    expect(callsTo('adminShipments')).toHaveLength(1)
    // Typing again clears the refusal.
    await user.type(daysInput(), '{Backspace}')
    expect(form().queryByText(reason)).not.toBeInTheDocument()
  })

  it('shows why the policy could not be read, and still lists the shipments', async () => {
    let attempts = 0
    const { user } = renderShipping({
      adminShippingPolicy: () => {
        attempts += 1
        if (attempts === 1)
          throw serverRefusal('fetch shipping policy', 'the server did not answer')
        return { lateAfterDays: 5 }
      },
    })
    await loaded()
    expect(
      await screen.findByText('Failed to fetch shipping policy: the server did not answer'),
    ).toBeInTheDocument()
    expect(orderNames()).toHaveLength(4)

    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('form', { name: 'Shipping policy' })).toBeInTheDocument()
    expect(daysInput()).toHaveValue('5')
  })
})
