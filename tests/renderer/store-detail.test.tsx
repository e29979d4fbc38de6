import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { BridgeError } from '@renderer/lib/bridge'
import type { ChannelResult } from '@shared/ipc'
import { brandPageAnswers } from './support/fakes/store-page'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'

const BRAND = 'northwind-apparel.myshopify.com'
const BRAND_PAGE = `/main/stores/${BRAND}?type=BRAND`
const SUM_RULE = 'Tandem and creator commission rates together must not exceed 100'
/** What a rate field says of any value that is not a rate, as the server's 400 does. */
const RATE_RULE_SENTENCE = 'Must be a number from 0 to 100 with at most two decimals, such as 12.5'

type Defaults = ChannelResult<'adminGetDefaultShopCommissionRate'>

const brandPage = (answers: FakeAnswers = {}, page = BRAND_PAGE) => {
  // The other cards beside the rates (store-detail-payouts.test.tsx, …) have their own tests.
  const fake = fakeBridge({
    ...brandPageAnswers(BRAND),
    ...answers,
  })
  return { fake, app: renderApp(fake.bridge, page) }
}

const form = () => within(screen.getByRole('form', { name: 'Default commission' }))
const tandemInput = () => form().getByLabelText('Tandem commission rate')
const creatorInput = () => form().getByLabelText('Creator commission rate')
const saveButton = () => form().getByRole('button', { name: 'Save' })

async function retype(input: HTMLElement, text: string) {
  const user = userEvent.setup()
  await user.clear(input)
  if (text) await user.type(input, text)
  return user
}

describe('Store page', () => {
  it("shows the store's name, host and type under a link back to the list", async () => {
    brandPage()

    expect(await screen.findByRole('heading', { name: 'northwind apparel' })).toBeInTheDocument()
    expect(screen.getByText(BRAND)).toBeInTheDocument()
    expect(screen.getByText('Brand')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to stores' })).toHaveAttribute(
      'href',
      '/main/stores',
    )
  })

  it('goes back to /main/stores with the link', async () => {
    const { app } = brandPage()

    await userEvent.click(await screen.findByRole('link', { name: 'Back to stores' }))

    await waitFor(() => expect(app.location().pathname).toBe('/main/stores'))
    expect(app.location().search).toBe('')
  })

  it.each(['BRAND', 'CREATOR'])(
    'says once that a store Tandem does not know is not found, naming it, with the way back (%s)',
    async (type) => {
      const { fake, app } = brandPage({}, `/main/stores/nobody.myshopify.com?type=${type}`)

      expect(await screen.findByRole('heading', { name: 'Store not found' })).toBeInTheDocument()
      expect(
        screen.getByText(
          'Tandem has no store nobody.myshopify.com. It may have been removed, or the address may be mistyped.',
        ),
      ).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument()
      expect(screen.queryByRole('form')).not.toBeInTheDocument()
      expect(fake.callsTo('adminGetDefaultShopCommissionRate')).toEqual([])
      expect(fake.callsTo('adminGetUniqueCommissionRates')).toEqual([])

      await userEvent.click(screen.getByRole('link', { name: 'Go to Stores' }))
      await waitFor(() => expect(app.location().pathname).toBe('/main/stores'))
    },
  )

  it('opens a known store whose address is typed in capitals', async () => {
    brandPage({}, `/main/stores/Northwind-Apparel.myshopify.com?type=BRAND`)

    expect(await screen.findByRole('heading', { name: 'northwind apparel' })).toBeInTheDocument()
    expect(await screen.findByLabelText('Tandem commission rate')).toHaveValue('10')
  })

  it('keeps the Stores section highlighted', async () => {
    brandPage()
    await screen.findByRole('heading', { name: 'northwind apparel' })

    const sections = within(screen.getByRole('navigation', { name: 'Sections' }))
    expect(sections.getByRole('link', { current: 'page' })).toHaveAccessibleName('Stores')
  })
})

