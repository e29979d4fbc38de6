import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { BrandPause } from '@shared/contract'
import { formatDateTime } from '@renderer/lib/format'
import { brandPageAnswers } from './support/fakes/store-page'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

const BRAND = 'northwind-apparel.myshopify.com'
const REASON = 'Brand asked us to stop while they audit stock'

const pause = (overrides: Partial<BrandPause> = {}): BrandPause => ({
  shop: BRAND,
  reason: REASON,
  pausedBy: 'ops@tandem.test',
  pausedAt: '2026-03-02T09:30:00.000Z',
  ...overrides,
})

/** A brand's page whose pause is `current` unless a test answers otherwise. */
const brandPage = (answers: FakeAnswers = {}, current: BrandPause | null = null) => {
  const fake = fakeBridge({
    ...brandPageAnswers(BRAND),
    adminBrandPause: () => ({ pause: current }),
    ...answers,
  })
  return { fake, app: renderApp(fake.bridge, `/main/stores/${BRAND}?type=BRAND`) }
}

const card = () => within(screen.getByRole('region', { name: 'Automatic transfers' }))
const field = (label: string) => card().getByText(label, { selector: 'dt' }).nextElementSibling
const dialog = () => within(screen.getByRole('dialog', { name: 'Pause automatic transfers' }))
const reasonInput = () => dialog().getByLabelText('Reason')

/** Waits for the card to have loaded: its button is there. */
const loaded = () => screen.findByRole('button', { name: /^(Pause automatic transfers|Resume)$/ })

