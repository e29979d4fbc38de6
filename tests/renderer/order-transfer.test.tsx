import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { FRAUD_RELEASE_HINT, PRICE_EXCEPTION_HINT } from '@shared/contract'
import type { ChannelResult, FetchedReceipt, SavedFile } from '@shared/ipc'
import { BridgeError } from '@renderer/lib/bridge'
import { formatDateTime } from '@renderer/lib/format'
import {
  LUMEN,
  NORTHWIND,
  ORDER_1001_SETTLED,
  splitParts,
  ORDER_1001_TOTALS,
  ORDER_1001_TRAIL,
  order1001Brands,
  order1001CreatorOrder,
} from '../support/sandbox-figures'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { transferPageAnswers } from './support/fakes/transfer-page'
import { renderApp } from './support/render-app'
import { narrowWindow } from './support/table'
import { expectToast } from './support/toasts'

// docs/product-rules.md "The console's screens" (/main/create-order-transfer) and "The console's
// texts", issue 6, as a person sees them. jsdom cannot run pdf.js: its module is replaced by a
// document of two blank pages (the e2e tests draw the real one in Chromium).
vi.mock('@renderer/features/order-transfer/pdf-document', () => ({
  openReceiptDocument: async () => ({
    pageSizes: [
      { width: 816, height: 1056 },
      { width: 816, height: 1056 },
    ],
    renderPage: async () => {},
    destroy: async () => {},
  }),
}))

type Preview = ChannelResult<'adminPreviewOrderTransfer'>

const money = (amount: string) => ({ presentmentMoney: { amount, currencyCode: 'USD' } })

/**
 * Order 1001 of the sandbox (docs/product-rules.md), as the server previews it, but with the
 * fallbacks of "The console's screens" on its second line (a name when there is no title,
 * currentQuantity for quantity) and no image on its last two.
 */
function order1001(
  overrides: {
    brandOrderIds?: [string, string]
    currency?: string
    moneyTrail?: typeof ORDER_1001_TRAIL
  } = {},
) {
  const processed = overrides.brandOrderIds !== undefined
  const creatorOrder = order1001CreatorOrder('http://127.0.0.1:4000')
  const [overshirt, faceOil, stickers] = creatorOrder.lineItems.nodes
  return {
    creatorOrder: {
      ...creatorOrder,
      lineItems: {
        nodes: [
          overshirt!,
          {
            ...faceOil!,
            title: undefined,
            name: 'Rosehip Face Oil',
            quantity: undefined,
            currentQuantity: 1,
            image: null,
          },
          { ...stickers!, image: null },
        ],
      },
    },
    preview: {
      currency: overrides.currency ?? 'USD',
      status: processed ? 'COMPLETED' : 'NOT_STARTED',
      processedAt: processed ? '2026-11-03T09:00:00.000Z' : null,
      brands: order1001Brands(overrides.brandOrderIds ?? [null, null]),
      totals: ORDER_1001_TOTALS,
      settledTotals: ORDER_1001_SETTLED,
      moneyTrail: overrides.moneyTrail ?? [],
      refundWaiting: null,
    },
  } satisfies Preview
}

const PDF_BYTES = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37])
const RECEIPT_ID = '8d7c1a52-6a7e-4d8f-9b1e-2f0f5d3c4b1a'
const RECEIPT: FetchedReceipt = { receiptId: RECEIPT_ID, bytes: PDF_BYTES }

function renderTransfer(answers: FakeAnswers = {}, path = '/main/create-order-transfer') {
  const fake = fakeBridge({
    ...transferPageAnswers(),
    adminPreviewOrderTransfer: () => order1001(),
    adminPreviewOrderTransferReceiptPdf: () => RECEIPT,
    ...answers,
  })
  const { router } = renderApp(fake.bridge, path)
  return { ...fake, router, user: userEvent.setup() }
}

const orderInput = () => screen.getByLabelText('Creator order ID')
const sendButton = () => screen.getByRole('button', { name: /^(Send|Sending\.\.\.)$/ })
const clearButton = () => screen.getByRole('button', { name: 'Clear' })
const processButton = () => screen.getByRole('button', { name: 'Process transfer' })
const tab = (name: 'Summary' | 'Receipt') => screen.getByRole('tab', { name })
const card = (title: string) => screen.getByRole('region', { name: title })
/** The preview's refusal on the page, by its title. */
const refusalOnPage = (title: string) => screen.getByRole('alert', { name: title })

/** The value shown under a label of a card's fields. */
const field = (cardTitle: string, label: string) =>
  within(card(cardTitle)).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

/** A table's body rows as the text of their cells. */
const tableRows = (cardTitle: string) =>
  within(card(cardTitle))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    )

async function previewOrder(user: ReturnType<typeof userEvent.setup>, id = '1001') {
  await user.type(await screen.findByLabelText('Creator order ID'), id)
  await user.click(sendButton())
  await screen.findByRole('region', { name: 'Creator Order' })
}

