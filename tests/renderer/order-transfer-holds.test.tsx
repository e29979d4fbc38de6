import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { CreatorOrderSummary, OrderReadiness } from '@shared/contract'
import { formatDateTime } from '@renderer/lib/format'
import { creatorOrder } from './support/creator-orders'
import { SIGNED_IN, fakeBridge, serverRefusal, type FakeAnswers } from './support/fake-bridge'
import { transferPageAnswers } from './support/fakes/transfer-page'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

// Issue 32 on the transfer screen, as an administrator sees it: where the previewed order stands
// (held by whom, why and since when), with Hold and Release as in the orders inbox. A held order
// is still processed by hand.

const REASON = 'The customer asked to change the size'
const HELD_AT = '2026-11-06T16:00:00.000Z'

/**
 * The transfer screen over a server whose order 1001 stands at `readiness` until a hold or release
 * changes it; the inbox's search by id finds it (and, as the server's search does, 11001 too).
 */
function transferScreen(
  readiness: OrderReadiness = { state: 'MANUAL' },
  answers: FakeAnswers = {},
) {
  let current: CreatorOrderSummary = creatorOrder('1001', { readiness })
  const fake = fakeBridge({
    ...transferPageAnswers(),
    adminCreatorOrders: ({ q }) => ({
      orders: q === '1001' ? [creatorOrder('11001'), current] : [],
      nextCursor: null,
    }),
    adminHoldOrder: ({ creatorOrderId, reason }) => {
      current = {
        ...current,
        readiness: { state: 'HELD', reason, by: SIGNED_IN.email, since: HELD_AT },
      }
      return { creatorOrderId, reason, heldBy: SIGNED_IN.email, heldAt: HELD_AT }
    },
    adminReleaseOrder: ({ creatorOrderId }) => {
      current = { ...current, readiness: { state: 'MANUAL' } }
      return {
        released: { creatorOrderId, reason: REASON, heldBy: SIGNED_IN.email, heldAt: HELD_AT },
      }
    },
    ...answers,
  })
  renderApp(fake.bridge, '/main/create-order-transfer?creatorOrderId=1001')
  const listNext = (order: CreatorOrderSummary) => (current = order)
  return { ...fake, listNext, user: userEvent.setup() }
}

/** Where the previewed order stands, as the screen says it. */
const standing = () => screen.findByRole('region', { name: 'Automatic transfer' })
const holdDialog = () => within(screen.getByRole('dialog', { name: 'Hold order' }))
const processButton = () => screen.getByRole('button', { name: 'Process transfer' })

