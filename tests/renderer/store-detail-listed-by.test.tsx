import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LISTING_POLL_MS } from '@renderer/features/store-detail/useFollowPendingSyncs'
import { brandPageAnswers } from './support/fakes/store-page'
import { fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { catalogListing } from './support/listings'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

// A brand's store page: the "Listed by" card (which creator stores list each of the brand's
// products) and the brand's stock buffer.

const BRAND = 'northwind-apparel.myshopify.com'
const MAYA = 'maya-makes.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'

const SOLD_OUT =
  'Shopify refused the inventory of urban-trail-edits.myshopify.com: location not found'
const LISTINGS = [
  catalogListing(),
  catalogListing({
    id: 'lst_urban_overshirt',
    creatorStoreShop: URBAN,
    status: 'PAUSED',
    syncState: 'FAILED',
    syncMessage: SOLD_OUT,
  }),
  catalogListing({
    id: 'lst_maya_tote',
    brandProductId: 'gid://shopify/Product/102',
    title: 'Canvas Tote',
    brandStatus: 'ARCHIVED',
    syncState: 'PENDING',
  }),
  // Removed: on no creator's store any more.
  catalogListing({
    id: 'lst_urban_beanie',
    creatorStoreShop: URBAN,
    brandProductId: 'gid://shopify/Product/103',
    title: 'Wool Beanie',
    status: 'REMOVED',
  }),
]

function brandPage(answers: FakeAnswers = {}, listings = LISTINGS, stockBuffer = 2) {
  const server = { listings, stockBuffer }
  const fake = fakeBridge({
    ...brandPageAnswers(BRAND),
    adminCatalogListings: () => ({
      listings: [...server.listings],
      stockBuffer: server.stockBuffer,
    }),
    adminSetStockBuffer: ({ brandStoreShop, units }) => {
      server.stockBuffer = units
      // Every listing of the brand syncs again.
      server.listings = server.listings.map((one) => ({ ...one, syncState: 'PENDING' as const }))
      return { brandStoreShop, stockBuffer: units }
    },
    ...answers,
  })
  return { fake, server, app: renderApp(fake.bridge, `/main/stores/${BRAND}?type=BRAND`) }
}

const card = async () => within(await screen.findByRole('region', { name: 'Listed by' }))
/** The creators listing a product, each as its list item. */
const creatorsOf = async (title: string) =>
  (await card()).findByRole('list', { name: `Creators listing ${title}` })
const bufferInput = () => screen.getByLabelText('Units kept back from creator stores')

describe('Brand view: listed by', () => {
  it('shows which creators list each product, with each listing’s status and sync', async () => {
    const { fake } = brandPage()

    const overshirt = within(await creatorsOf('Linen Overshirt'))
    const [maya, urban] = overshirt.getAllByRole('listitem').map((item) => within(item))
    expect(maya!.getByRole('link', { name: 'maya makes' })).toHaveAttribute(
      'href',
      `/main/stores/${MAYA}?type=CREATOR`,
    )
    expect(maya!.getByText('Active')).toBeInTheDocument()
    expect(maya!.getByText('In sync')).toBeInTheDocument()
    expect(urban!.getByRole('link', { name: 'urban trail edits' })).toBeInTheDocument()
    expect(urban!.getByText('Paused')).toBeInTheDocument()
    expect(urban!.getByText('Failed')).toBeInTheDocument()
    expect(urban!.getByText(SOLD_OUT)).toBeVisible()

    const tote = within(await creatorsOf('Canvas Tote'))
    expect(tote.getByText('Pending')).toBeInTheDocument()
    // The brand's own status, once under its product rather than at each creator.
    expect((await card()).getAllByText('Brand product: Archived')).toHaveLength(1)

    expect((await card()).queryByText('Wool Beanie')).not.toBeInTheDocument()
    expect(fake.callsTo('adminCatalogListings').map((call) => call.args)).toContainEqual({
      brandStoreShop: BRAND,
    })
  })

  it('says when no creator lists the brand’s products', async () => {
    brandPage({}, [])

    expect(
      await (await card()).findByText("No creator store lists this brand's products."),
    ).toBeInTheDocument()
    expect(bufferInput()).toHaveValue('2')
  })

  it('saves the stock buffer, says so, and follows the listings as they sync again', async () => {
    const { fake } = brandPage({}, [catalogListing()])
    await (await card()).findByText('In sync')
    const user = userEvent.setup()

    await user.clear(bufferInput())
    await user.type(bufferInput(), '5')
    await user.click((await card()).getByRole('button', { name: 'Save' }))

    await expectToast('Success', 'Stock buffer saved.')
    expect(fake.callsTo('adminSetStockBuffer').map((call) => call.args)).toEqual([
      { brandStoreShop: BRAND, units: 5 },
    ])
    expect(await (await card()).findByText('Pending')).toBeInTheDocument()
    expect(bufferInput()).toHaveValue('5')
  })

  it('refuses a stock buffer that is not a whole number of units, as typed, and sends nothing', async () => {
    const { fake } = brandPage()
    await (await card()).findByText('Canvas Tote')
    const user = userEvent.setup()

    for (const typed of ['-5', '1.5', '10,5', '100001']) {
      await user.clear(bufferInput())
      await user.type(bufferInput(), typed)
      expect(bufferInput()).toHaveValue(typed)
      expect(bufferInput()).toHaveAccessibleDescription(
        expect.stringContaining('Must be a whole number of units from 0 to 100000'),
      )
      expect((await card()).getByRole('button', { name: 'Save' })).toBeDisabled()
      await user.type(bufferInput(), '{Enter}')
    }
    expect(fake.callsTo('adminSetStockBuffer')).toEqual([])
  })

  it('shows why the server refused a stock buffer, beside the form', async () => {
    const refusal = `${MAYA} is a creator store: a stock buffer is a brand's`
    brandPage({
      adminSetStockBuffer: () => {
        throw serverRefusal('set stock buffer', refusal)
      },
    })
    const user = userEvent.setup()
    await (await card()).findByText('Canvas Tote')

    await user.clear(bufferInput())
    await user.type(bufferInput(), '3')
    await user.click((await card()).getByRole('button', { name: 'Save' }))

    await expectToast('Failed to set stock buffer', refusal, 'error')
    expect((await card()).getByText(refusal, { selector: '.mantine-Alert-message' })).toBeVisible()
  })

  describe('while a sync is pending', () => {
    afterEach(() => vi.useRealTimers())

    it('reads the listings again until none is pending', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true })
      const { fake, server } = brandPage({}, [catalogListing({ syncState: 'PENDING' })])
      const reads = () => fake.callsTo('adminCatalogListings').length
      expect(await (await card()).findByText('Pending')).toBeInTheDocument()

      server.listings = [catalogListing()]
      await act(() => vi.advanceTimersByTimeAsync(LISTING_POLL_MS))

      expect(await (await card()).findByText('In sync')).toBeInTheDocument()
      await act(() => vi.advanceTimersByTimeAsync(LISTING_POLL_MS * 3))
      expect(reads()).toBe(2)
    })
  })
})