describe('Sending a creator order ID', () => {
  it('refuses an empty or blank ID with a toast, and asks main nothing', async () => {
    const { user, callsTo } = renderTransfer()
    await user.click(await screen.findByRole('button', { name: 'Send' }))
    await expectToast('Error', 'Creator order ID is required', 'error')

    await user.type(orderInput(), '   ')
    await user.click(sendButton())
    await expectToast('Error', 'Creator order ID is required', 'error')
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(0)
  })

  it('shows "Sending..." while the preview is on its way, then the success toast', async () => {
    const answer = deferred<Preview>()
    const { user, callsTo } = renderTransfer({ adminPreviewOrderTransfer: () => answer.promise })
    await user.type(await screen.findByLabelText('Creator order ID'), '  1001 ')
    await user.click(sendButton())

    expect(sendButton()).toHaveTextContent('Sending...')
    expect(sendButton()).toBeDisabled()
    expect(callsTo('adminPreviewOrderTransfer')).toEqual([
      { channel: 'adminPreviewOrderTransfer', args: { creatorOrderId: '1001' } },
    ])

    await act(async () => answer.resolve(order1001()))
    await expectToast('Success', 'Preview fetched successfully')
    expect(sendButton()).toHaveTextContent('Send')
    expect(sendButton()).toBeEnabled()
  })

  it('sends on Enter in the input', async () => {
    const { user, callsTo } = renderTransfer()
    await user.type(await screen.findByLabelText('Creator order ID'), '1001{Enter}')
    await screen.findByRole('region', { name: 'Creator Order' })
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(1)
  })

  it.each([
    ['Commission not found', '1002'],
    ['No brand orders found', '1003'],
    ['Creator order not found', '9999'],
  ])('says "%s" in the failure toast, and on the page under what happened', async (reason, id) => {
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        throw serverRefusal('fetch preview', reason)
      },
    })
    await user.type(await screen.findByLabelText('Creator order ID'), id)
    await user.click(sendButton())
    await expectToast('Failed to fetch preview', reason, 'error')
    const shown = refusalOnPage(`Tandem cannot transfer creator order ${id}`)
    expect(shown).toHaveTextContent(`Tandem cannot transfer creator order ${id}${reason}`)
    expect(shown).not.toHaveTextContent('Failed to fetch preview')
  })

  it('replaces an earlier preview with the failure rather than showing another order', async () => {
    let calls = 0
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        calls += 1
        if (calls === 1) return order1001()
        throw serverRefusal('fetch preview', 'Commission not found')
      },
    })
    await previewOrder(user)
    await user.clear(orderInput())
    await user.type(orderInput(), '1002{Enter}')
    await expectToast('Failed to fetch preview', 'Commission not found', 'error')
    expect(screen.queryByRole('region', { name: 'Creator Order' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Process transfer' })).not.toBeInTheDocument()
  })
})

describe('The order, in every form the console shows one', () => {
  const named = (id: string, creatorStoreShop = 'maya-makes.myshopify.com') => ({
    id,
    name: '#1001',
    creatorStoreShop,
    createdAt: '2026-11-02T15:04:00.000Z',
    currency: 'USD',
    totalAmount: '197.54',
    transferStatus: 'NOT_STARTED' as const,
    processedAt: null,
    readiness: { state: 'MANUAL' as const },
  })

  it.each(['1001', 'gid://shopify/Order/1001'])('sends %s as typed', async (typed) => {
    const { user, callsTo } = renderTransfer()
    await previewOrder(user, typed)
    expect(callsTo('adminPreviewOrderTransfer')).toEqual([
      { channel: 'adminPreviewOrderTransfer', args: { creatorOrderId: typed } },
    ])
  })

  it("sends #1001, the name Orders shows, as that order's id, found among the orders", async () => {
    const { user, callsTo } = renderTransfer({
      // The search matches names that contain it too; only the exact name counts.
      adminCreatorOrders: () => ({
        orders: [named('1001'), { ...named('11001'), name: '#11001' }],
        nextCursor: null,
      }),
    })
    await previewOrder(user, '#1001')
    // Then, by its id, where the order previewed stands with automatic transfers.
    await waitFor(() =>
      expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
        { q: '#1001', limit: 500 },
        { q: '1001', limit: 50 },
      ]),
    )
    expect(callsTo('adminPreviewOrderTransfer')).toEqual([
      { channel: 'adminPreviewOrderTransfer', args: { creatorOrderId: '1001' } },
    ])
  })

  it('refuses a name two stores share, on the field, and previews neither', async () => {
    const { user, callsTo } = renderTransfer({
      // The second store's #1001 is on the search's second page: it is read too.
      adminCreatorOrders: ({ cursor }) =>
        cursor
          ? { orders: [named('2001', 'urban-trail-edits.myshopify.com')], nextCursor: null }
          : { orders: [named('1001')], nextCursor: 'page-2' },
    })
    await user.type(await screen.findByLabelText('Creator order ID'), '#1001{Enter}')
    expect(
      await screen.findByText(
        'Orders of several stores are named #1001: type the id of the one you mean ' +
          '(1001 of maya makes, 2001 of urban trail edits).',
      ),
    ).toBeInTheDocument()
    expect(orderInput()).toHaveAttribute('aria-invalid', 'true')
    expect(orderInput()).toHaveValue('#1001')
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(0)
  })

  it('says on the field what to type for an unknown name or other text, until it is changed', async () => {
    const { user, callsTo } = renderTransfer({
      adminCreatorOrders: () => ({ orders: [], nextCursor: null }),
    })
    await user.type(await screen.findByLabelText('Creator order ID'), '#9999{Enter}')
    expect(
      await screen.findByText(
        'No creator order is named #9999. Type the order as Orders shows it (#1001), its id ' +
          '(1001) or its GID (gid://shopify/Order/1001).',
      ),
    ).toBeInTheDocument()

    await user.clear(orderInput())
    await user.type(orderInput(), 'order 1001{Enter}')
    expect(
      await screen.findByText(
        'Type the order as Orders shows it (#1001), its id (1001) or its GID (gid://shopify/Order/1001).',
      ),
    ).toBeInTheDocument()
    await user.type(orderInput(), 'x')
    expect(orderInput()).not.toHaveAttribute('aria-invalid', 'true')
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(0)
  })
})

