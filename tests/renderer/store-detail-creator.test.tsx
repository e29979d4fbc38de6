import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { BridgeError } from '@renderer/lib/bridge'
import type { UniqueCommissionRate } from '@shared/contract'
import type { ChannelResult } from '@shared/ipc'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { creatorPageAnswers } from './support/fakes/store-page'
import { renderApp } from './support/render-app'

const CREATOR = 'maya-makes.myshopify.com'
const NORTHWIND = 'northwind-apparel.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const IRONPEAK = 'ironpeak-outdoor.myshopify.com'
const OVER_100 =
  "The unique commission rate plus the brand's tandem commission rate (10) must not exceed 100"

const STORES: ChannelResult<'adminAllStores'> = [
  { shop: NORTHWIND, shopType: 'BRAND' },
  { shop: LUMEN, shopType: 'BRAND' },
  { shop: IRONPEAK, shopType: 'BRAND' },
  { shop: CREATOR, shopType: 'CREATOR' },
  { shop: 'urban-trail-edits.myshopify.com', shopType: 'CREATOR' },
]

/** A creator's page over a fake server that keeps its unique rates like the real one. */
function creatorPage(answers: FakeAnswers = {}, rates = [rate(LUMEN, 20)]) {
  const server = { rates }
  // The cards beside the rates (store-detail-payouts.test.tsx, …) have their own tests.
  const fake = fakeBridge({
    ...creatorPageAnswers(CREATOR),
    adminAllStores: () => STORES,
    adminGetUniqueCommissionRates: () => ({ uniqueCommissionRates: [...server.rates] }),
    adminCreateUniqueCommissionRate: ({ uniqueCommissionRate }) => {
      const replaced = server.rates.find(
        (r) => r.brandStoreShop === uniqueCommissionRate.brandStoreShop,
      )
      server.rates = [...server.rates.filter((r) => r !== replaced), uniqueCommissionRate]
      return { uniqueCommissionRate, replacedCommissionRate: replaced?.commissionRate ?? null }
    },
    adminDeleteUniqueCommissionRate: ({ brandShop }) => {
      const deleted = server.rates.find((r) => r.brandStoreShop === brandShop)
      if (!deleted)
        throw new BridgeError({ message: 'Failed to delete commission rate: Not found' })
      server.rates = server.rates.filter((r) => r !== deleted)
      return { uniqueCommissionRate: deleted }
    },
    ...answers,
  })
  return { fake, server, app: renderApp(fake.bridge, `/main/stores/${CREATOR}?type=CREATOR`) }
}

function rate(brandStoreShop: string, commissionRate: number): UniqueCommissionRate {
  return { brandStoreShop, creatorStoreShop: CREATOR, commissionRate }
}

const ratesTable = () => screen.getByRole('table')
/** The table's rows below its header, as their text. */
const rows = () =>
  within(ratesTable())
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent)
const createForm = () => within(screen.getByRole('form', { name: 'New unique rate' }))
const saveButton = () => createForm().getByRole('button', { name: 'Save' })

async function chooseBrand(name: string) {
  const user = userEvent.setup()
  await user.click(createForm().getByRole('combobox', { name: 'Brand' }))
  await user.click(await screen.findByRole('option', { name: new RegExp(name) }))
  return user
}

async function typeRate(text: string) {
  const user = userEvent.setup()
  await user.clear(createForm().getByLabelText('Commission rate'))
  await user.type(createForm().getByLabelText('Commission rate'), text)
  return user
}

