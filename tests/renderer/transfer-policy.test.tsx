import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import type { TransferPolicy } from '@shared/contract'
import { useOrdersPage } from '@renderer/features/orders/orders-page-state'
import { formatDateTime } from '@renderer/lib/format'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

// docs/product-rules.md "The transfer policy": the Orders page's Transfer policy tab, as an
// administrator sees and changes it.

const SINCE = '2026-11-27T09:00:00.000Z'
const AUTOMATIC: TransferPolicy = { mode: 'AUTOMATIC', holdMinutes: 10, automaticSince: SINCE }
const MANUAL: TransferPolicy = { mode: 'MANUAL', holdMinutes: 10, automaticSince: null }

// The page's tab outlives it by design; each test starts on the orders.
beforeEach(() => {
  useOrdersPage.setState({ tab: 'orders', status: null, creatorShop: null, search: '' })
})

/** The Orders page with the policy tab opened, the server's policy `current` unless answered. */
async function openPolicy(answers: FakeAnswers = {}, current: TransferPolicy = AUTOMATIC) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminAllStores: () => [],
    adminCreatorOrders: () => ({ orders: [], nextCursor: null }),
    adminTransferPolicy: () => current,
    ...answers,
  })
  renderApp(fake.bridge, '/main/orders')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('tab', { name: 'Transfer policy' }))
  return { ...fake, user }
}

const card = () => within(screen.getByRole('region', { name: 'Transfer policy' }))
const modeRadio = (name: 'Automatic' | 'Manual') => card().getByRole('radio', { name })
const holdInput = () => card().getByLabelText('Hold (minutes)')
const saveButton = () => card().getByRole('button', { name: 'Save policy' })
/** Waits for the card to have loaded: its form is there. */
const loaded = () => screen.findByRole('button', { name: 'Save policy' })

describe('Orders: the transfer policy', () => {
  it('shows "Loading..." and then the automatic policy, its hold and the orders it leaves', async () => {
    const answer = deferred<TransferPolicy>()
    await openPolicy({ adminTransferPolicy: () => answer.promise })

    expect(card().getByText('Loading...')).toBeInTheDocument()
    answer.resolve(AUTOMATIC)
    await loaded()

    expect(
      card().getByText('Automatic: paid orders transfer by themselves 10 minutes after payment.'),
    ).toBeInTheDocument()
    expect(
      card().getByText(`Orders paid before ${formatDateTime(SINCE)} wait for an administrator.`),
    ).toBeInTheDocument()
    expect(modeRadio('Automatic')).toBeChecked()
    expect(holdInput()).toHaveValue('10')
    expect(holdInput()).toHaveAccessibleDescription(
      'From payment: 0 transfers at once, at most 10080 (7 days).',
    )
    // Nothing changed yet: nothing to save.
    expect(saveButton()).toBeDisabled()
  })

  it('shows a manual policy, with the hold kept but not editable', async () => {
    await openPolicy({}, MANUAL)
    await loaded()

    expect(
      card().getByText('Manual: an administrator processes every paid order.'),
    ).toBeInTheDocument()
    expect(modeRadio('Manual')).toBeChecked()
    expect(holdInput()).toBeDisabled()
  })

  it('turns it manual: sends the mode and hold once, and shows the policy the server answered', async () => {
    const answer = deferred<TransferPolicy>()
    const { callsTo, user } = await openPolicy({ adminSetTransferPolicy: () => answer.promise })
    await loaded()

    await user.click(modeRadio('Manual'))
    await user.click(saveButton())
    expect(saveButton()).toHaveAttribute('data-loading', 'true')
    await user.click(saveButton())
    expect(callsTo('adminSetTransferPolicy')).toEqual([
      { channel: 'adminSetTransferPolicy', args: { mode: 'MANUAL', holdMinutes: 10 } },
    ])

    answer.resolve(MANUAL)
    await expectToast('Success', 'Transfer policy set successfully.')
    expect(
      card().getByText('Manual: an administrator processes every paid order.'),
    ).toBeInTheDocument()
    expect(saveButton()).toBeDisabled()
  })

  it('sets a hold of 0, which transfers orders as soon as they are paid', async () => {
    const { callsTo, user } = await openPolicy({
      adminSetTransferPolicy: ({ mode, holdMinutes }) => ({
        mode,
        holdMinutes,
        automaticSince: SINCE,
      }),
    })
    await loaded()

    await user.clear(holdInput())
    await user.type(holdInput(), '0')
    await user.click(saveButton())

    await expectToast('Success', 'Transfer policy set successfully.')
    expect(callsTo('adminSetTransferPolicy')).toEqual([
      { channel: 'adminSetTransferPolicy', args: { mode: 'AUTOMATIC', holdMinutes: 0 } },
    ])
    expect(
      card().getByText('Automatic: paid orders transfer by themselves as soon as they are paid.'),
    ).toBeInTheDocument()
  })

  it.each(['10081', '-1', '1.5', '10,5'])(
    'refuses a hold of %s under the field, keeping it as typed, and sends nothing',
    async (typed) => {
      const { callsTo, user } = await openPolicy()
      await loaded()

      await user.clear(holdInput())
      await user.type(holdInput(), typed)

      expect(holdInput()).toHaveValue(typed)
      expect(holdInput()).toBeInvalid()
      expect(
        card().getByText('Must be a whole number of minutes from 0 to 10080 (7 days)'),
      ).toBeInTheDocument()
      expect(saveButton()).toBeDisabled()
      await user.type(holdInput(), '{Enter}')
      expect(callsTo('adminSetTransferPolicy')).toEqual([])

      // The rule is about what was typed; typing a hold it takes clears it.
      await user.clear(holdInput())
      await user.type(holdInput(), '15')
      expect(holdInput()).toBeValid()
    },
  )

  it("says the policy failed to set, with the server's reason, and keeps the choice", async () => {
    const reason = 'holdMinutes must be at most 10080 (7 days)'
    const { user } = await openPolicy({
      adminSetTransferPolicy: () => {
        throw serverRefusal('set transfer policy', reason)
      },
    })
    await loaded()

    await user.click(modeRadio('Manual'))
    await user.click(saveButton())

    await expectToast('Failed', 'Transfer policy failed to set.', 'error')
    expect(card().getByText(reason)).toBeInTheDocument()
    expect(modeRadio('Manual')).toBeChecked()
    // The card still shows the policy the server has.
    expect(
      card().getByText('Automatic: paid orders transfer by themselves 10 minutes after payment.'),
    ).toBeInTheDocument()
  })
})