describe('A price exception', () => {
  const BELOW =
    'Line "Rosehip Face Oil" cannot be transferred to ' +
    `${LUMEN}: the customer paid 34.50 USD a unit after discounts, below the brand's price 36.00 USD; ${PRICE_EXCEPTION_HINT}`
  const REASON = 'Lumen agreed to the launch price by email'

  it('is offered on a refusal that allows one, asks for a reason, then previews again', async () => {
    let previews = 0
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        previews += 1
        if (previews === 1) throw serverRefusal('fetch preview', BELOW)
        return order1001()
      },
      adminAcceptPriceException: () => ({
        creatorOrderId: 'gid://shopify/Order/1001',
        acceptedLines: 1,
        acceptedAt: '2026-11-25T10:00:00.000Z',
      }),
    })
    await user.type(await screen.findByLabelText('Creator order ID'), '1001{Enter}')
    await expectToast('Failed to fetch preview', BELOW, 'error')
    await user.click(screen.getByRole('button', { name: 'Accept price exception' }))

    const dialog = await screen.findByRole('dialog', { name: 'Accept price exception' })
    const accept = within(dialog).getByRole('button', { name: 'Accept exception' })
    const reason = within(dialog).getByLabelText(/Reason/)
    await user.click(reason)
    await user.paste('too short')
    expect(accept).toBeDisabled()
    await user.clear(reason)
    await user.paste(REASON)
    await user.click(accept)

    // The preview sent again replaces the acceptance's toast with its own (one toast at a time).
    await expectToast('Success', 'Preview fetched successfully')
    expect(callsTo('adminAcceptPriceException')).toEqual([
      {
        channel: 'adminAcceptPriceException',
        args: { creatorOrderId: '1001', reason: REASON },
      },
    ])
    expect(screen.queryByRole('dialog', { name: 'Accept price exception' })).toBeNull()
    expect(field('Creator Order', 'Name')).toBe('#1001')
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(2)
  })

  it('is not offered for a refusal no administrator can accept', async () => {
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        throw serverRefusal('fetch preview', 'Commission not found')
      },
    })
    await user.type(await screen.findByLabelText('Creator order ID'), '1002{Enter}')
    await expectToast('Failed to fetch preview', 'Commission not found', 'error')
    expect(screen.queryByRole('button', { name: 'Accept price exception' })).toBeNull()
  })
})

describe('An order Shopify found a risk of fraud on', () => {
  const FLAGGED =
    'Creator order #1001 may be fraudulent: Shopify recommends cancelling it; its fulfillment is on hold for a high risk of fraud. ' +
    `Review it in maya makes's Shopify admin and cancel it there if it is fraud; ${FRAUD_RELEASE_HINT}`
  const REASON = 'Called the customer, who confirmed the order'

  it('is offered for release, and only that, with a reason, then previewed again', async () => {
    let previews = 0
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        previews += 1
        if (previews === 1) throw serverRefusal('fetch preview', FLAGGED)
        return order1001()
      },
      adminReleaseFraudCheck: () => ({
        creatorOrderId: 'gid://shopify/Order/1001',
        findings: 'Shopify recommends cancelling it',
        releasedAt: '2026-11-25T10:00:00.000Z',
      }),
    })
    await user.type(await screen.findByLabelText('Creator order ID'), '1001{Enter}')
    await expectToast('Failed to fetch preview', FLAGGED, 'error')
    expect(screen.queryByRole('button', { name: 'Accept price exception' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Release for transfer' }))

    const dialog = await screen.findByRole('dialog', { name: 'Release for transfer' })
    expect(
      within(dialog).getByText(
        'Creator order 1001 will be transferred although Shopify found a risk of fraud on it: its brands ordered and paid. The release covers what Shopify found so far only, and the activity log keeps your reason.',
      ),
    ).toBeInTheDocument()
    const release = within(dialog).getByRole('button', { name: 'Release order' })
    await user.click(within(dialog).getByLabelText(/Reason/))
    await user.paste('genuine')
    expect(release).toBeDisabled()
    await user.paste(`, ${REASON}`)
    await user.click(release)

    await expectToast('Success', 'Preview fetched successfully')
    expect(callsTo('adminReleaseFraudCheck')).toEqual([
      {
        channel: 'adminReleaseFraudCheck',
        args: { creatorOrderId: '1001', reason: `genuine, ${REASON}` },
      },
    ])
    expect(screen.queryByRole('dialog', { name: 'Release for transfer' })).toBeNull()
    expect(field('Creator Order', 'Name')).toBe('#1001')
  })
})