describe('Creator view: unique commission rates', () => {
  it("lists the creator's rates with brand name, host and rate", async () => {
    const { fake } = creatorPage({}, [rate(LUMEN, 20), rate(NORTHWIND, 12.5)])

    expect(await screen.findByRole('heading', { name: 'maya makes' })).toBeInTheDocument()
    expect(screen.getByText('Creator')).toBeInTheDocument()
    expect(await screen.findByRole('table')).toBeInTheDocument()
    expect(rows()).toEqual([
      `lumen botanicals${LUMEN}20%Delete`,
      `northwind apparel${NORTHWIND}12.5%Delete`,
    ])
    expect(screen.getByRole('button', { name: 'Delete lumen botanicals rate' })).toBeEnabled()
    // No brand: this creator's rates with any brand.
    expect(fake.callsTo('adminGetUniqueCommissionRates')).toEqual([
      { channel: 'adminGetUniqueCommissionRates', args: { creatorShop: CREATOR } },
    ])
  })

  it('treats any type but BRAND as a creator', async () => {
    const fake = fakeBridge(creatorPageAnswers(CREATOR))
    renderApp(fake.bridge, `/main/stores/${CREATOR}`)

    expect(await screen.findByText('No unique commission rates yet.')).toBeInTheDocument()
    expect(screen.getByText('Creator')).toBeInTheDocument()
    expect(fake.callsTo('adminGetDefaultShopCommissionRate')).toEqual([])
    expect(fake.callsTo('adminBrandPause')).toEqual([])
    // A creator has a payout account too, paid its commissions.
    expect(await screen.findByRole('heading', { name: 'Payouts' })).toBeInTheDocument()
    expect(fake.callsTo('adminStorePaymentAccount')).toEqual([
      { channel: 'adminStorePaymentAccount', args: { shop: CREATOR } },
    ])
  })

  it('shows "Loading..." and then says when there are no rates', async () => {
    const answer = deferred<ChannelResult<'adminGetUniqueCommissionRates'>>()
    creatorPage({ adminGetUniqueCommissionRates: () => answer.promise })

    // The card's own, once the page knows the store.
    const card = await screen.findByRole('heading', { name: 'Unique commission rates' })
    expect(card.parentElement).toHaveTextContent('Loading...')
    answer.resolve({ uniqueCommissionRates: [] })

    expect(await screen.findByText('No unique commission rates yet.')).toBeInTheDocument()
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument()
  })

  it('shows a load failure with Retry, which loads again', async () => {
    let calls = 0
    creatorPage({
      adminGetUniqueCommissionRates: () => {
        calls += 1
        if (calls === 1) {
          throw new BridgeError({ message: 'Failed to fetch commission rates: Request timed out.' })
        }
        return { uniqueCommissionRates: [rate(LUMEN, 20)] }
      },
    })

    expect(
      await screen.findByText('Failed to fetch commission rates: Request timed out.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))

    expect(await screen.findByRole('table')).toBeInTheDocument()
    expect(rows()).toEqual([`lumen botanicals${LUMEN}20%Delete`])
  })

  it('offers only the brand stores, searchable', async () => {
    creatorPage()
    await screen.findByRole('table')
    const user = userEvent.setup()
    const brand = createForm().getByRole('combobox', { name: 'Brand' })
    expect(brand).toHaveAttribute('placeholder', 'Select brand...')

    await user.click(brand)
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      `northwind apparel${NORTHWIND}`,
      // This creator's rate with Lumen, which saving would replace.
      `lumen botanicals${LUMEN}Current rate 20%`,
      `ironpeak outdoor${IRONPEAK}`,
    ])

    await user.type(brand, 'lum')
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      `lumen botanicals${LUMEN}Current rate 20%`,
    ])
    await user.clear(brand)
    await user.type(brand, 'zzz')
    expect(screen.getByText('Not found...')).toBeInTheDocument()
  })

  it('needs a brand and a valid rate before Save', async () => {
    const { fake } = creatorPage()
    await screen.findByRole('table')
    expect(saveButton()).toBeDisabled()

    await typeRate('15')
    expect(saveButton()).toBeDisabled()

    await chooseBrand('northwind apparel')
    expect(saveButton()).toBeEnabled()

    // Each kept as typed and refused in the rate rule's words, as the server refuses it.
    for (const typed of ['101', '12.345', '-5', '10,5']) {
      const user = await typeRate(typed)
      const input = createForm().getByLabelText('Commission rate')
      expect(input).toHaveValue(typed)
      expect(input).toHaveAccessibleDescription(
        'Must be a number from 0 to 100 with at most two decimals, such as 12.5',
      )
      expect(saveButton()).toBeDisabled()
      await user.type(input, '{Enter}')
    }
    expect(fake.callsTo('adminCreateUniqueCommissionRate')).toEqual([])

    await userEvent.clear(createForm().getByLabelText('Commission rate'))
    expect(saveButton()).toBeDisabled()
  })

  it('creates a rate, sending the rate as a number, and refreshes the list', async () => {
    const { fake } = creatorPage()
    await screen.findByRole('table')

    await chooseBrand('northwind apparel')
    const user = await typeRate('12.5')
    await user.click(saveButton())

    expect(await screen.findByText('Commission rate created successfully.')).toBeInTheDocument()
    expect(screen.getByText('Success')).toBeInTheDocument()
    expect(fake.callsTo('adminCreateUniqueCommissionRate')).toEqual([
      {
        channel: 'adminCreateUniqueCommissionRate',
        args: {
          uniqueCommissionRate: {
            brandStoreShop: NORTHWIND,
            creatorStoreShop: CREATOR,
            commissionRate: 12.5,
          },
        },
      },
    ])
    await waitFor(() =>
      expect(rows()).toEqual([
        `lumen botanicals${LUMEN}20%Delete`,
        `northwind apparel${NORTHWIND}12.5%Delete`,
      ]),
    )
    expect(fake.callsTo('adminGetUniqueCommissionRates')).toHaveLength(2)
    // Ready for the next one.
    expect(createForm().getByRole('combobox', { name: 'Brand' })).toHaveValue('')
    expect(createForm().getByLabelText('Commission rate')).toHaveValue('')
    expect(saveButton()).toBeDisabled()
  })

  it("asks before replacing a brand's rate, and says it was updated", async () => {
    const { fake } = creatorPage()
    await screen.findByRole('table')

    await chooseBrand('lumen botanicals')
    expect(createForm().getByRole('combobox', { name: 'Brand' })).toHaveAccessibleDescription(
      'This creator has a 20% rate with this brand: saving replaces it.',
    )
    const user = await typeRate('15')
    await user.click(saveButton())

    const dialog = screen.getByRole('dialog', { name: 'Replace commission rate' })
    expect(dialog).toHaveTextContent('Replace the 20% rate of lumen botanicals with 15%?')
    expect(fake.callsTo('adminCreateUniqueCommissionRate')).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Replace' }))

    expect(await screen.findByText('Commission rate updated successfully.')).toBeInTheDocument()
    expect(screen.queryByText('Commission rate created successfully.')).not.toBeInTheDocument()
    expect(fake.callsTo('adminCreateUniqueCommissionRate')).toHaveLength(1)
    await waitFor(() => expect(rows()).toEqual([`lumen botanicals${LUMEN}15%Delete`]))
  })

  it('replaces nothing when the question is cancelled, and keeps what was typed', async () => {
    const { fake } = creatorPage()
    await screen.findByRole('table')

    await chooseBrand('lumen botanicals')
    const user = await typeRate('15')
    await user.click(saveButton())
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(fake.callsTo('adminCreateUniqueCommissionRate')).toEqual([])
    expect(createForm().getByLabelText('Commission rate')).toHaveValue('15')
    expect(rows()).toEqual([`lumen botanicals${LUMEN}20%Delete`])
  })

  it('says so when the server replaced a rate the list did not show yet', async () => {
    creatorPage({
      adminCreateUniqueCommissionRate: ({ uniqueCommissionRate }) => ({
        uniqueCommissionRate,
        replacedCommissionRate: 30,
      }),
    })
    await screen.findByRole('table')

    await chooseBrand('northwind apparel')
    const user = await typeRate('12')
    await user.click(saveButton())

    expect(
      await screen.findByText(
        'northwind apparel already had a 30% rate with this creator; it is now 12%.',
      ),
    ).toBeInTheDocument()
  })

  it('holds Save while the rate is being created', async () => {
    const answer = deferred<ChannelResult<'adminCreateUniqueCommissionRate'>>()
    creatorPage({ adminCreateUniqueCommissionRate: () => answer.promise })
    await screen.findByRole('table')

    await chooseBrand('northwind apparel')
    const user = await typeRate('12')
    await user.click(saveButton())

    expect(saveButton()).toBeDisabled()
    expect(saveButton()).toHaveAttribute('data-loading', 'true')
    answer.resolve({ uniqueCommissionRate: rate(NORTHWIND, 12), replacedCommissionRate: null })
    await screen.findByText('Commission rate created successfully.')
  })

  it("says the rate failed to create, with the server's sentence, when it refuses", async () => {
    const { fake } = creatorPage({
      adminCreateUniqueCommissionRate: () => {
        throw serverRefusal('create commission rate', OVER_100)
      },
    })
    await screen.findByRole('table')

    await chooseBrand('northwind apparel')
    const user = await typeRate('95')
    await user.click(saveButton())

    expect(await screen.findByText('Commission rate failed to create.')).toBeInTheDocument()
    expect(screen.getByText('Failed')).toBeInTheDocument()
    expect(screen.getByText(OVER_100)).toBeInTheDocument()
    // What was typed stays, to correct; nothing changed, so the list is not asked again.
    expect(createForm().getByLabelText('Commission rate')).toHaveValue('95')
    expect(saveButton()).toBeEnabled()
    expect(rows()).toEqual([`lumen botanicals${LUMEN}20%Delete`])
    expect(fake.callsTo('adminGetUniqueCommissionRates')).toHaveLength(1)
  })

  it('deletes a rate after confirmation and refreshes the list', async () => {
    const { fake } = creatorPage({}, [rate(LUMEN, 20), rate(NORTHWIND, 12.5)])
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen botanicals rate' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete commission rate' })
    expect(dialog).toHaveTextContent('Delete the 20% rate of lumen botanicals?')
    expect(fake.callsTo('adminDeleteUniqueCommissionRate')).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))

    expect(await screen.findByText('Commission rate deleted successfully.')).toBeInTheDocument()
    expect(screen.getByText('Success')).toBeInTheDocument()
    expect(fake.callsTo('adminDeleteUniqueCommissionRate')).toEqual([
      {
        channel: 'adminDeleteUniqueCommissionRate',
        args: { brandShop: LUMEN, creatorShop: CREATOR },
      },
    ])
    await waitFor(() => expect(rows()).toEqual([`northwind apparel${NORTHWIND}12.5%Delete`]))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('deletes nothing when the confirmation is cancelled', async () => {
    const { fake } = creatorPage()
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen botanicals rate' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }))

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(fake.callsTo('adminDeleteUniqueCommissionRate')).toEqual([])
    expect(rows()).toEqual([`lumen botanicals${LUMEN}20%Delete`])
  })

  it('holds the Delete button while its rate is being deleted', async () => {
    const answer = deferred<ChannelResult<'adminDeleteUniqueCommissionRate'>>()
    creatorPage({ adminDeleteUniqueCommissionRate: () => answer.promise }, [
      rate(LUMEN, 20),
      rate(NORTHWIND, 12.5),
    ])
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen botanicals rate' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))

    const deleting = screen.getByRole('button', { name: 'Delete lumen botanicals rate' })
    expect(deleting).toBeDisabled()
    expect(deleting).toHaveAttribute('data-loading', 'true')
    expect(screen.getByRole('button', { name: 'Delete northwind apparel rate' })).toBeEnabled()

    answer.resolve({ uniqueCommissionRate: rate(LUMEN, 20) })
    await screen.findByText('Commission rate deleted successfully.')
  })

  it('says the rate failed to delete, with the reason, and keeps the row', async () => {
    const reason = 'The server could not be reached.'
    const { fake } = creatorPage({
      adminDeleteUniqueCommissionRate: () => {
        throw serverRefusal('delete commission rate', reason)
      },
    })
    await screen.findByRole('table')
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen botanicals rate' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))

    expect(await screen.findByText('Commission rate failed to delete.')).toBeInTheDocument()
    expect(screen.getByText('Failed')).toBeInTheDocument()
    expect(screen.getByText(reason)).toBeInTheDocument()
    expect(rows()).toEqual([`lumen botanicals${LUMEN}20%Delete`])
    expect(screen.getByRole('button', { name: 'Delete lumen botanicals rate' })).toBeEnabled()
    expect(fake.callsTo('adminGetUniqueCommissionRates')).toHaveLength(1)
  })
})
