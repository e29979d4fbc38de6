import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CatalogListing, StoreProduct } from '@shared/contract'
import type { ChannelArgs } from '@shared/ipc'
import { formatMoney } from '@renderer/lib/format'
import { LISTING_POLL_MS } from '@renderer/features/store-detail/useFollowPendingSyncs'
import { creatorPageAnswers } from './support/fakes/store-page'
import { fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { catalogListing } from './support/listings'
import { renderApp } from './support/render-app'
import { expectToast } from './support/toasts'

// A creator's store page: the Listings card (brand products listed on the creator's store) and its
// "List products" picker.

const CREATOR = 'maya-makes.myshopify.com'
const NORTHWIND = 'northwind-apparel.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const BELOW_BRAND =
  "50.00 USD is below Linen Overshirt's brand price of 58.00 USD: leave the price empty to sell at the brand's"

const product = (id: number, title: string, price: string): StoreProduct => ({
  id: `gid://shopify/Product/${id}`,
  title,
  status: 'ACTIVE',
  variantCount: 2,
  price,
  currency: 'USD',
  imageUrl: `https://cdn.shopify.com/${id}.jpg`,
})
const OVERSHIRT = product(101, 'Linen Overshirt', '58.00')
const TOTE = product(102, 'Canvas Tote', '24.00')
const BEANIE = product(103, 'Wool Beanie', '18.00')
const NORTHWIND_PRODUCTS = [TOTE, OVERSHIRT, BEANIE]

const ON_SALE = catalogListing()

/**
 * A creator's page over a fake server that keeps its listings as the real one does: each change
 * answers the listing, pending until its sync runs (`syncAll`).
 */
function creatorPage(answers: FakeAnswers = {}, listings: CatalogListing[] = [ON_SALE]) {
  const server = { listings }
  const syncAll = () => {
    server.listings = server.listings.map((one) => ({ ...one, syncState: 'IN_SYNC' as const }))
  }
  // The cards beside this one have their own tests (store-detail-creator, -payouts).
  const fake = fakeBridge({
    ...creatorPageAnswers(CREATOR),
    adminAllStores: () => [
      { shop: NORTHWIND, shopType: 'BRAND' },
      { shop: LUMEN, shopType: 'BRAND' },
      { shop: CREATOR, shopType: 'CREATOR' },
    ],
    adminCatalogListings: () => ({ listings: [...server.listings], stockBuffer: null }),
    adminSetListing: ({ listingId, status, price }) => {
      const changed = server.listings.map((one) =>
        one.id === listingId
          ? { ...one, status, syncState: 'PENDING' as const, ...(price !== undefined && { price }) }
          : one,
      )
      server.listings = changed
      return changed.find((one) => one.id === listingId)!
    },
    adminStoreProducts: ({ search }) => ({
      products: NORTHWIND_PRODUCTS.filter((one) =>
        one.title.toLowerCase().includes((search ?? '').toLowerCase()),
      ),
      nextCursor: null,
    }),
    ...answers,
  })
  const app = renderApp(fake.bridge, `/main/stores/${CREATOR}?type=CREATOR`)
  return { fake, server, syncAll, app }
}

/** The Listings card, once the page knows the store. */
const card = async () => within(await screen.findByRole('region', { name: 'Listings' }))
/** The listing's row, found by its product's title. */
const rowOf = async (title: string) => {
  const cell = await (await card()).findByText(title)
  return within(cell.closest('tr')!)
}
const setListingCalls = (fake: ReturnType<typeof fakeBridge>) =>
  fake.callsTo('adminSetListing').map((call) => call.args)

async function chooseAction(title: string, action: string) {
  const user = userEvent.setup()
  await user.click((await rowOf(title)).getByRole('button', { name: `Actions for ${title}` }))
  await user.click(await screen.findByRole('menuitem', { name: action }))
  return user
}

describe('Creator view: listings', () => {
  it('shows each listing with its brand, price, status, sync and, when failed, why', async () => {
    creatorPage({}, [
      ON_SALE,
      catalogListing({
        id: 'lst_tote',
        title: 'Canvas Tote',
        brandProductId: TOTE.id,
        status: 'PAUSED',
        price: '30.00',
        syncState: 'FAILED',
        syncMessage: 'Shopify refused the product on maya-makes.myshopify.com: Title is too long',
        brandStatus: 'ARCHIVED',
      }),
      catalogListing({
        id: 'lst_balm',
        title: 'Leaf Balm',
        brandStoreShop: LUMEN,
        brandStatus: 'DRAFT',
      }),
      catalogListing({
        id: 'lst_bottle',
        title: 'Trail Bottle',
        brandStatus: 'GONE',
        status: 'REMOVED',
      }),
    ])

    const overshirt = await rowOf('Linen Overshirt')
    expect(overshirt.getByText('northwind apparel')).toHaveAttribute('title', NORTHWIND)
    // At the brand's price, the brand's amount as Tandem last read it.
    expect(overshirt.getByText('$68.00')).toBeInTheDocument()
    expect(overshirt.getByText("Brand's price")).toBeInTheDocument()
    expect(overshirt.getByText('Active')).toBeInTheDocument()
    expect(overshirt.getByText('In sync')).toBeInTheDocument()

    const tote = await rowOf('Canvas Tote')
    expect(tote.getByText(formatMoney('30.00', 'USD'))).toBeInTheDocument()
    expect(tote.getByText('Paused')).toBeInTheDocument()
    expect(tote.getByText('Failed')).toBeInTheDocument()
    // The reason, in the row itself: not only on hover.
    expect(
      tote.getByText('Shopify refused the product on maya-makes.myshopify.com: Title is too long'),
    ).toBeVisible()
    expect(tote.getByText('Brand product: Archived')).toBeInTheDocument()

    const balm = await rowOf('Leaf Balm')
    expect(balm.getByText('lumen botanicals')).toBeInTheDocument()
    expect(balm.getByText('Brand product: Draft')).toBeInTheDocument()

    const bottle = await rowOf('Trail Bottle')
    expect(bottle.getByText("Gone from the brand's store")).toBeInTheDocument()
    expect(bottle.getByText('Removed')).toBeInTheDocument()
    // A removed listing is listed again from "List products", not from its row.
    expect(bottle.queryByRole('button')).not.toBeInTheDocument()
  })

  it('says when the store lists nothing, and shows a failed read with Retry', async () => {
    let reads = 0
    creatorPage({
      adminCatalogListings: () => {
        if (++reads === 1) throw serverRefusal('fetch listings', 'The server is unavailable')
        return { listings: [], stockBuffer: null }
      },
    })

    expect(
      await screen.findByText('Failed to fetch listings: The server is unavailable'),
    ).toBeInTheDocument()
    await userEvent.click((await card()).getByRole('button', { name: 'Retry' }))

    expect(
      await (await card()).findByText('No products listed on this store yet.'),
    ).toBeInTheDocument()
  })

  it('pauses an active listing and resumes it, showing what the server answered', async () => {
    const { fake } = creatorPage()

    await chooseAction('Linen Overshirt', 'Pause')

    await expectToast('Success', 'Linen Overshirt paused.')
    const row = await rowOf('Linen Overshirt')
    expect(row.getByText('Paused')).toBeInTheDocument()
    expect(row.getByText('Pending')).toBeInTheDocument()

    await chooseAction('Linen Overshirt', 'Resume')

    await expectToast('Success', 'Linen Overshirt resumed.')
    expect((await rowOf('Linen Overshirt')).getByText('Active')).toBeInTheDocument()
    expect(setListingCalls(fake)).toEqual([
      { listingId: ON_SALE.id, status: 'PAUSED' },
      { listingId: ON_SALE.id, status: 'ACTIVE' },
    ])
  })

  it('removes a listing only once the dialog is confirmed', async () => {
    const { fake } = creatorPage()

    const user = await chooseAction('Linen Overshirt', 'Remove')
    const dialog = await screen.findByRole('dialog', { name: 'Remove listing' })
    expect(dialog).toHaveTextContent(
      "Remove Linen Overshirt from maya makes? It leaves the creator's store; you can list it again later.",
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(setListingCalls(fake)).toEqual([])

    await chooseAction('Linen Overshirt', 'Remove')
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove listing' })).getByRole('button', {
        name: 'Remove',
      }),
    )

    await expectToast('Success', 'Linen Overshirt removed from maya makes.')
    expect(setListingCalls(fake)).toEqual([{ listingId: ON_SALE.id, status: 'REMOVED' }])
    expect((await rowOf('Linen Overshirt')).getByText('Removed')).toBeInTheDocument()
  })

  it('sets a price above the brand’s, says why the server refused one, and clears it', async () => {
    let refuse = true
    const { fake } = creatorPage({
      adminSetListing: ({ listingId, status, price }) => {
        if (refuse) throw serverRefusal('change listing', BELOW_BRAND)
        return catalogListing({ id: listingId, status, price: price ?? null, syncState: 'PENDING' })
      },
    })

    const user = await chooseAction('Linen Overshirt', 'Set price…')
    const dialog = within(await screen.findByRole('dialog', { name: 'Set price' }))
    const input = dialog.getByLabelText('Price')
    await user.type(input, '5O')
    await user.click(dialog.getByRole('button', { name: 'Save price' }))
    // Nothing the contract refuses is sent.
    expect(dialog.getByText('Must be a decimal amount')).toBeInTheDocument()
    expect(setListingCalls(fake)).toEqual([])

    await user.clear(input)
    await user.type(input, '50.00')
    await user.click(dialog.getByRole('button', { name: 'Save price' }))
    expect(await dialog.findByText(BELOW_BRAND)).toBeInTheDocument()
    await expectToast('Failed to change listing', BELOW_BRAND, 'error')

    refuse = false
    await user.clear(input)
    await user.type(input, '60.00')
    await user.click(dialog.getByRole('button', { name: 'Save price' }))

    await expectToast('Success', `Linen Overshirt sells at ${formatMoney('60.00', 'USD')}.`)
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Set price' })).not.toBeInTheDocument(),
    )
    expect((await rowOf('Linen Overshirt')).getByText(formatMoney('60.00', 'USD'))).toBeVisible()

    await chooseAction('Linen Overshirt', "Use the brand's price")

    await expectToast('Success', "Linen Overshirt sells at the brand's price.")
    expect((await rowOf('Linen Overshirt')).getByText("Brand's price")).toBeInTheDocument()
    // A price changes with the status the listing has.
    expect(setListingCalls(fake)).toEqual([
      { listingId: ON_SALE.id, status: 'ACTIVE', price: '50.00' },
      { listingId: ON_SALE.id, status: 'ACTIVE', price: '60.00' },
      { listingId: ON_SALE.id, status: 'ACTIVE', price: null },
    ])
  })

  describe('while a sync is pending', () => {
    afterEach(() => vi.useRealTimers())

    it('reads the listings again until none is pending, then stops', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true })
      const { fake, syncAll } = creatorPage({}, [catalogListing({ syncState: 'PENDING' })])
      const reads = () => fake.callsTo('adminCatalogListings').length

      expect((await rowOf('Linen Overshirt')).getByText('Pending')).toBeInTheDocument()
      expect(reads()).toBe(1)

      await act(() => vi.advanceTimersByTimeAsync(LISTING_POLL_MS))
      await waitFor(() => expect(reads()).toBe(2))
      expect((await rowOf('Linen Overshirt')).getByText('Pending')).toBeInTheDocument()

      syncAll()
      await act(() => vi.advanceTimersByTimeAsync(LISTING_POLL_MS))
      expect(await (await card()).findByText('In sync')).toBeInTheDocument()
      expect(reads()).toBe(3)

      await act(() => vi.advanceTimersByTimeAsync(LISTING_POLL_MS * 3))
      expect(reads()).toBe(3)
    })
  })
})