describe('Opened with ?creatorOrderId= (Preview transfer on /main/orders)', () => {
  const OPENED_WITH_1001 = '/main/create-order-transfer?creatorOrderId=1001'

  it('fills in the ID and sends the preview at once, as if typed and sent', async () => {
    const answer = deferred<Preview>()
    const { callsTo } = renderTransfer(
      { adminPreviewOrderTransfer: () => answer.promise },
      OPENED_WITH_1001,
    )

    expect(await screen.findByLabelText('Creator order ID')).toHaveValue('1001')
    expect(sendButton()).toHaveTextContent('Sending...')
    expect(callsTo('adminPreviewOrderTransfer')).toEqual([
      { channel: 'adminPreviewOrderTransfer', args: { creatorOrderId: '1001' } },
    ])

    await act(async () => answer.resolve(order1001()))
    await expectToast('Success', 'Preview fetched successfully')
    expect(field('Creator Order', 'Name')).toBe('#1001')
  })

  it('sends once per navigation: not again on typing or Clear, again on a new navigation', async () => {
    const { user, router, callsTo } = renderTransfer({}, OPENED_WITH_1001)
    await screen.findByRole('region', { name: 'Creator Order' })

    await user.click(clearButton())
    await user.type(orderInput(), '10')
    expect(orderInput()).toHaveValue('10')
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(1)

    // Another order, from another "Preview transfer", while the page is open.
    await act(() => router.navigate('/main/create-order-transfer?creatorOrderId=1004'))
    await waitFor(() => expect(orderInput()).toHaveValue('1004'))
    await waitFor(() => expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(2))
    expect(callsTo('adminPreviewOrderTransfer')[1]?.args).toEqual({ creatorOrderId: '1004' })

    // The same order again: a new navigation, so a new preview.
    await act(() => router.navigate(OPENED_WITH_1001))
    await waitFor(() => expect(orderInput()).toHaveValue('1001'))
    await waitFor(() => expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(3))
  })

  it('shows a refused preview as a typed one would be', async () => {
    renderTransfer(
      {
        adminPreviewOrderTransfer: () => {
          throw serverRefusal('fetch preview', 'Commission not found')
        },
      },
      '/main/create-order-transfer?creatorOrderId=1002',
    )
    await expectToast('Failed to fetch preview', 'Commission not found', 'error')
    expect(refusalOnPage('Tandem cannot transfer creator order 1002')).toHaveTextContent(
      'Commission not found',
    )
    expect(orderInput()).toHaveValue('1002')
  })

  it('sends nothing when opened without it', async () => {
    const { callsTo } = renderTransfer()
    expect(await screen.findByLabelText('Creator order ID')).toHaveValue('')
    expect(screen.getByText(/Enter a creator order ID and press Send/)).toBeInTheDocument()
    expect(callsTo('adminPreviewOrderTransfer')).toHaveLength(0)
  })
})

