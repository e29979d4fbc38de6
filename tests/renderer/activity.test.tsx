import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '@shared/contract'
import type { ChannelResult } from '@shared/ipc'
import {
  actionLabel,
  actorText,
  detailLines,
  targetText,
} from '@renderer/features/activity/activity-text'
import { formatDateTime } from '@renderer/lib/format'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

// docs/operations.md "Who gets in" and docs/product-rules.md "The console's screens": the audit
// log, opened from the header's notifications button.

type ActivityPage = ChannelResult<'adminAuditLog'>

const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  at: '2025-05-02T09:15:00.000Z',
  actorEmail: 'admin@tandem.test',
  action: 'products.sync',
  target: 'northwind-apparel.myshopify.com',
  details: { productCount: 5 },
  ...overrides,
})

const RATE_CHANGE = entry({
  at: '2025-05-03T12:00:00.000Z',
  action: 'commission.default.set',
  details: {
    before: { tandemCommissionRate: 10, creatorCommissionRate: 15 },
    after: { tandemCommissionRate: 10, creatorCommissionRate: 17.5 },
  },
})
const SYNC = entry()

function renderConsole(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminAllStores: () => [],
    adminAuditLog: () => ({ entries: [RATE_CHANGE, SYNC], nextCursor: null }),
    ...answers,
  })
  renderApp(fake.bridge, '/main/stores')
  return fake
}

const openActivity = async () => {
  await userEvent.click(await screen.findByRole('button', { name: 'Activity' }))
  return screen.getByRole('dialog', { name: 'Activity' })
}

/** The drawer's entries, each a list item (whose details are a list of their own). */
const entryItems = (drawer: HTMLElement) =>
  Array.from(within(drawer).getByRole('list', { name: 'Activity entries' }).children).filter(
    (item): item is HTMLElement => item instanceof HTMLElement,
  )