describe('Brand view: default commission', () => {
  it('shows "Loading..." and then the rates the server has', async () => {
    const answer = deferred<Defaults>()
    const { fake } = brandPage({ adminGetDefaultShopCommissionRate: () => answer.promise })

    // The card's own, once the page knows the store.
    const card = await screen.findByRole('heading', { name: 'Default commission' })
    expect(card.parentElement).toHaveTextContent('Loading...')
    answer.resolve({ tandemCommissionRate: 10, creatorCommissionRate: 15 })

    expect(await screen.findByLabelText('Tandem commission rate')).toHaveValue('10')
    expect(creatorInput()).toHaveValue('15')
    // The unit beside the number, not in the input's value.
    expect(tandemInput().parentElement).toHaveTextContent('%')
    expect(saveButton()).toBeEnabled()
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument()
    expect(fake.callsTo('adminGetDefaultShopCommissionRate')).toEqual([
      { channel: 'adminGetDefaultShopCommissionRate', args: { shop: BRAND } },
    ])
  })

  it('starts empty, with Save disabled, for a brand without a default', async () => {
    brandPage({
      adminGetDefaultShopCommissionRate: () => ({
        tandemCommissionRate: null,
        creatorCommissionRate: null,
      }),
    })

    expect(await screen.findByLabelText('Tandem commission rate')).toHaveValue('')
    expect(creatorInput()).toHaveValue('')
    expect(saveButton()).toBeDisabled()
  })

  it('warns that a brand without a default cannot be transferred, until its rates are saved', async () => {
    brandPage({
      adminGetDefaultShopCommissionRate: () => ({
        tandemCommissionRate: null,
        creatorCommissionRate: null,
      }),
      adminSetDefaultCommissionRate: ({ defaultCommission }) => ({ defaultCommission }),
    })

    const warning = await screen.findByRole('alert')
    expect(warning).toHaveTextContent('No default commission')
    expect(warning).toHaveTextContent(
      'This brand has no default commission: transfers of orders with its products fail with "Commission not found" until both rates are set and saved here.',
    )

    await retype(tandemInput(), '10')
    const user = await retype(creatorInput(), '15')
    await user.click(saveButton())

    expect(
      await screen.findByText('Default Commission rates set successfully.'),
    ).toBeInTheDocument()
    expect(screen.queryByText('No default commission')).not.toBeInTheDocument()
  })

  it('shows no warning for a brand with a default', async () => {
    brandPage()
    await screen.findByLabelText('Tandem commission rate')
    expect(screen.queryByText('No default commission')).not.toBeInTheDocument()
  })

  it('disables Save while either rate is empty', async () => {
    brandPage()
    await screen.findByLabelText('Tandem commission rate')

    await retype(tandemInput(), '')
    expect(saveButton()).toBeDisabled()

    await retype(tandemInput(), '10')
    await retype(creatorInput(), '')
    expect(saveButton()).toBeDisabled()

    await retype(creatorInput(), '15')
    expect(saveButton()).toBeEnabled()
  })

  // Whatever was wrong, the field keeps what was typed and says what a rate is, in the server's
  // words (tests/server/bad-input.test.ts); nothing is saved, not even by Enter.
  it.each([
    ['tandem', '101'],
    ['creator', '101'],
    ['tandem', '12.345'],
    ['creator', '-5'],
    ['tandem', '-5'],
    ['creator', '10,5'],
  ])('refuses a %s rate of %s under the field, and saves nothing', async (which, typed) => {
    const { fake } = brandPage({
      adminGetDefaultShopCommissionRate: () => ({
        tandemCommissionRate: 0,
        creatorCommissionRate: 0,
      }),
    })
    await screen.findByLabelText('Tandem commission rate')
    const input = which === 'tandem' ? tandemInput() : creatorInput()

    const user = await retype(input, typed)

    expect(input).toHaveValue(typed)
    expect(input).toHaveAccessibleDescription(RATE_RULE_SENTENCE)
    expect(input).toBeInvalid()
    expect(saveButton()).toBeDisabled()
    await user.type(input, '{Enter}')
    expect(fake.callsTo('adminSetDefaultCommissionRate')).toEqual([])
  })

  it('says so and disables Save when the two rates add up to more than 100', async () => {
    brandPage()
    await screen.findByLabelText('Tandem commission rate')

    await retype(tandemInput(), '60')
    await retype(creatorInput(), '41')

    expect(creatorInput()).toHaveAccessibleDescription(SUM_RULE)
    expect(saveButton()).toBeDisabled()

    await retype(creatorInput(), '40')
    expect(screen.queryByText(SUM_RULE)).not.toBeInTheDocument()
    expect(saveButton()).toBeEnabled()
  })

  it('sends the rates as numbers, holds Save while in flight, and shows what was saved', async () => {
    const answer = deferred<ChannelResult<'adminSetDefaultCommissionRate'>>()
    const { fake } = brandPage({ adminSetDefaultCommissionRate: () => answer.promise })
    await screen.findByLabelText('Tandem commission rate')

    await retype(tandemInput(), '12.5')
    const user = await retype(creatorInput(), '20')
    await user.click(saveButton())

    expect(fake.callsTo('adminSetDefaultCommissionRate')).toEqual([
      {
        channel: 'adminSetDefaultCommissionRate',
        args: {
          defaultCommission: {
            brandStoreShop: BRAND,
            tandemCommissionRate: 12.5,
            creatorCommissionRate: 20,
          },
        },
      },
    ])
    expect(saveButton()).toBeDisabled()
    expect(saveButton()).toHaveAttribute('data-loading', 'true')

    answer.resolve({
      defaultCommission: {
        brandStoreShop: BRAND,
        tandemCommissionRate: 12.5,
        creatorCommissionRate: 20,
      },
    })

    expect(
      await screen.findByText('Default Commission rates set successfully.'),
    ).toBeInTheDocument()
    expect(screen.getByText('Success')).toBeInTheDocument()
    expect(tandemInput()).toHaveValue('12.5')
    expect(creatorInput()).toHaveValue('20')
    expect(saveButton()).toBeEnabled()
  })

  it("says the rates failed to set, with the server's reason, and keeps them", async () => {
    const reason =
      "The tandem commission rate plus the brand's highest unique commission rate (20) must not exceed 100"
    brandPage({
      adminSetDefaultCommissionRate: () => {
        throw serverRefusal('set default commission rates', reason)
      },
    })
    await screen.findByLabelText('Tandem commission rate')

    const user = await retype(tandemInput(), '85')
    await retype(creatorInput(), '5')
    await user.click(saveButton())

    expect(await screen.findByText('Default Commission rates failed to set.')).toBeInTheDocument()
    expect(screen.getByText('Failed')).toBeInTheDocument()
    expect(screen.getByText(reason)).toBeInTheDocument()
    expect(tandemInput()).toHaveValue('85')
    expect(creatorInput()).toHaveValue('5')
    expect(saveButton()).toBeEnabled()

    // The reason is about the rates that were refused; editing them clears it.
    await retype(tandemInput(), '80')
    expect(screen.queryByText(reason)).not.toBeInTheDocument()
  })

  it('shows the whole message when a failure has no separate reason', async () => {
    const message = 'Tandem Admin could not reach its host process.'
    brandPage({
      adminSetDefaultCommissionRate: () => {
        throw new BridgeError({ message })
      },
    })
    await screen.findByLabelText('Tandem commission rate')
    await userEvent.click(saveButton())

    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(screen.getByText('Default Commission rates failed to set.')).toBeInTheDocument()
  })

  it('shows a load failure with Retry, which loads again', async () => {
    let calls = 0
    const { fake } = brandPage({
      adminGetDefaultShopCommissionRate: () => {
        calls += 1
        if (calls === 1) {
          throw new BridgeError({
            message: 'Failed to fetch default commission rates: The server could not be reached.',
          })
        }
        return { tandemCommissionRate: 8, creatorCommissionRate: 12 }
      },
    })

    expect(
      await screen.findByText(
        'Failed to fetch default commission rates: The server could not be reached.',
      ),
    ).toBeInTheDocument()
    expect(screen.queryByLabelText('Tandem commission rate')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))

    expect(await screen.findByLabelText('Tandem commission rate')).toHaveValue('8')
    expect(creatorInput()).toHaveValue('12')
    expect(fake.callsTo('adminGetDefaultShopCommissionRate')).toHaveLength(2)
  })
})