describe('Summary', () => {
  it("shows the creator order's fields, with amounts in the preview currency", async () => {
    const { user } = renderTransfer()
    await previewOrder(user)

    expect(field('Creator Order', 'Name')).toBe('#1001')
    expect(field('Creator Order', 'ID')).toBe('gid://shopify/Order/1001')
    expect(field('Creator Order', 'Email')).toBe('jane@example.com')
    expect(field('Creator Order', 'Created')).toBe(formatDateTime('2026-11-02T15:04:00.000Z'))
    // Subtotal, shipping and tax add up to the total, as the card shows them.
    expect(field('Creator Order', 'Subtotal')).toBe('$175.50')
    expect(field('Creator Order', 'Shipping')).toBe('$8.00')
    expect(field('Creator Order', 'Tax')).toBe('$14.04')
    expect(field('Creator Order', 'Total')).toBe('$197.54')
    expect(field('Creator Order', 'Shipping address')).toBe(
      'Jane Doe\n1 Main St\nPortland 97201\nUS',
    )
  })

  it('lists every line, with their title and quantity fallbacks and the lines from no brand marked', async () => {
    const { user } = renderTransfer()
    await previewOrder(user)

    expect(tableRows('Line Items')).toEqual([
      ['', 'Linen OvershirtFrom northwind apparel', '…/LineItem/10011', '2', '$68.00', '$136.00'],
      ['', 'Rosehip Face OilFrom lumen botanicals', '…/LineItem/10012', '1', '$34.50', '$34.50'],
      ['', 'Sticker PackNot from a brand', '…/LineItem/10013', '1', '$5.00', '$5.00'],
    ])
    const images = within(card('Line Items')).getAllByRole('img')
    expect(images[0]).toHaveAttribute('alt', 'Linen Overshirt')
    expect(images[0]).toHaveAttribute(
      'src',
      'http://127.0.0.1:4000/images/products/linen-overshirt.svg',
    )
    // Lines without an image show a placeholder, named for a screen reader.
    expect(within(card('Line Items')).getAllByLabelText('No image')).toHaveLength(2)
    // Shopify's ids short on screen: whole on hover, and copied whole.
    const lines = card('Line Items')
    expect(within(lines).getByText('…/LineItem/10011')).toHaveAttribute(
      'title',
      'gid://shopify/LineItem/10011',
    )
    expect(
      within(lines).getByRole('button', { name: 'Copy gid://shopify/LineItem/10011' }),
    ).toBeInTheDocument()
    expect(within(lines).queryByText(/^gid:/)).not.toBeInTheDocument()
  })

  it("shows each brand's transfer, with no brand order before processing, and the totals", async () => {
    const { user } = renderTransfer()
    await previewOrder(user)

    expect(tableRows('Brand Transfers')).toEqual([
      [`northwind apparel${NORTHWIND}`, '-', '$102.00', '$20.40', '$13.60'],
      [`lumen botanicals${LUMEN}`, '-', '$24.84', '$6.90', '$2.76'],
    ])
    expect(
      within(card('Brand Transfers'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Brand store',
      'Brand order',
      'Brand amount',
      'Creator commission',
      'Tandem commission',
    ])
    expect(field('Totals', 'Total brand amount')).toBe('$126.84')
    expect(field('Totals', 'Total creator commission')).toBe('$27.30')
    expect(field('Totals', 'Total tandem commission')).toBe('$16.36')
    expect(screen.getByText('Not started')).toBeInTheDocument()
    // Nothing has moved before processing: there is no money trail to show.
    expect(screen.queryByRole('region', { name: 'Money trail' })).not.toBeInTheDocument()
  })

  it('folds the ids under the names in a narrow window, so that every figure stays in view', async () => {
    narrowWindow()
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => order1001({ brandOrderIds: ['5001', '5002'] }),
    })
    await previewOrder(user)

    const headers = (cardTitle: string) =>
      within(card(cardTitle))
        .getAllByRole('columnheader')
        .map((header) => header.textContent)
    expect(headers('Brand Transfers')).toEqual([
      'Brand store',
      'Brand amount',
      'Creator commission',
      'Tandem commission',
    ])
    expect(tableRows('Brand Transfers')).toEqual([
      [`northwind apparel${NORTHWIND}5001`, '$102.00', '$20.40', '$13.60'],
      [`lumen botanicals${LUMEN}5002`, '$24.84', '$6.90', '$2.76'],
    ])
    expect(headers('Line Items')).toEqual(['Image', 'Title', 'Quantity', 'Unit price', 'Total'])
    expect(tableRows('Line Items')[0]).toEqual([
      '',
      'Linen OvershirtFrom northwind apparel…/LineItem/10011',
      '2',
      '$68.00',
      '$136.00',
    ])
  })

  it('shows the money trail once processed: each transfer, reversal and amount owed, with Stripe ids', async () => {
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () =>
        order1001({ brandOrderIds: ['5001', '5002'], moneyTrail: ORDER_1001_TRAIL }),
    })
    await previewOrder(user)

    expect(
      within(card('Money trail'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['When', 'What happened', 'Stripe ID', 'Amount'])
    expect(tableRows('Money trail')).toEqual([
      [
        formatDateTime('2026-11-03T09:00:00.000Z'),
        'Paid to northwind apparel, the brand.',
        'tr_sandbox_1001_northwind',
        '$102.00',
      ],
      [
        formatDateTime('2026-11-03T09:00:01.000Z'),
        'Paid to lumen botanicals, the brand.',
        'tr_sandbox_1001_lumen',
        '$24.84',
      ],
      [
        formatDateTime('2026-11-03T09:05:00.000Z'),
        'Commission paid to maya makes, the creator.',
        'tr_sandbox_1001_maya',
        '$27.30',
      ],
      [
        formatDateTime('2026-11-04T14:20:00.000Z'),
        "Owed by northwind apparel, the brand, after a refund: Stripe could not take it back from the account's balance.",
        'tr_sandbox_1001_northwind',
        '$51.00',
      ],
      [
        formatDateTime('2026-11-04T14:20:01.000Z'),
        'Taken back from maya makes, the creator, after a refund.',
        'trr_sandbox_1001_maya',
        '$10.20',
      ],
    ])
    expect(
      within(card('Money trail')).getByRole('button', { name: 'Copy trr_sandbox_1001_maya' }),
    ).toBeInTheDocument()
  })

  it('says no money has moved yet for a transfer begun that has paid nobody', async () => {
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        const partial = order1001()
        return { ...partial, preview: { ...partial.preview, status: 'PARTIAL' as const } }
      },
    })
    await previewOrder(user)
    expect(within(card('Money trail')).getByText('No money has moved yet.')).toBeInTheDocument()
  })

  it('shows euros for an order in EUR and yen without decimals for one in JPY', async () => {
    const euros = order1001({ currency: 'EUR' })
    const yen = order1001({ currency: 'JPY' })
    yen.preview.totals = {
      totalBrandAmount: '10200',
      totalCreatorCommissionAmount: '2040',
      totalTandemCommissionAmount: '1360',
    }
    let answer = euros
    const { user } = renderTransfer({ adminPreviewOrderTransfer: () => answer })
    await previewOrder(user, '1005')
    expect(field('Totals', 'Total brand amount')).toBe('€126.84')
    expect(tableRows('Brand Transfers')[0]?.slice(2)).toEqual(['€102.00', '€20.40', '€13.60'])

    answer = yen
    await user.click(sendButton())
    await waitFor(() => expect(field('Totals', 'Total brand amount')).toBe('¥10,200'))
    expect(field('Totals', 'Total creator commission')).toBe('¥2,040')
    expect(field('Totals', 'Total tandem commission')).toBe('¥1,360')
  })

  it('shows "-" for a missing email, address, quantity, title, or an amount that is not a number', async () => {
    const odd = order1001()
    odd.creatorOrder.email = null as unknown as string
    odd.creatorOrder.shippingAddress = null as unknown as typeof odd.creatorOrder.shippingAddress
    odd.creatorOrder.currentTotalTaxSet = money('')
    const line = odd.creatorOrder.lineItems.nodes[2] as Record<string, unknown>
    line.title = null
    line.quantity = null
    line.currentQuantity = null
    odd.preview.brands[0]!.brandAmount = 'NaN'
    const { user } = renderTransfer({ adminPreviewOrderTransfer: () => odd })
    await previewOrder(user)

    expect(field('Creator Order', 'Email')).toBe('-')
    expect(field('Creator Order', 'Shipping address')).toBe('-')
    expect(field('Creator Order', 'Tax')).toBe('-')
    expect(tableRows('Line Items')[2]).toEqual([
      '',
      '-Not from a brand',
      '…/LineItem/10013',
      '-',
      '$5.00',
      '$5.00',
    ])
    expect(tableRows('Brand Transfers')[0]?.slice(1, 3)).toEqual(['-', '-'])
  })
})