describe('The transfer screen: where the order stands', () => {
  it('says what will happen to the previewed order, with Hold', async () => {
    const { callsTo } = transferScreen({ state: 'WAITING', until: '2026-11-06T14:32:00.000Z' })

    expect(await standing()).toHaveTextContent(
      `Transfers automatically at ${formatDateTime('2026-11-06T14:32:00.000Z')}`,
    )
    expect(within(await standing()).getByRole('button', { name: 'Hold #1001' })).toBeEnabled()
    expect(callsTo('adminCreatorOrders').map((call) => call.args)).toEqual([
      { q: '1001', limit: 50 },
    ])
  })

  it('shows a held order by whom, why and since when, with Release, and still processes it', async () => {
    transferScreen({ state: 'HELD', reason: REASON, by: 'ops@tandem.test', since: HELD_AT })

    expect(await standing()).toHaveTextContent(
      `Held: ${REASON} (ops@tandem.test, since ${formatDateTime(HELD_AT)})`,
    )
    expect(within(await standing()).getByRole('button', { name: 'Release #1001' })).toBeEnabled()
    expect(processButton()).toBeEnabled()
  })

  // A reason typed key by key, a hold and a release: longer than most tests on a busy machine.
  it(
    'holds the order with the reason typed, says it is held, and Release brings it back',
    { timeout: 15_000 },
    async () => {
      const { user, callsTo } = transferScreen()
      await user.click(within(await standing()).getByRole('button', { name: 'Hold #1001' }))
      expect(holdDialog().getByText(/leave order #1001 until you release it/)).toBeInTheDocument()
      await user.type(holdDialog().getByLabelText('Reason'), REASON)
      await user.click(holdDialog().getByRole('button', { name: 'Hold' }))

      await expectToast('Success', 'Order held.')
      expect(callsTo('adminHoldOrder').map((call) => call.args)).toEqual([
        { creatorOrderId: '1001', reason: REASON },
      ])
      await waitFor(async () =>
        expect(await standing()).toHaveTextContent(
          `Held: ${REASON} (${SIGNED_IN.email}, since ${formatDateTime(HELD_AT)})`,
        ),
      )
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
      // An administrator's click still processes a held order.
      expect(processButton()).toBeEnabled()

      await user.click(within(await standing()).getByRole('button', { name: 'Release #1001' }))
      await expectToast('Success', 'Order released.')
      expect(callsTo('adminReleaseOrder').map((call) => call.args)).toEqual([
        { creatorOrderId: '1001' },
      ])
      await waitFor(async () =>
        expect(await standing()).toHaveTextContent('Waits for an administrator'),
      )
      expect(within(await standing()).getByRole('button', { name: 'Hold #1001' })).toBeEnabled()
    },
  )

  it('processes a held order by hand, then says where it stands now', async () => {
    const { user, listNext } = transferScreen(
      { state: 'HELD', reason: REASON, by: 'ops@tandem.test', since: HELD_AT },
      {
        adminCreateOrderTransfer: ({ creatorOrderId }) => ({
          creatorOrderId,
          status: 'COMPLETED',
          processedAt: '2026-11-06T17:00:00.000Z',
          brandOrders: [],
        }),
      },
    )
    expect(await standing()).toHaveTextContent('Held')
    expect(processButton()).toBeEnabled()

    // Once processed, the server lists the order as completed.
    listNext(
      creatorOrder('1001', { transferStatus: 'COMPLETED', readiness: { state: 'COMPLETED' } }),
    )
    await user.click(processButton())
    await user.click(
      within(screen.getByRole('dialog', { name: 'Confirm processing transfer' })).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    )

    await expectToast('Success', 'Order transfer processed')
    await waitFor(async () => expect(await standing()).toHaveTextContent('Completed'))
  })

  it("shows the server's refusal of a hold in the dialog, and the order as it was", async () => {
    const refusal = 'Creator order 1001 is already transferred'
    const { user } = transferScreen(undefined, {
      adminHoldOrder: () => {
        throw serverRefusal('hold order', refusal)
      },
    })
    await user.click(within(await standing()).getByRole('button', { name: 'Hold #1001' }))
    await user.type(holdDialog().getByLabelText('Reason'), REASON)
    await user.click(holdDialog().getByRole('button', { name: 'Hold' }))

    await expectToast('Failed to hold order', refusal, 'error')
    expect(holdDialog().getByText(refusal)).toBeInTheDocument()
    expect(await standing()).toHaveTextContent('Waits for an administrator')
  })

  it('says what an order whose preview is refused needs, with Hold', async () => {
    const reason =
      'Commission not found: ironpeak outdoor has no default commission: set it on its store page'
    transferScreen(
      { state: 'NEEDS_ATTENTION', reasons: [{ sentence: reason, remedy: null }] },
      {
        adminPreviewOrderTransfer: () => {
          throw serverRefusal('fetch preview', reason)
        },
      },
    )

    expect(await standing()).toHaveTextContent(`Needs attention${reason}`)
    expect(within(await standing()).getByRole('button', { name: 'Hold #1001' })).toBeEnabled()
    await expectToast('Failed to fetch preview', reason, 'error')
  })

  it('previews the order without saying where it stands when that cannot be read', async () => {
    transferScreen(undefined, {
      adminCreatorOrders: () => {
        throw new Error('The server did not answer in time.')
      },
    })
    await screen.findByRole('region', { name: 'Creator Order' })
    expect(processButton()).toBeEnabled()
    expect(screen.queryByRole('region', { name: 'Automatic transfer' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^(Hold|Release) #/ })).not.toBeInTheDocument()
  })
})
