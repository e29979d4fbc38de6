import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { ChannelResult } from '@shared/ipc'
import { order1001Preview } from '../support/sandbox-figures'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { transferPageAnswers } from './support/fakes/transfer-page'
import { renderApp } from './support/render-app'
import { cellTexts } from './support/table'
import { formatDateTime } from '@renderer/lib/format'

// A refund's split before it runs (issue 33), on the transfer screen of a completed transfer: the
// administrator chooses units, and sees what would go back from each brand, the creator and
// Tandem, and what each keeps.

type Split = ChannelResult<'adminPreviewRefundSplit'>
type Preview = ChannelResult<'adminPreviewOrderTransfer'>

function processed1001(
  status: 'COMPLETED' | 'PARTIAL' = 'COMPLETED',
  refundWaiting: Preview['preview']['refundWaiting'] = null,
) {
  const answer = order1001Preview('http://127.0.0.1:4000')
  return {
    ...answer,
    preview: { ...answer.preview, status, processedAt: '2026-11-03T09:00:00Z', refundWaiting },
  }
}

/** What the refund job's last run said while the customer was not yet refunded in Stripe. */
const NOT_REFUNDED_IN_STRIPE =
  "Stripe shows 0.00 USD refunded of charge ch_sandbox_order_1001 since the transfer of creator order 1001 (0.00 USD in all), less than the 68.00 USD Shopify's refunds gave back for the brands' units refunded since: nothing goes back until the customer is refunded"

async function openTransfer(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    ...transferPageAnswers(),
    adminPreviewOrderTransfer: () => processed1001(),
    ...answers,
  })
  renderApp(fake.bridge, '/main/create-order-transfer?creatorOrderId=1001')
  await screen.findByRole('region', { name: 'Creator Order' })
  return { ...fake, user: userEvent.setup() }
}

const card = () => screen.getByRole('region', { name: 'Refund split' })
const unitsOf = (title: string) =>
  within(card()).getByRole('textbox', { name: `Units of ${title} to refund` })
const previewButton = () => within(card()).getByRole('button', { name: 'Preview refund split' })

/** The split's rows: party, what goes back, what it keeps. */
const splitRows = () =>
  within(within(card()).getAllByRole('table').at(-1)!).getAllByRole('row').slice(1).map(cellTexts)