describe('Receipt', () => {
  it('fetches the receipt on the first opening of its tab only, and reuses it', async () => {
    const receipt = deferred<FetchedReceipt>()
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransferReceiptPdf: () => receipt.promise,
    })
    await previewOrder(user)
    expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(0)

    await user.click(tab('Receipt'))
    expect(screen.getByText('Fetching receipt preview...')).toBeInTheDocument()
    await act(async () => receipt.resolve(RECEIPT))
    await expectToast('Success', 'Receipt PDF fetched')
    await screen.findByRole('region', { name: 'Receipt #1001' })

    await user.click(tab('Summary'))
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })
    expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toEqual([
      { channel: 'adminPreviewOrderTransferReceiptPdf', args: { creatorOrderId: '1001' } },
    ])
  })

  it('asks for a new receipt after a new preview, at once when its tab is open', async () => {
    const { user, callsTo } = renderTransfer()
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })

    await user.click(sendButton())
    await waitFor(() => expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(2))
  })

  it('shows the failure with its reason and tries again on Retry', async () => {
    let attempts = 0
    const { user } = renderTransfer({
      adminPreviewOrderTransferReceiptPdf: () => {
        attempts += 1
        if (attempts === 1) throw serverRefusal('fetch receipt PDF', 'Commission not found')
        return RECEIPT
      },
    })
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await expectToast('Failed to fetch receipt PDF', 'Commission not found', 'error')

    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await expectToast('Success', 'Receipt PDF fetched')
    expect(attempts).toBe(2)
  })

  it('tells the receipt tab has nothing to show before a preview', async () => {
    const { user, callsTo } = renderTransfer()
    await user.click(await screen.findByRole('tab', { name: 'Receipt' }))
    expect(
      screen.getByText('Enter a creator order ID and press Send to preview its transfer.'),
    ).toBeVisible()
    expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(0)
  })

  it('saves the receipt shown under its default name, and says where', async () => {
    const { user, callsTo } = renderTransfer({
      'receipt/save': (): SavedFile => ({
        saved: true,
        path: '/home/admin/tandem-receipt-#1001.pdf',
      }),
    })
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await user.click(await screen.findByRole('button', { name: 'Save PDF' }))

    await expectToast('Receipt saved', 'Saved to /home/admin/tandem-receipt-#1001.pdf')
    expect(callsTo('receipt/save')).toEqual([
      {
        channel: 'receipt/save',
        args: { receiptId: RECEIPT_ID, suggestedName: 'tandem-receipt-1001.pdf' },
      },
    ])
  })

  it('says nothing when the save dialog is cancelled, and why a save failed', async () => {
    let saves = 0
    const { user } = renderTransfer({
      'receipt/save': (): SavedFile => {
        saves += 1
        if (saves === 1) return { saved: false, path: null }
        throw new BridgeError({ message: 'The disk is full.' })
      },
    })
    await previewOrder(user)
    await user.click(tab('Receipt'))
    const save = await screen.findByRole('button', { name: 'Save PDF' })
    await user.click(save)
    // The answer is handled once the button stops showing it is busy.
    await waitFor(() => expect(saves).toBe(1))
    await waitFor(() => expect(save).not.toHaveAttribute('data-loading'))
    expect(screen.queryByText('Receipt saved')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save PDF' }))
    await expectToast('Failed to save receipt PDF', 'The disk is full.', 'error')
  })
})

