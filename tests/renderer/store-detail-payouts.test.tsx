import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { BridgeError } from '@renderer/lib/bridge'
import type { StorePaymentAccount } from '@shared/contract'
import { brandPageAnswers, creatorPageAnswers } from './support/fakes/store-page'
import { deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { declaredStyle } from './support/styles'
import { expectToast } from './support/toasts'

const BRAND = 'northwind-apparel.myshopify.com'
const NOT_FOUND = 'Payment provider connected account ID not found: acct_1Missing'

const account = (overrides: Partial<StorePaymentAccount> = {}): StorePaymentAccount => ({
  shop: BRAND,
  accountId: 'acct_1NorthwindPay',
  email: 'payouts@northwind.test',
  transfersActive: true,
  commissionOwed: [],
  commissionWaitingReason: null,
  ...overrides,
})
const NO_ACCOUNT = account({ accountId: null, email: null, transfersActive: null })

const CREATOR = 'maya-makes.myshopify.com'
/** The server's sentence for a creator's commission that waits for an account. */
const NO_ACCOUNT_REASON = `No payout account: set ${CREATOR}'s Stripe account on its store page to pay its commission`
/** A creator's account: none set and nothing owed unless a test says otherwise. */
const creatorAccount = (overrides: Partial<StorePaymentAccount> = {}) =>
  account({ shop: CREATOR, accountId: null, email: null, transfersActive: null, ...overrides })
const OWED_USD = { currency: 'USD', amount: '24.84', orders: 2 }
const OWED = [OWED_USD, { currency: 'EUR', amount: '3.10', orders: 1 }]

/** A brand's page whose payout account is `current` unless a test answers otherwise. */
const brandPage = (answers: FakeAnswers = {}, current: StorePaymentAccount = account()) => {
  const fake = fakeBridge({
    ...brandPageAnswers(BRAND),
    adminStorePaymentAccount: () => current,
    ...answers,
  })
  return { fake, app: renderApp(fake.bridge, `/main/stores/${BRAND}?type=BRAND`) }
}

/**
 * A creator's page whose payout account is `current`: its unique rates (none here; their own tests
 * are in store-detail-creator.test.tsx) beside it.
 */
const creatorPage = (current: StorePaymentAccount, answers: FakeAnswers = {}) => {
  const fake = fakeBridge({
    ...creatorPageAnswers(CREATOR),
    adminStorePaymentAccount: () => current,
    ...answers,
  })
  return { fake, app: renderApp(fake.bridge, `/main/stores/${CREATOR}?type=CREATOR`) }
}

const card = () => within(screen.getByRole('region', { name: 'Payouts' }))
const idInput = () => card().getByLabelText('Stripe account ID')
const saveButton = () => card().getByRole('button', { name: 'Save account' })
/** What the card shows under one of its labels ("Account", "Email", "Transfers"). */
const field = (label: string) => card().getByText(label, { selector: 'dt' }).nextElementSibling

/** Waits for the card to have loaded: its form is there. */
const loaded = () => screen.findByLabelText('Stripe account ID')

const expectBadge = (text: string, color: 'green' | 'red') =>
  expect(
    declaredStyle(card().getByText(text).closest('.mantine-Badge-root'), '--badge-color'),
  ).toBe(`var(--mantine-color-${color}-light-color)`)

describe('Brand view: payouts', () => {
  it('shows "Loading..." and then the account, its email and that transfers are active', async () => {
    const answer = deferred<StorePaymentAccount>()
    const { fake } = brandPage({ adminStorePaymentAccount: () => answer.promise })

    const heading = await screen.findByRole('heading', { name: 'Payouts' })
    expect(within(heading.closest('section')!).getByText('Loading...')).toBeInTheDocument()
    answer.resolve(account())
    await loaded()

    expect(field('Account')).toHaveTextContent('acct_1NorthwindPay')
    expect(field('Email')).toHaveTextContent('payouts@northwind.test')
    expect(field('Transfers')).toHaveTextContent('Transfers active')
    expectBadge('Transfers active', 'green')
    expect(card().queryByText(/will fail/)).not.toBeInTheDocument()
    expect(card().queryByText('Loading...')).not.toBeInTheDocument()
    expect(fake.callsTo('adminStorePaymentAccount')).toEqual([
      { channel: 'adminStorePaymentAccount', args: { shop: BRAND } },
    ])
  })

  it('comes below the default commission', async () => {
    brandPage()
    await loaded()

    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings).toEqual(['Default commission', 'Payouts', 'Automatic transfers', 'Listed by'])
  })

  it('says when no payout account is set, with an empty form whose button waits for an id', async () => {
    brandPage({}, NO_ACCOUNT)
    await loaded()

    expect(card().getByText('No payout account set')).toBeInTheDocument()
    expect(card().queryByText('Account')).not.toBeInTheDocument()
    expect(card().queryByText(/^Transfers (in)?active$/)).not.toBeInTheDocument()
    expect(idInput()).toHaveValue('')
    expect(idInput()).toHaveAttribute('placeholder', 'acct_…')
    expect(saveButton()).toBeDisabled()
  })

  it('says when Stripe does not know the account set', async () => {
    brandPage({}, account({ accountId: 'acct_1Gone', email: null, transfersActive: null }))
    await loaded()

    expect(field('Account')).toHaveTextContent('acct_1Gone')
    expect(card().getByText('Stripe does not know this account')).toBeInTheDocument()
    expect(card().queryByText('Email')).not.toBeInTheDocument()
    expect(card().queryByText(/^Transfers (in)?active$/)).not.toBeInTheDocument()
  })

  it('shows inactive transfers in red, and that transfers to the store will fail', async () => {
    brandPage({}, account({ transfersActive: false }))
    await loaded()

    expect(field('Transfers')).toHaveTextContent('Transfers inactive')
    expectBadge('Transfers inactive', 'red')
    expect(field('Email')).toHaveTextContent('payouts@northwind.test')
    expect(
      card().getByText(
        'Transfers to this store will fail until Stripe activates transfers on this account.',
      ),
    ).toBeInTheDocument()
  })

  it('says when the account has no email, which transfers need', async () => {
    brandPage({}, account({ email: null }))
    await loaded()

    expect(field('Email')).toHaveTextContent('No email')
    expect(field('Transfers')).toHaveTextContent('Transfers active')
    expect(
      card().getByText(
        'Transfers to this store will fail until this account has an email in Stripe.',
      ),
    ).toBeInTheDocument()
  })

  it('sets an account: sends the id trimmed, once, and shows what the server answered', async () => {
    const answer = deferred<StorePaymentAccount>()
    const { fake } = brandPage({ adminSetStorePaymentAccount: () => answer.promise }, NO_ACCOUNT)
    await loaded()
    const user = userEvent.setup()

    await user.type(idInput(), '  acct_1NewPay ')
    await user.click(saveButton())

    expect(saveButton()).toBeDisabled()
    expect(saveButton()).toHaveAttribute('data-loading', 'true')
    // Neither a second click nor Enter in the field sends it again while it is in flight.
    await user.click(saveButton())
    await user.type(idInput(), '{Enter}')
    expect(fake.callsTo('adminSetStorePaymentAccount')).toEqual([
      {
        channel: 'adminSetStorePaymentAccount',
        args: { shop: BRAND, accountId: 'acct_1NewPay' },
      },
    ])

    answer.resolve(account({ accountId: 'acct_1NewPay', email: 'finance@northwind.test' }))

    await expectToast('Success', 'Payout account set successfully.')
    expect(field('Account')).toHaveTextContent('acct_1NewPay')
    expect(field('Email')).toHaveTextContent('finance@northwind.test')
    expect(field('Transfers')).toHaveTextContent('Transfers active')
    expect(card().queryByText('No payout account set')).not.toBeInTheDocument()
    expect(idInput()).toHaveValue('')
    expect(fake.callsTo('adminStorePaymentAccount')).toHaveLength(1)
  })

  it.each([
    ['northwind', 'Must look like acct_…'],
    ['acct_', 'Must look like acct_…'],
    ['acct_1 North', 'Must look like acct_…'],
  ])('refuses %j under the field and sends nothing', async (typed, message) => {
    const { fake } = brandPage()
    await loaded()
    const user = userEvent.setup()

    await user.type(idInput(), typed)
    await user.click(saveButton())

    expect(idInput()).toBeInvalid()
    expect(idInput()).toHaveAccessibleDescription(message)
    expect(fake.callsTo('adminSetStorePaymentAccount')).toEqual([])
    expect(field('Account')).toHaveTextContent('acct_1NorthwindPay')

    // The rule is about what was typed; typing again clears it.
    await user.type(idInput(), 'x')
    expect(idInput()).toBeValid()
    expect(card().queryByText(message)).not.toBeInTheDocument()
  })

  it("says the account failed to set, with the server's reason, and keeps what was typed", async () => {
    brandPage({
      adminSetStorePaymentAccount: () => {
        throw serverRefusal('set payout account', NOT_FOUND)
      },
    })
    await loaded()
    const user = userEvent.setup()

    await user.type(idInput(), 'acct_1Missing')
    await user.click(saveButton())

    await expectToast('Failed', 'Payout account failed to set.', 'error')
    expect(card().getByText(NOT_FOUND)).toBeInTheDocument()
    expect(idInput()).toHaveValue('acct_1Missing')
    expect(saveButton()).toBeEnabled()
    // The card still shows the account the server has.
    expect(field('Account')).toHaveTextContent('acct_1NorthwindPay')

    // The reason is about the id that was refused; editing it clears the reason.
    await user.type(idInput(), '2')
    expect(card().queryByText(NOT_FOUND)).not.toBeInTheDocument()
  })

  it('shows the whole message when a failure has no separate reason', async () => {
    const message = 'Tandem Admin could not reach its host process.'
    brandPage({
      adminSetStorePaymentAccount: () => {
        throw new BridgeError({ message })
      },
    })
    await loaded()
    const user = userEvent.setup()

    await user.type(idInput(), 'acct_1NewPay')
    await user.click(saveButton())

    expect(await card().findByText(message)).toBeInTheDocument()
    await expectToast('Failed', 'Payout account failed to set.', 'error')
  })

  it('shows a load failure with Retry, which loads again', async () => {
    const failure = 'Failed to fetch payout account: Stripe could not be reached.'
    let calls = 0
    const { fake } = brandPage({
      adminStorePaymentAccount: () => {
        calls += 1
        if (calls === 1) throw new BridgeError({ message: failure })
        return account()
      },
    })

    expect(await screen.findByText(failure)).toBeInTheDocument()
    expect(screen.queryByLabelText('Stripe account ID')).not.toBeInTheDocument()
    // The commission card beside it loaded as usual.
    expect(await screen.findByLabelText('Tandem commission rate')).toHaveValue('10')

    await userEvent.click(card().getByRole('button', { name: 'Retry' }))

    await loaded()
    expect(field('Account')).toHaveTextContent('acct_1NorthwindPay')
    expect(screen.queryByText(failure)).not.toBeInTheDocument()
    expect(fake.callsTo('adminStorePaymentAccount')).toHaveLength(2)
  })
})