describe('Creator view: List products', () => {
  /** Opens the picker and chooses Northwind: its products, Linen Overshirt listed already. */
  async function openPicker() {
    const user = userEvent.setup()
    await user.click(await (await card()).findByRole('button', { name: 'List products' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'List products' }))
    await user.click(dialog.getByRole('combobox', { name: 'Brand' }))
    await user.click(await screen.findByRole('option', { name: 'northwind apparel' }))
    await dialog.findByRole('checkbox', { name: 'Wool Beanie' })
    return { user, dialog }
  }

  it("shows the brand's products with prices, the listed ones locked, and searches by title", async () => {
    const { fake } = creatorPage()

    const { user, dialog } = await openPicker()

    expect(dialog.getAllByRole('checkbox')).toHaveLength(3)
    const listed = dialog.getByRole('checkbox', { name: 'Linen Overshirt' })
    expect(listed).toBeDisabled()
    expect(listed).toHaveAccessibleDescription('Listed on this store already')
    expect(dialog.getByRole('checkbox', { name: 'Canvas Tote' })).toBeEnabled()
    expect(dialog.getByText(formatMoney('24.00', 'USD'))).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'List products' })).toBeDisabled()

    await user.type(dialog.getByRole('textbox', { name: 'Search products' }), 'TOTE')

    // The list is read again once typing pauses (how often it pauses depends on the machine's
    // speed, so only the first and last reads are certain). Between reads the list may show
    // nothing for a moment: wait for the last read's answer, the tote alone.
    const reads = () => fake.callsTo('adminStoreProducts').map((call) => call.args)
    await waitFor(() => {
      expect(reads().at(-1)).toEqual({ storeShop: NORTHWIND, search: 'TOTE', limit: 50 })
      expect(dialog.getAllByRole('checkbox')).toHaveLength(1)
      expect(dialog.getByRole('checkbox', { name: 'Canvas Tote' })).toBeInTheDocument()
    })
    expect(reads()[0]).toEqual({ storeShop: NORTHWIND, limit: 50 })
  })

  it('lists the picked products at the price given, and says which were refused and why', async () => {
    const refusal = `${BEANIE.title} is listed on ${CREATOR} already`
    const { fake } = creatorPage({
      adminListProducts: ({ productIds }: ChannelArgs<'adminListProducts'>) => ({
        listed: [
          catalogListing({
            id: 'lst_tote',
            title: TOTE.title,
            brandProductId: productIds[0]!,
            price: '30.00',
            syncState: 'PENDING',
          }),
        ],
        refused: [{ productId: BEANIE.id, message: refusal }],
      }),
    })
    const { user, dialog } = await openPicker()

    await user.click(dialog.getByRole('checkbox', { name: 'Canvas Tote' }))
    await user.click(dialog.getByRole('checkbox', { name: 'Wool Beanie' }))
    await user.type(dialog.getByLabelText('Price (optional)'), '30.00')
    await user.click(dialog.getByRole('button', { name: 'List 2 products' }))

    await expectToast('Products listed', 'Listed 1 product on maya makes. 1 was not listed.')
    expect(fake.callsTo('adminListProducts').map((call) => call.args)).toEqual([
      {
        creatorStoreShop: CREATOR,
        brandStoreShop: NORTHWIND,
        productIds: [TOTE.id, BEANIE.id],
        price: '30.00',
      },
    ])
    // The picker stays open on what was refused; what was listed is listed now.
    expect(dialog.getByText('1 product was not listed')).toBeInTheDocument()
    expect(dialog.getByText(`: ${refusal}`, { exact: false })).toHaveTextContent(
      `Wool Beanie: ${refusal}`,
    )
    expect(dialog.getByRole('checkbox', { name: 'Canvas Tote' })).toBeDisabled()
    expect(dialog.getByRole('checkbox', { name: 'Wool Beanie' })).not.toBeChecked()
    await user.keyboard('{Escape}')
    expect((await rowOf('Canvas Tote')).getByText('Pending')).toBeInTheDocument()
  })

  it('closes once everything picked is listed, at the brand’s price when none is given', async () => {
    const { fake } = creatorPage({
      adminListProducts: () => ({
        listed: [
          catalogListing({ id: 'lst_beanie', title: BEANIE.title, brandProductId: BEANIE.id }),
        ],
        refused: [],
      }),
    })
    const { user, dialog } = await openPicker()

    await user.click(dialog.getByRole('checkbox', { name: 'Wool Beanie' }))
    await user.click(dialog.getByRole('button', { name: 'List 1 product' }))

    await expectToast('Products listed', 'Listed 1 product on maya makes.')
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'List products' })).not.toBeInTheDocument(),
    )
    expect(await rowOf('Wool Beanie')).toBeTruthy()
    expect(fake.callsTo('adminListProducts').map((call) => call.args)).toEqual([
      { creatorStoreShop: CREATOR, brandStoreShop: NORTHWIND, productIds: [BEANIE.id] },
    ])
  })

  it('shows the server’s refusal of the whole request in the picker, and lists nothing', async () => {
    creatorPage({
      adminListProducts: () => {
        throw serverRefusal('list products', BELOW_BRAND)
      },
    })
    const { user, dialog } = await openPicker()

    await user.click(dialog.getByRole('checkbox', { name: 'Canvas Tote' }))
    await user.type(dialog.getByLabelText('Price (optional)'), '50.00')
    await user.click(dialog.getByRole('button', { name: 'List 1 product' }))

    await expectToast('Failed to list products', BELOW_BRAND, 'error')
    expect(dialog.getByText(BELOW_BRAND, { selector: '.mantine-Alert-message' })).toBeVisible()
    expect(dialog.getByRole('checkbox', { name: 'Canvas Tote' })).toBeChecked()
  })
})