describe('Brand view: automatic transfers', () => {
  it('shows "Loading..." and then that transfers run, below Payouts', async () => {
    const answer = deferred<{ pause: BrandPause | null }>()
    const { fake } = brandPage({ adminBrandPause: () => answer.promise })

    const heading = await screen.findByRole('heading', { name: 'Automatic transfers' })
    expect(within(heading.closest('section')!).getByText('Loading...')).toBeInTheDocument()
    answer.resolve({ pause: null })
    await loaded()

    expect(card().getByText('Running')).toBeInTheDocument()
    expect(card().queryByText('Paused')).not.toBeInTheDocument()
    expect(card().queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument()
    expect(fake.callsTo('adminBrandPause')).toEqual([
      { channel: 'adminBrandPause', args: { shop: BRAND } },
    ])
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings).toEqual(['Default commission', 'Payouts', 'Automatic transfers', 'Listed by'])
  })

  it('shows a pause: its reason, by whom and since when, with Resume', async () => {
    brandPage({}, pause())
    await loaded()

    expect(card().getByText('Paused')).toBeInTheDocument()
    expect(field('Reason')).toHaveTextContent(REASON)
    expect(field('Paused by')).toHaveTextContent('ops@tandem.test')
    expect(field('Since')).toHaveTextContent(formatDateTime('2026-03-02T09:30:00.000Z'))
    expect(card().getByRole('button', { name: 'Resume' })).toBeEnabled()
    expect(
      card().queryByRole('button', { name: 'Pause automatic transfers' }),
    ).not.toBeInTheDocument()
  })

  it('says "an administrator" for a pause nobody is named for', async () => {
    brandPage({}, pause({ pausedBy: null }))
    await loaded()

    expect(field('Paused by')).toHaveTextContent('an administrator')
  })

  it('pauses with the reason typed, trimmed, once, and shows the pause', async () => {
    const answer = deferred<BrandPause>()
    const { fake } = brandPage({ adminPauseBrand: () => answer.promise })
    await loaded()
    const user = userEvent.setup()

    await user.click(card().getByRole('button', { name: 'Pause automatic transfers' }))
    expect(dialog().getByRole('button', { name: 'Pause' })).toBeDisabled()
    await user.type(reasonInput(), `  ${REASON}  `)
    await user.click(dialog().getByRole('button', { name: 'Pause' }))
    // A second click while it is in flight sends nothing more.
    await user.click(dialog().getByRole('button', { name: 'Pause' }))
    expect(fake.callsTo('adminPauseBrand')).toEqual([
      { channel: 'adminPauseBrand', args: { shop: BRAND, reason: REASON } },
    ])

    answer.resolve(pause())

    await expectToast('Success', 'Automatic transfers paused.')
    expect(await card().findByText('Paused')).toBeInTheDocument()
    expect(field('Reason')).toHaveTextContent(REASON)
    expect(card().getByRole('button', { name: 'Resume' })).toBeInTheDocument()
    expect(fake.callsTo('adminBrandPause')).toHaveLength(1)
  })

  it.each([
    { length: 'too short', typed: 'Stock', message: 'Must say why, in at least 10 characters' },
    { length: 'too long', typed: 'x'.repeat(501), message: 'Must be at most 500 characters' },
  ])(
    'refuses a reason $length by the contract rule and sends nothing',
    async ({ typed, message }) => {
      const { fake } = brandPage()
      await loaded()
      const user = userEvent.setup()

      await user.click(card().getByRole('button', { name: 'Pause automatic transfers' }))
      // Pasted: typing 501 characters one by one is slow and says nothing more.
      await user.click(reasonInput())
      await user.paste(typed)
      await user.click(dialog().getByRole('button', { name: 'Pause' }))

      expect(reasonInput()).toBeInvalid()
      expect(reasonInput()).toHaveAccessibleDescription(expect.stringContaining(message))
      expect(fake.callsTo('adminPauseBrand')).toEqual([])

      await user.type(reasonInput(), 'x')
      expect(reasonInput()).toBeValid()
    },
  )

  it("shows the server's refusal in the dialog and keeps the reason", async () => {
    const refusal = 'Tandem has no brand store northwind-apparel.myshopify.com.'
    brandPage({
      adminPauseBrand: () => {
        throw serverRefusal('pause brand', refusal)
      },
    })
    await loaded()
    const user = userEvent.setup()

    await user.click(card().getByRole('button', { name: 'Pause automatic transfers' }))
    await user.type(reasonInput(), REASON)
    await user.click(dialog().getByRole('button', { name: 'Pause' }))

    await expectToast('Failed to pause automatic transfers', refusal, 'error')
    expect(dialog().getByText(refusal)).toBeInTheDocument()
    expect(reasonInput()).toHaveValue(REASON)
    expect(card().getByText('Running')).toBeInTheDocument()
  })

  it('opens again with an empty reason after Cancel', async () => {
    brandPage()
    await loaded()
    const user = userEvent.setup()

    await user.click(card().getByRole('button', { name: 'Pause automatic transfers' }))
    await user.type(reasonInput(), 'Half a thought')
    await user.click(dialog().getByRole('button', { name: 'Cancel' }))
    await user.click(card().getByRole('button', { name: 'Pause automatic transfers' }))

    expect(reasonInput()).toHaveValue('')
  })

  it('resumes, and then shows transfers running', async () => {
    const { fake } = brandPage({ adminResumeBrand: () => ({ resumed: pause() }) }, pause())
    await loaded()
    const user = userEvent.setup()

    await user.click(card().getByRole('button', { name: 'Resume' }))

    await expectToast('Success', 'Automatic transfers resumed.')
    expect(await card().findByText('Running')).toBeInTheDocument()
    expect(card().queryByText(REASON)).not.toBeInTheDocument()
    expect(fake.callsTo('adminResumeBrand')).toEqual([
      { channel: 'adminResumeBrand', args: { shop: BRAND } },
    ])
  })

  it("shows a refused resume's reason in the card, and the pause still there", async () => {
    const refusal = 'Brand northwind-apparel.myshopify.com is not paused'
    brandPage(
      {
        adminResumeBrand: () => {
          throw serverRefusal('resume brand', refusal)
        },
      },
      pause(),
    )
    await loaded()
    const user = userEvent.setup()

    await user.click(card().getByRole('button', { name: 'Resume' }))

    await expectToast('Failed to resume automatic transfers', refusal, 'error')
    expect(card().getByText(refusal)).toBeInTheDocument()
    expect(field('Reason')).toHaveTextContent(REASON)
  })
})