describe('Receipts in flight', () => {
  it("shows and saves the latest preview's receipt, whichever answer lands last", async () => {
    const receipts = [deferred<FetchedReceipt>(), deferred<FetchedReceipt>()]
    const secondPreview = deferred<Preview>()
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransfer: () =>
        callsTo('adminPreviewOrderTransfer').length === 1 ? order1001() : secondPreview.promise,
      adminPreviewOrderTransferReceiptPdf: () =>
        receipts[callsTo('adminPreviewOrderTransferReceiptPdf').length - 1]!.promise,
      'receipt/save': (): SavedFile => ({ saved: true, path: '/tmp/r.pdf' }),
    })
    await previewOrder(user)
    // The Receipt tab opens while another preview is on its way: the receipt of the one shown
    // is asked for, then the new preview's when it arrives.
    await user.click(sendButton())
    await user.click(tab('Receipt'))
    await act(async () => secondPreview.resolve(order1001()))
    await waitFor(() => expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(2))

    const latest = { receiptId: 'c1f4bd6e-3f5b-4c4e-9a55-0b8f3b0f6a11', bytes: PDF_BYTES }
    await act(async () => receipts[1]!.resolve(latest))
    await act(async () => receipts[0]!.resolve(RECEIPT))
    await user.click(await screen.findByRole('button', { name: 'Save PDF' }))
    await expectToast('Receipt saved', 'Saved to /tmp/r.pdf')
    expect(callsTo('receipt/save')[0]?.args).toMatchObject({ receiptId: latest.receiptId })
  })
})

describe('Clear', () => {
  it('resets the ID, the preview and the receipt', async () => {
    const { user, callsTo } = renderTransfer()
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })

    await user.click(clearButton())
    expect(orderInput()).toHaveValue('')
    expect(screen.queryByRole('region', { name: 'Receipt #1001' })).not.toBeInTheDocument()
    await user.click(tab('Summary'))
    expect(screen.queryByRole('region', { name: 'Creator Order' })).not.toBeInTheDocument()

    // The same order again: its receipt is fetched anew.
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })
    expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(2)
  })

  it('drops a preview that arrives after Clear', async () => {
    const answer = deferred<Preview>()
    const { user } = renderTransfer({ adminPreviewOrderTransfer: () => answer.promise })
    await user.type(await screen.findByLabelText('Creator order ID'), '1001')
    await user.click(sendButton())
    await user.click(clearButton())
    expect(sendButton()).toHaveTextContent('Send')

    await act(async () => answer.resolve(order1001()))
    expect(screen.queryByRole('region', { name: 'Creator Order' })).not.toBeInTheDocument()
    expect(screen.queryByText('Preview fetched successfully')).not.toBeInTheDocument()
  })
})