describe('Creator view: payouts', () => {
  it("shows the Payouts card below the unique rates, with the creator's account", async () => {
    const { fake } = creatorPage(
      creatorAccount({
        accountId: 'acct_1MayaPay',
        email: 'maya@makes.test',
        transfersActive: true,
      }),
    )
    await loaded()

    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings).toEqual(['Unique commission rates', 'New unique rate', 'Payouts', 'Listings'])
    expect(field('Account')).toHaveTextContent('acct_1MayaPay')
    expect(field('Email')).toHaveTextContent('maya@makes.test')
    expect(field('Transfers')).toHaveTextContent('Transfers active')
    expect(card().queryByText('Commission owed')).not.toBeInTheDocument()
    expect(fake.callsTo('adminStorePaymentAccount')).toEqual([
      { channel: 'adminStorePaymentAccount', args: { shop: CREATOR } },
    ])
    // A brand's own cards stay on a brand's page.
    expect(fake.callsTo('adminGetDefaultShopCommissionRate')).toEqual([])
    expect(fake.callsTo('adminBrandPause')).toEqual([])
  })

  it('shows what a creator without an account is owed, per currency, and why it waits', async () => {
    creatorPage(
      creatorAccount({ commissionOwed: OWED, commissionWaitingReason: NO_ACCOUNT_REASON }),
    )
    await loaded()

    expect(card().getByText('No payout account set')).toBeInTheDocument()
    expect(field('Commission owed')).toHaveTextContent('24.84 USD on 2 orders3.10 EUR on 1 order')
    expect(card().getByText('24.84 USD on 2 orders')).toBeInTheDocument()
    expect(card().getByText('3.10 EUR on 1 order')).toBeInTheDocument()
    expect(card().getByText(`Waiting: ${NO_ACCOUNT_REASON}`)).toBeInTheDocument()
  })

  it('shows what is owed beside an account set, with no reason when none was tried', async () => {
    creatorPage(
      creatorAccount({
        accountId: 'acct_1MayaPay',
        email: 'maya@makes.test',
        transfersActive: true,
        commissionOwed: [OWED_USD],
      }),
    )
    await loaded()

    expect(field('Account')).toHaveTextContent('acct_1MayaPay')
    expect(field('Commission owed')).toHaveTextContent('24.84 USD on 2 orders')
    expect(card().queryByText('3.10 EUR on 1 order')).not.toBeInTheDocument()
    expect(card().queryByText(/^Waiting:/)).not.toBeInTheDocument()
  })

  it('shows nothing owed when the creator is owed nothing', async () => {
    creatorPage(creatorAccount())
    await loaded()

    expect(card().getByText('No payout account set')).toBeInTheDocument()
    expect(card().queryByText('Commission owed')).not.toBeInTheDocument()
    expect(card().queryByText(/^Waiting:/)).not.toBeInTheDocument()
  })

  it("sets a creator's account and shows what the server answered of what is owed", async () => {
    const { fake } = creatorPage(
      creatorAccount({ commissionOwed: OWED, commissionWaitingReason: NO_ACCOUNT_REASON }),
      {
        // Setting it pays what is owed in the background: the answer still lists it, not waiting.
        adminSetStorePaymentAccount: ({ accountId }) =>
          creatorAccount({
            accountId,
            email: 'maya@makes.test',
            transfersActive: true,
            commissionOwed: OWED,
          }),
      },
    )
    await loaded()
    const user = userEvent.setup()

    await user.type(idInput(), 'acct_1MayaPay')
    await user.click(saveButton())

    await expectToast('Success', 'Payout account set successfully.')
    expect(fake.callsTo('adminSetStorePaymentAccount')).toEqual([
      {
        channel: 'adminSetStorePaymentAccount',
        args: { shop: CREATOR, accountId: 'acct_1MayaPay' },
      },
    ])
    expect(field('Account')).toHaveTextContent('acct_1MayaPay')
    expect(card().getByText('24.84 USD on 2 orders')).toBeInTheDocument()
    expect(card().queryByText(/^Waiting:/)).not.toBeInTheDocument()
    expect(card().queryByText('No payout account set')).not.toBeInTheDocument()
  })
})

describe('Brand view: no commission owed', () => {
  it.each([
    ['an account', account()],
    ['no account', NO_ACCOUNT],
  ])("shows no commission owed on a brand's page with %s", async (_, current) => {
    brandPage({}, current)
    await loaded()

    expect(card().queryByText('Commission owed')).not.toBeInTheDocument()
    expect(card().queryByText(/^Waiting:/)).not.toBeInTheDocument()
  })
})