describe('Activity', () => {
  it('opens from the header, newest first: what, on what, who, when and what changed', async () => {
    const fake = renderConsole()

    const drawer = await openActivity()

    expect(await within(drawer).findByText('Default commission set')).toBeInTheDocument()
    expect(fake.callsTo('adminAuditLog').map((call) => call.args)).toEqual([{ limit: 50 }])
    const [rateChange, sync] = entryItems(drawer)
    expect(within(rateChange!).getByText('northwind apparel')).toHaveAttribute(
      'title',
      'northwind-apparel.myshopify.com',
    )
    expect(rateChange).toHaveTextContent(
      `admin@tandem.test · ${formatDateTime('2025-05-03T12:00:00.000Z')}`,
    )
    expect(within(rateChange!).getByText('Creator rate 15% → 17.5%')).toBeInTheDocument()
    expect(within(rateChange!).getByText('Tandem rate 10%')).toBeInTheDocument()
    expect(within(sync!).getByText('Products synced')).toBeInTheDocument()
    expect(within(sync!).getByText('5 products')).toBeInTheDocument()
    expect(screen.queryByText('No activity yet.')).not.toBeInTheDocument()
  })

  it('shows "Loading..." until the entries come, and says so when there are none', async () => {
    const answer = deferred<ActivityPage>()
    renderConsole({ adminAuditLog: () => answer.promise })

    const drawer = await openActivity()
    expect(within(drawer).getByText('Loading...')).toBeInTheDocument()

    await act(async () => answer.resolve({ entries: [], nextCursor: null }))
    expect(within(drawer).getByText('No activity yet.')).toBeInTheDocument()
    expect(within(drawer).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('reads older entries on "Load more", after the ones shown', async () => {
    const older = deferred<ActivityPage>()
    const fake = renderConsole({
      adminAuditLog: ({ cursor }) =>
        cursor === undefined ? { entries: [RATE_CHANGE], nextCursor: 'page-2' } : older.promise,
    })
    const user = userEvent.setup()

    const drawer = await openActivity()
    await user.click(await within(drawer).findByRole('button', { name: 'Load more' }))
    await user.click(within(drawer).getByRole('button', { name: 'Load more' }))

    expect(fake.callsTo('adminAuditLog').map((call) => call.args)).toEqual([
      { limit: 50 },
      { cursor: 'page-2', limit: 50 },
    ])
    await act(async () => older.resolve({ entries: [SYNC], nextCursor: null }))

    expect(entryItems(drawer).map((item) => item.firstElementChild?.textContent)).toEqual([
      'Default commission set',
      'Products synced',
    ])
    expect(within(drawer).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('shows why the log failed to load, and reads it again on Retry', async () => {
    let attempt = 0
    renderConsole({
      adminAuditLog: () => {
        if (++attempt === 1) throw serverRefusal('read the audit log', 'The server is unavailable')
        return { entries: [SYNC], nextCursor: null }
      },
    })

    const drawer = await openActivity()
    expect(
      await within(drawer).findByText('Failed to read the audit log: The server is unavailable'),
    ).toBeInTheDocument()
    await userEvent.click(within(drawer).getByRole('button', { name: 'Retry' }))

    expect(await within(drawer).findByText('Products synced')).toBeInTheDocument()
  })

  it('reads the newest entries again each time it is opened', async () => {
    let opened = 0
    const fake = renderConsole({
      adminAuditLog: () =>
        ++opened === 1
          ? { entries: [SYNC], nextCursor: null }
          : { entries: [RATE_CHANGE, SYNC], nextCursor: null },
    })
    const user = userEvent.setup()

    let drawer = await openActivity()
    expect(await within(drawer).findByText('Products synced')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog', { name: 'Activity' })).not.toBeInTheDocument()

    drawer = await openActivity()
    expect(await within(drawer).findByText('Default commission set')).toBeInTheDocument()
    expect(fake.callsTo('adminAuditLog').map((call) => call.args)).toEqual([
      { limit: 50 },
      { limit: 50 },
    ])
  })

  it('names Shopify as who asked for a compliance request, and what it erased', async () => {
    const erasure = entry({
      actorEmail: null,
      action: 'privacy.customer-redact',
      target: 'maya-makes.myshopify.com',
      details: { orders: [1001, 5001], erased: { creatorOrders: 2, orderBodies: 1 } },
    })
    renderConsole({ adminAuditLog: () => ({ entries: [erasure], nextCursor: null }) })

    const [item] = entryItems(await openActivity())
    expect(await within(item!).findByText('Customer data erased')).toBeInTheDocument()
    expect(item).toHaveTextContent(`Shopify · ${formatDateTime(erasure.at)}`)
    expect(within(item!).getByText('Orders: 1001, 5001')).toBeInTheDocument()
    expect(within(item!).getByText('Erased: creatorOrders 2, orderBodies 1')).toBeInTheDocument()
  })

  it('says what went back after a refund, from which store, how much and under which Stripe ids, done by Tandem', async () => {
    const automatic = { at: '2026-11-24T08:00:00.000Z', actorEmail: null, target: '1001' }
    const entries: AuditEntry[] = [
      {
        ...automatic,
        action: 'transfer.reversal',
        details: {
          party: 'BRAND',
          storeShop: 'northwind-apparel.myshopify.com',
          amount: '51.00 USD',
          transferId: 'tr_northwind',
          reversalId: 'trr_northwind',
        },
      },
      {
        ...automatic,
        action: 'transfer.reversal',
        details: {
          party: 'CREATOR',
          storeShop: 'maya-makes.myshopify.com',
          amount: '10.20 USD',
          transferId: 'tr_maya',
          reversalId: 'trr_maya',
        },
      },
      {
        ...automatic,
        action: 'transfer.reversal-owed',
        details: {
          party: 'BRAND',
          storeShop: 'lumen-botanicals.myshopify.com',
          amount: '24.84 USD',
          transferId: 'tr_lumen',
          reason: 'Stripe did not reverse 24.84 USD of tr_lumen: Insufficient funds',
        },
      },
      {
        ...automatic,
        action: 'order.brand-refund',
        details: {
          brandShop: 'northwind-apparel.myshopify.com',
          brandOrderId: 'gid://shopify/Order/1006',
          units: 1,
        },
      },
      {
        ...automatic,
        action: 'order.brand-cancel',
        details: {
          brandShop: 'lumen-botanicals.myshopify.com',
          brandOrderId: 'gid://shopify/Order/1007',
        },
      },
    ]
    renderConsole({ adminAuditLog: () => ({ entries, nextCursor: null }) })
    const drawer = await openActivity()
    await within(drawer).findByText('Brand order cancelled')

    const shown = entryItems(drawer).map((item) =>
      [...item.querySelectorAll('p, li')].map((line) => line.textContent),
    )
    const by = `Tandem (automatic) · ${formatDateTime(automatic.at)}`
    expect(shown).toEqual([
      [
        'Transfer reversed after a refund',
        'Order 1001',
        by,
        'Brand northwind apparel',
        'Amount 51.00 USD',
        'Stripe transfer tr_northwind',
        'Stripe reversal trr_northwind',
      ],
      [
        'Transfer reversed after a refund',
        'Order 1001',
        by,
        'Creator maya makes',
        'Amount 10.20 USD',
        'Stripe transfer tr_maya',
        'Stripe reversal trr_maya',
      ],
      [
        'Amount owed after a refund',
        'Order 1001',
        by,
        'Brand lumen botanicals',
        'Amount 24.84 USD',
        'Stripe transfer tr_lumen',
        'Reason: Stripe did not reverse 24.84 USD of tr_lumen: Insufficient funds',
      ],
      [
        'Brand order refunded',
        'Order 1001',
        by,
        'Brand northwind apparel',
        'Brand order 1006',
        '1 unit',
      ],
      ['Brand order cancelled', 'Order 1001', by, 'Brand lumen botanicals', 'Brand order 1007'],
    ])
  })

  it('says in a sentence what was listed, paused, resumed, repriced or removed, and which stock buffer was set', async () => {
    const MAYA = 'maya-makes.myshopify.com'
    const NORTHWIND = 'northwind-apparel.myshopify.com'
    const by = { at: '2026-11-24T08:00:00.000Z', actorEmail: 'admin@tandem.test' }
    const listingChange = (details: Record<string, unknown>): AuditEntry => ({
      ...by,
      action: 'catalog.set-listing',
      target: MAYA,
      details: { title: 'Linen Overshirt', brandStoreShop: NORTHWIND, ...details },
    })
    const entries: AuditEntry[] = [
      {
        ...by,
        action: 'catalog.list',
        target: MAYA,
        details: { brandStoreShop: NORTHWIND, titles: ['Canvas Tote', 'Linen Overshirt'] },
      },
      listingChange({ from: 'ACTIVE', to: 'PAUSED' }),
      listingChange({ from: 'PAUSED', to: 'ACTIVE' }),
      listingChange({ from: 'ACTIVE', to: 'ACTIVE', price: '60.00' }),
      listingChange({ from: 'PAUSED', to: 'PAUSED', price: null }),
      listingChange({ from: 'ACTIVE', to: 'REMOVED' }),
      listingChange({ from: 'REMOVED', to: 'ACTIVE' }),
      { ...by, action: 'catalog.stock-buffer', target: NORTHWIND, details: { units: 3 } },
      {
        ...by,
        action: 'shipping-policy.set',
        target: 'marketplace',
        details: { before: { lateAfterDays: 3 }, after: { lateAfterDays: 5 } },
      },
    ]
    renderConsole({ adminAuditLog: () => ({ entries, nextCursor: null }) })
    const drawer = await openActivity()
    await within(drawer).findByText('Set the stock buffer of northwind apparel to 3 units')

    const shown = entryItems(drawer).map((item) =>
      [...item.querySelectorAll('p, li')].map((line) => line.textContent),
    )
    const who = `admin@tandem.test · ${formatDateTime(by.at)}`
    const brand = 'Brand northwind apparel'
    expect(shown).toEqual([
      [
        'Listed 2 products of northwind apparel on maya makes',
        'maya makes',
        who,
        'Products: Canvas Tote, Linen Overshirt',
      ],
      ['Paused the listing of Linen Overshirt on maya makes', 'maya makes', who, brand],
      ['Resumed the listing of Linen Overshirt on maya makes', 'maya makes', who, brand],
      [
        'Repriced the listing of Linen Overshirt on maya makes',
        'maya makes',
        who,
        brand,
        'Price 60.00',
      ],
      [
        'Repriced the listing of Linen Overshirt on maya makes',
        'maya makes',
        who,
        brand,
        "Price the brand's",
      ],
      ['Removed the listing of Linen Overshirt on maya makes', 'maya makes', who, brand],
      ['Listed Linen Overshirt again on maya makes', 'maya makes', who, brand],
      ['Set the stock buffer of northwind apparel to 3 units', 'northwind apparel', who],
      ['Set brand orders late after 5 days (was 3 days)', 'marketplace', who],
    ])
  })

  it('leaves the user menu with its single "Logout" action', async () => {
    renderConsole()
    await userEvent.click(await screen.findByRole('button', { name: 'admin@tandem.test' }))
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Logout'])
  })
})

describe('Data requests', () => {
  const REQUEST = {
    id: 'maya-makes.myshopify.com:901',
    shop: 'maya-makes.myshopify.com',
    requestId: '901',
    customerId: '7001',
    receivedAt: '2026-11-20T10:00:00.000Z',
  }

  const openDataRequests = async (answers: FakeAnswers = {}) => {
    const fake = renderConsole({
      adminDataRequests: () => ({ requests: [REQUEST], nextCursor: null }),
      ...answers,
    })
    const drawer = await openActivity()
    await userEvent.click(within(drawer).getByRole('tab', { name: 'Data requests' }))
    return { fake, drawer }
  }
  const downloadButton = () =>
    screen.getByRole('button', { name: 'Download data request 901 as JSON' })

  it('lists the requests Shopify sent and saves one’s JSON where the person chose', async () => {
    const saving = deferred<ChannelResult<'adminDataRequestJson'>>()
    const { fake, drawer } = await openDataRequests({ adminDataRequestJson: () => saving.promise })

    const list = await within(drawer).findByRole('list', { name: 'Data requests' })
    expect(within(list).getByText('maya makes')).toHaveAttribute('title', REQUEST.shop)
    expect(within(list).getByText('Request 901 · Customer 7001')).toBeInTheDocument()
    expect(fake.callsTo('adminDataRequests').map((call) => call.args)).toEqual([{ limit: 50 }])

    await userEvent.click(downloadButton())
    expect(fake.callsTo('adminDataRequestJson').map((call) => call.args)).toEqual([
      { id: REQUEST.id },
    ])
    expect(downloadButton()).toBeDisabled()
    const path = '/home/admin/tandem-data-request-maya-makes.myshopify.com-901.json'
    await act(async () => saving.resolve({ saved: true, path }))
    await expectToast('Data request saved', path)
    expect(downloadButton()).toBeEnabled()
  })

  it('says why a download failed, and nothing when the save dialog is cancelled', async () => {
    let answer: () => ChannelResult<'adminDataRequestJson'> = () => ({ saved: false, path: null })
    await openDataRequests({ adminDataRequestJson: () => answer() })
    await screen.findByRole('list', { name: 'Data requests' })

    await userEvent.click(downloadButton())
    await waitFor(() => expect(downloadButton()).toBeEnabled())
    expect(screen.queryByText('Data request saved')).not.toBeInTheDocument()

    answer = () => {
      throw serverRefusal('download data request', 'No data request maya-makes.myshopify.com:901')
    }
    await userEvent.click(downloadButton())
    await expectToast(
      'Failed to download data request',
      'No data request maya-makes.myshopify.com:901',
      'error',
    )
  })

  it('says when there are none yet', async () => {
    await openDataRequests({ adminDataRequests: () => ({ requests: [], nextCursor: null }) })
    expect(await screen.findByText('No data requests yet.')).toBeInTheDocument()
  })
})

describe('Activity entries in words', () => {
  it('names the known actions and leaves any other as it is', () => {
    expect(
      [
        'commission.default.set',
        'commission.unique.create',
        'commission.unique.delete',
        'app-config.create',
        'app-config.delete',
        'payout-account.set',
        'products.sync',
        'transfer.process',
        'transfer.creator-commission',
        'transfer.reversal',
        'transfer.reversal-owed',
        'order.brand-refund',
        'order.brand-cancel',
        'job.retry',
        'transfer-policy.set',
        'store.rename',
        'toString',
      ].map((action) => actionLabel(action)),
    ).toEqual([
      'Default commission set',
      'Unique commission created',
      'Unique commission deleted',
      'App config created',
      'App config deleted',
      'Payout account set',
      'Products synced',
      'Transfer processed',
      'Creator commission paid',
      'Transfer reversed after a refund',
      'Amount owed after a refund',
      'Brand order refunded',
      'Brand order cancelled',
      'Job retried',
      'Transfer policy set',
      'store.rename',
      'toString',
    ])
    expect(actionLabel('transfer.process', { status: 'FAILED', message: 'Stripe is down' })).toBe(
      'Transfer failed',
    )
  })

  it('writes a change as before → after in words, with "none" for a side that is missing', () => {
    expect(
      detailLines({
        before: { tandemCommissionRate: 9.5, creatorCommissionRate: 15 },
        after: { tandemCommissionRate: 8, creatorCommissionRate: 15 },
      }),
    ).toEqual(['Tandem rate 9.5% → 8%', 'Creator rate 15%'])
    expect(detailLines({ before: null, after: { commissionRate: 20 } })).toEqual([
      'Rate none → 20%',
    ])
    expect(detailLines({ before: { commissionRate: 20 }, after: null })).toEqual([
      'Rate 20% → none',
    ])
    expect(
      detailLines({ before: { accountId: null }, after: { accountId: 'acct_1' }, by: 'cli' }),
    ).toEqual(['Payout account none → acct_1', 'by: cli'])
    const since = '2026-11-27T09:00:00.000Z'
    expect(
      detailLines({
        before: { mode: 'AUTOMATIC', holdMinutes: 10, automaticSince: since },
        after: { mode: 'MANUAL', holdMinutes: 1, automaticSince: null },
      }),
    ).toEqual([
      'Mode Automatic → Manual',
      'Hold 10 minutes → 1 minute',
      `Automatic since ${formatDateTime(since)} → none`,
    ])
  })

  it("writes what the server records in the administrator's words, anything else as key: value", () => {
    expect(
      detailLines({
        productCount: 5,
        brandOrders: 2,
        status: 'PARTIAL',
        owedNothing: ['ironpeak-outdoor.myshopify.com'],
        active: false,
        brands: ['lumen', 'northwind'],
        extra: { a: 1 },
        before: 3,
      }),
    ).toEqual([
      '5 products',
      '2 brand orders',
      'Status Partial',
      'Owed nothing: ironpeak outdoor',
      'active: false',
      'brands: lumen, northwind',
      'extra: {"a":1}',
      'before: 3',
    ])
    expect(detailLines({ brandOrders: 1, status: 'FAILED', message: 'Stripe is down' })).toEqual([
      '1 brand order',
      'Status Failed',
      'Why: Stripe is down',
    ])
    expect(
      detailLines({ job: 'shopify-webhook', attempts: 11, message: 'Shopify answered 500' }),
    ).toEqual(['Job: Shopify webhook', '11 failed runs', 'Why: Shopify answered 500'])
    expect(
      detailLines({
        creatorShop: 'maya-makes.myshopify.com',
        amount: '27.30 USD',
        transferId: 'tr_123',
      }),
    ).toEqual(['Creator maya makes', 'Amount 27.30 USD', 'Stripe transfer tr_123'])
    expect(targetText('transfer.creator-commission', '1001')).toBe('Order 1001')
    expect(
      [
        { action: 'transfer.creator-commission', actorEmail: null },
        { action: 'transfer.process', actorEmail: null },
        { action: 'transfer.process', actorEmail: 'admin@tandem.test' },
        { action: 'privacy.data-request', actorEmail: null },
        { action: 'store.rename', actorEmail: null },
      ].map(actorText),
    ).toEqual([
      'Tandem (automatic)',
      'Tandem (automatic)',
      'admin@tandem.test',
      'Shopify',
      'Unknown user',
    ])
    expect(targetText('transfer.process', '1001')).toBe('Order 1001')
    expect(
      targetText(
        'commission.unique.create',
        'northwind-apparel.myshopify.com × maya-makes.myshopify.com',
      ),
    ).toBe('northwind apparel × maya makes')
    expect(detailLines({})).toEqual([])
  })

  it('says "replaced" for a unique rate that replaced another, with the rates from and to', () => {
    const replaced = { before: { commissionRate: 15 }, after: { commissionRate: 17.5 } }
    expect(actionLabel('commission.unique.create', replaced)).toBe('Unique commission replaced')
    expect(detailLines(replaced, 'commission.unique.create')).toEqual(['Rate 15% → 17.5%'])
    const created = { before: null, after: { commissionRate: 20 } }
    expect(actionLabel('commission.unique.create', created)).toBe('Unique commission created')
  })

  it("words a price exception's lines by their titles and prices, never as JSON", () => {
    const details = {
      reason: 'Lumen agreed by email',
      lines: [
        {
          lineItemId: 'gid://shopify/LineItem/10012',
          title: 'Rosehip Face Oil',
          price: '34.50 USD',
          brandPrice: '36.00 USD',
        },
        { lineItemId: 'gid://shopify/LineItem/10013', price: '9.00 USD', brandPrice: '9.50 USD' },
      ],
    }
    expect(actionLabel('transfer.accept-price-exception', details)).toBe('Price exception accepted')
    expect(detailLines(details, 'transfer.accept-price-exception')).toEqual([
      'Reason: Lumen agreed by email',
      "Accepted: Rosehip Face Oil sold at 34.50 USD a unit, below the brand's 36.00 USD; " +
        "line 10013 sold at 9.00 USD a unit, below the brand's 9.50 USD",
    ])
  })
})