describe('Processing', () => {
  it('asks first, and Cancel processes nothing', async () => {
    const { user, callsTo } = renderTransfer()
    await previewOrder(user)
    await user.click(processButton())

    const dialog = await screen.findByRole('dialog', { name: 'Confirm processing transfer' })
    // What moves, from the preview, then the specification's question word for word.
    expect(dialog).toHaveTextContent(
      'Pays 2 brands $126.84 in all (northwind apparel $102.00, lumen botanicals $24.84). ' +
        'This will create the brand orders and finalize the transfer. Continue?',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(callsTo('adminCreateOrderTransfer')).toHaveLength(0)
  })

  it('says what moves in the currency the charge settled in, with the order’s amount and rate', async () => {
    // Order 1005: paid in euros, its charge settled in dollars at 1.16.
    const euros = order1001({ currency: 'EUR' })
    const northwind = {
      brandStoreShop: 'northwind-apparel.myshopify.com',
      brandOrderId: null,
      ...splitParts('46.50', '9.30', '6.20'),
      settlement: {
        currency: 'USD',
        exchangeRate: '1.16',
        ...splitParts('53.94', '10.79', '7.19'),
      },
    }
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () => ({
        ...euros,
        preview: {
          ...euros.preview,
          brands: [northwind],
          totals: {
            totalBrandAmount: '46.50',
            totalCreatorCommissionAmount: '9.30',
            totalTandemCommissionAmount: '6.20',
          },
          settledTotals: { currency: 'USD', totalBrandAmount: '53.94' },
        },
      }),
    })
    await previewOrder(user)
    await user.click(processButton())

    const dialog = await screen.findByRole('dialog', { name: 'Confirm processing transfer' })
    expect(dialog).toHaveTextContent(
      "Pays 1 brand $53.94 in all (northwind apparel $53.94): the order's €46.50 at the " +
        "charge's rate, 1 EUR = 1.16 USD. " +
        'This will create the brand orders and finalize the transfer. Continue?',
    )
  })

  it('processes on Confirm, then shows the brand orders and the processed receipt', async () => {
    const processing = deferred<ChannelResult<'adminCreateOrderTransfer'>>()
    let processed = false
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransfer: () =>
        processed
          ? order1001({ brandOrderIds: ['gid://shopify/Order/5001', 'gid://shopify/Order/5002'] })
          : order1001(),
      adminCreateOrderTransfer: () => processing.promise,
    })
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })

    await user.click(processButton())
    const dialog = await screen.findByRole('dialog', { name: 'Confirm processing transfer' })
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }))
    expect(callsTo('adminCreateOrderTransfer')).toEqual([
      { channel: 'adminCreateOrderTransfer', args: { creatorOrderId: '1001' } },
    ])
    expect(processButton()).toBeDisabled()
    // No other order is previewed meanwhile: the screen stays on the one being processed.
    expect(sendButton()).toBeDisabled()

    processed = true
    await act(async () =>
      processing.resolve({
        creatorOrderId: '1001',
        status: 'COMPLETED',
        processedAt: '2026-11-03T09:00:00.000Z',
        brandOrders: [],
      }),
    )
    await expectToast('Success', 'Order transfer processed')
    // The receipt tab was open: the processed receipt replaces the preview's.
    await waitFor(() => expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(2))
    await user.click(tab('Summary'))
    await waitFor(() =>
      expect(tableRows('Brand Transfers').map((row) => row[1])).toEqual([
        '…/Order/5001',
        '…/Order/5002',
      ]),
    )
    expect(processButton()).toBeDisabled()
    expect(
      screen.getByText(`Processed ${formatDateTime('2026-11-03T09:00:00.000Z')}`),
    ).toBeVisible()
  })

  it('says why processing was refused, and shows where the transfer stands', async () => {
    let refused = false
    const { user } = renderTransfer({
      adminPreviewOrderTransfer: () =>
        refused
          ? order1001({ brandOrderIds: ['gid://shopify/Order/5001', 'gid://shopify/Order/5002'] })
          : order1001(),
      adminCreateOrderTransfer: () => {
        refused = true
        throw serverRefusal('process transfer', 'Order transfer already processed')
      },
    })
    await previewOrder(user)
    await user.click(processButton())
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }),
    )

    await expectToast('Failed to process transfer', 'Order transfer already processed', 'error')
    await waitFor(() => expect(processButton()).toBeDisabled())
    expect(tableRows('Brand Transfers')[0]?.[1]).toBe('…/Order/5001')
  })

  it('still shows the brand orders when the preview cannot be read again after processing', async () => {
    let previews = 0
    const { user, callsTo } = renderTransfer({
      adminPreviewOrderTransfer: () => {
        previews += 1
        if (previews === 1) return order1001()
        throw serverRefusal('fetch preview', 'The server did not answer in time.')
      },
      adminCreateOrderTransfer: () => ({
        creatorOrderId: '1001',
        status: 'COMPLETED',
        processedAt: '2026-11-03T09:00:00.000Z',
        brandOrders: [
          { brandStoreShop: NORTHWIND, brandOrderId: 'gid://shopify/Order/5001' },
          { brandStoreShop: LUMEN, brandOrderId: 'gid://shopify/Order/5002' },
        ],
      }),
    })
    await previewOrder(user)
    await user.click(tab('Receipt'))
    await screen.findByRole('region', { name: 'Receipt #1001' })
    await user.click(tab('Summary'))
    await user.click(processButton())
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }),
    )

    await expectToast('Success', 'Order transfer processed')
    await waitFor(() =>
      expect(tableRows('Brand Transfers').map((row) => row[1])).toEqual([
        '…/Order/5001',
        '…/Order/5002',
      ]),
    )
    expect(processButton()).toBeDisabled()
    // The receipt shown before was the preview's: it is fetched again when its tab opens.
    await user.click(tab('Receipt'))
    await waitFor(() => expect(callsTo('adminPreviewOrderTransferReceiptPdf')).toHaveLength(2))
  })
})