describe('The refund split', () => {
  it('says what refunding an overshirt would take back from each party, and what each keeps', async () => {
    const { user, callsTo } = await openTransfer()

    // The brands' lines only: the creator's own stickers are no brand's.
    expect(within(card()).getByText('Linen Overshirt')).toBeInTheDocument()
    expect(within(card()).queryByText('Sticker Pack')).not.toBeInTheDocument()
    await user.clear(unitsOf('Linen Overshirt'))
    await user.type(unitsOf('Linen Overshirt'), '1')
    await user.click(previewButton())

    expect(callsTo('adminPreviewRefundSplit').map((call) => call.args)).toEqual([
      {
        creatorOrderId: 'gid://shopify/Order/1001',
        lines: [{ lineItemId: 'gid://shopify/LineItem/10011', quantity: 1 }],
      },
    ])
    expect(
      await within(card()).findByText(
        'Refunding 1 more unit would take back, with the refunds already made:',
      ),
    ).toBeInTheDocument()
    expect(splitRows()).toEqual([
      ['northwind apparel, the brand (1 unit refunded)', '$51.00', '$51.00'],
      ['lumen botanicals, the brand (0 units refunded)', '$0.00', '$24.84'],
      ['maya makes, the creator', '$10.20', '$17.10'],
      ['Tandem, the platform', '$6.80', '$9.56'],
    ])

    // Another choice: the split shown was that of the last one, and goes.
    await user.type(unitsOf('Rosehip Face Oil'), '1')
    expect(within(card()).queryByText(/would take back/)).not.toBeInTheDocument()
  })

  it('shows the split of the refunds already made when no unit is chosen', async () => {
    const { user, callsTo } = await openTransfer()
    await user.click(previewButton())
    expect(
      await within(card()).findByText('The refunds already made take back:'),
    ).toBeInTheDocument()
    expect(callsTo('adminPreviewRefundSplit').map((call) => call.args)).toEqual([
      { creatorOrderId: 'gid://shopify/Order/1001', lines: [] },
    ])
  })

  // Two overshirts are still sold: 3, -5, 1.5 or "10,5" stay as typed and are refused under the
  // field in the words the server refuses them in (tests/server/refund-split-preview.test.ts).
  it.each(['3', '-5', '1.5', '10,5'])(
    'refuses %s units of a line under its field and asks for no split',
    async (typed) => {
      const { user, callsTo } = await openTransfer()

      await user.type(unitsOf('Linen Overshirt'), typed)

      expect(unitsOf('Linen Overshirt')).toHaveValue(typed)
      expect(unitsOf('Linen Overshirt')).toBeInvalid()
      expect(unitsOf('Linen Overshirt')).toHaveAccessibleDescription(
        'Must be a whole number from 0 to 2, the units still sold',
      )
      expect(previewButton()).toBeDisabled()
      await user.click(previewButton())
      expect(callsTo('adminPreviewRefundSplit')).toEqual([])
    },
  )

  it('says on the order that a refund made waits on Stripe, why, and when it is tried again', async () => {
    const at = '2026-11-05T10:00:00.000Z'
    const { user } = await openTransfer({
      adminPreviewOrderTransfer: () =>
        processed1001('COMPLETED', { reason: NOT_REFUNDED_IN_STRIPE, state: 'RETRYING', at }),
    })
    const trail = screen.getByRole('region', { name: 'Money trail' })
    const waits = within(trail).getByRole('alert', { name: 'A refund has not gone back yet' })
    expect(waits).toHaveTextContent(NOT_REFUNDED_IN_STRIPE)
    expect(waits).toHaveTextContent(`Tandem tries again at ${formatDateTime(at)}.`)

    // The split of the refunds made says they have not gone back yet.
    await user.click(previewButton())
    expect(
      await within(card()).findByText(
        'The refunds already made will take back, once their refund goes through (the money trail says why it waits):',
      ),
    ).toBeInTheDocument()
  })

  it('says when Tandem stopped trying a waiting refund, with the Jobs page to retry it from', async () => {
    const at = '2026-11-08T10:00:00.000Z'
    await openTransfer({
      adminPreviewOrderTransfer: () =>
        processed1001('COMPLETED', { reason: NOT_REFUNDED_IN_STRIPE, state: 'DEAD', at }),
    })
    const waits = screen.getByRole('alert', { name: 'A refund has not gone back yet' })
    expect(waits).toHaveTextContent(`Tandem stopped trying at ${formatDateTime(at)}`)
    expect(within(waits).getByRole('link', { name: 'Jobs page' })).toHaveAttribute(
      'href',
      '/main/jobs',
    )
  })

  it('is busy while the server splits, and says why it refused', async () => {
    const answer = deferred<Split>()
    const { user } = await openTransfer({ adminPreviewRefundSplit: () => answer.promise })
    await user.click(previewButton())
    expect(previewButton()).toHaveAttribute('data-loading', 'true')
    await act(async () =>
      answer.reject(
        serverRefusal(
          'preview refund split',
          'Units to refund of Linen Overshirt of creator order #1001 must be a whole number from 0 to 1, the units still sold',
        ),
      ),
    )
    expect(
      within(card()).getByText(
        'Units to refund of Linen Overshirt of creator order #1001 must be a whole number from 0 to 1, the units still sold',
      ),
    ).toBeInTheDocument()
    expect(within(card()).getByText('Failed to preview refund split')).toBeInTheDocument()
  })

  it('is not offered before the transfer is complete', async () => {
    await openTransfer({ adminPreviewOrderTransfer: () => processed1001('PARTIAL') })
    expect(screen.getByRole('region', { name: 'Money trail' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Refund split' })).not.toBeInTheDocument()
  })
})
