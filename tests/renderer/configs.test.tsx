import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { AppUrls, ShopConnection } from '@shared/contract'
import type { AppConfigView, ChannelArgs } from '@shared/ipc'
import { BridgeError } from '@renderer/lib/bridge'
import { SIGNED_IN, deferred, fakeBridge, serverRefusal } from './support/fake-bridge'
import type { FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { cellTexts, dataRows, narrowWindow, rowOf } from './support/table'
import { expectToast } from './support/toasts'

// docs/product-rules.md "The console's screens" (/main/configs), "The console's texts", issue 5 and
// the deliberate departures, as a person sees them.

const CONFIGS: AppConfigView[] = [
  {
    shop: 'lumen-botanicals.myshopify.com',
    clientId: 'lumen-client',
    maskedClientSecret: '••••••••9f3a',
    secretError: null,
    shopType: 'BRAND',
  },
  {
    shop: 'maya-makes.myshopify.com',
    clientId: 'maya-client',
    maskedClientSecret: '••••••••77c1',
    secretError: null,
    shopType: 'CREATOR',
  },
  {
    shop: 'northwind-apparel.myshopify.com',
    clientId: 'northwind-client',
    maskedClientSecret: '••••••••',
    secretError: null,
    shopType: 'BRAND',
  },
]

const APP_URLS: AppUrls = {
  brandAppUrl: 'http://127.0.0.1:4000/shopify/brand',
  creatorAppUrl: 'http://127.0.0.1:4000/shopify/creator',
  brandAppAuthUrl:
    'http://127.0.0.1:4000/shopify/brand/auth/callback,http://127.0.0.1:4000/shopify/brand/auth/shopify/callback',
  creatorAppAuthUrl:
    'http://127.0.0.1:4000/shopify/creator/auth/callback,http://127.0.0.1:4000/shopify/creator/auth/shopify/callback',
}

type CreateArgs = ChannelArgs<'createAppConfig'>

const SHOP_RULE = 'Shop must look like name.myshopify.com'

const REFUSED =
  'Shopify refused a token for maya-makes.myshopify.com: Client credentials cannot be performed on this shop.'

/** Lumen is connected, Northwind not yet, Maya's grant was refused. */
const CONNECTIONS: Record<string, ShopConnection> = {
  'lumen-botanicals.myshopify.com': {
    shop: 'lumen-botanicals.myshopify.com',
    state: 'CONNECTED',
    method: 'CLIENT_CREDENTIALS',
    scopes: ['read_products'],
    message: null,
  },
  'northwind-apparel.myshopify.com': {
    shop: 'northwind-apparel.myshopify.com',
    state: 'NOT_CONNECTED',
    method: null,
    scopes: [],
    message: 'Tandem holds no access token for this shop yet: test the connection to get one',
  },
  'maya-makes.myshopify.com': {
    shop: 'maya-makes.myshopify.com',
    state: 'ERROR',
    method: null,
    scopes: [],
    message: REFUSED,
  },
}
const connectionOf = ({ shop }: { shop: string }) => CONNECTIONS[shop]!

function renderConfigs(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    getAllAppConfig: () => CONFIGS,
    getAppUrls: () => APP_URLS,
    adminShopConnection: connectionOf,
    'clipboard/writeText': () => undefined,
    ...answers,
  })
  renderApp(fake.bridge, '/main/configs')
  return fake
}

const tab = (name: 'Brands' | 'Creators') => screen.getByRole('tab', { name })
const addConfig = () => screen.getByRole('button', { name: 'Add Config' })
const createButton = () => screen.getByRole('button', { name: 'Create' })

/** Waits for the list, as it shows once both it and the app URLs arrived. */
const loaded = () => screen.findByRole('table')

async function fillForm(values: Partial<CreateArgs>) {
  const user = userEvent.setup()
  if (values.shop !== undefined) await user.type(screen.getByLabelText('Shop'), values.shop)
  if (values.clientId !== undefined)
    await user.type(screen.getByLabelText('Client ID'), values.clientId)
  if (values.clientSecret !== undefined)
    await user.type(screen.getByLabelText('Client Secret'), values.clientSecret)
  if (values.shopType === 'CREATOR')
    await user.click(screen.getByRole('radio', { name: 'Creator' }))
  return user
}

describe('Configs list', () => {
  it('shows "Loading..." until the configs and URLs arrive, then the success toast', async () => {
    const list = deferred<AppConfigView[]>()
    const fake = renderConfigs({ getAllAppConfig: () => list.promise })

    expect(await screen.findByRole('heading', { name: 'Configs' })).toBeInTheDocument()
    expect(screen.getByText('Loading...')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    await act(async () => list.resolve(CONFIGS))

    expect(screen.queryByText('Loading...')).not.toBeInTheDocument()
    await expectToast('Success', 'App configs fetched successfully')
    expect(fake.callsTo('getAllAppConfig')).toHaveLength(1)
    expect(fake.callsTo('getAppUrls')).toHaveLength(1)
  })

  it('opens on Brands, listing each brand config with its secret masked', async () => {
    renderConfigs()
    await loaded()

    expect(tab('Brands')).toHaveAttribute('aria-selected', 'true')
    expect(tab('Creators')).toHaveAttribute('aria-selected', 'false')
    expect(screen.getByRole('heading', { name: 'App Configurations' })).toBeInTheDocument()
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Shop', 'Client ID', 'Client secret', 'Shop type', 'Connection', 'Delete'])
    expect(await screen.findByText('client credentials')).toBeInTheDocument()
    expect(dataRows().map(cellTexts)).toEqual([
      [
        'lumen-botanicals.myshopify.com',
        'lumen-client',
        '••••••••9f3aRevealCopy',
        'Brand',
        'ConnectedTest connectionclient credentials',
        '',
      ],
      [
        'northwind-apparel.myshopify.com',
        'northwind-client',
        '••••••••RevealCopy',
        'Brand',
        'Not connectedTest connection',
        '',
      ],
    ])
    expect(
      screen.getByRole('button', { name: 'Delete lumen-botanicals.myshopify.com' }),
    ).toBeEnabled()
  })

  it('folds client ID, secret and type into the shop at narrow widths, keeping Connection and Delete', async () => {
    // The table's media query matches, as in a window under 992 px wide.
    narrowWindow()
    renderConfigs({ 'configs/revealSecret': () => 'shpss_lumen_secret_9f3a' })
    await loaded()

    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Shop', 'Connection', 'Delete'])
    expect(await screen.findByText('client credentials')).toBeInTheDocument()
    expect(dataRows().map(cellTexts)).toEqual([
      [
        'lumen-botanicals.myshopify.comClient IDlumen-clientClient secret••••••••9f3aRevealCopy',
        'ConnectedTest connectionclient credentials',
        '',
      ],
      [
        'northwind-apparel.myshopify.comClient IDnorthwind-clientClient secret••••••••RevealCopy',
        'Not connectedTest connection',
        '',
      ],
    ])
    const lumen = rowOf('lumen-botanicals.myshopify.com')
    await userEvent.click(within(lumen).getByRole('button', { name: 'Reveal' }))
    expect(await within(lumen).findByText('shpss_lumen_secret_9f3a')).toBeInTheDocument()
    expect(
      screen.getByRole('button', { name: 'Delete lumen-botanicals.myshopify.com' }),
    ).toBeEnabled()
  })

  it('shows why a secret the server cannot read is unreadable, with nothing to reveal', async () => {
    const unreadable =
      'The client secret of northwind-apparel.myshopify.com cannot be read: it was sealed under key 0123456789ab, which this server does not hold'
    renderConfigs({
      getAllAppConfig: () =>
        CONFIGS.map((config) =>
          config.shop.startsWith('northwind')
            ? { ...config, maskedClientSecret: '', secretError: unreadable }
            : config,
        ),
    })
    await loaded()

    const northwind = rowOf('northwind-apparel.myshopify.com')
    expect(within(northwind).getByText(unreadable)).toBeInTheDocument()
    expect(within(northwind).queryByRole('button', { name: 'Reveal' })).not.toBeInTheDocument()
    expect(within(northwind).queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument()
    // The other rows are as they were.
    expect(cellTexts(rowOf('lumen-botanicals.myshopify.com'))[2]).toBe('••••••••9f3aRevealCopy')
  })

  it('lists the creator configs on the Creators tab', async () => {
    renderConfigs()
    await loaded()

    await userEvent.click(tab('Creators'))

    expect(tab('Creators')).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByText(REFUSED)).toBeInTheDocument()
    expect(dataRows().map(cellTexts)).toEqual([
      [
        'maya-makes.myshopify.com',
        'maya-client',
        '••••••••77c1RevealCopy',
        'Creator',
        `ErrorTest connection${REFUSED}`,
        '',
      ],
    ])
  })

  it('tests a connection and shows what the shop answered, or why the test failed', async () => {
    const tested = deferred<ShopConnection>()
    const fake = renderConfigs({ adminTestShopConnection: () => tested.promise })
    await loaded()
    const northwind = rowOf('northwind-apparel.myshopify.com')
    expect(await within(northwind).findByText('Not connected')).toBeInTheDocument()

    await userEvent.click(within(northwind).getByRole('button', { name: 'Test connection' }))
    expect(fake.callsTo('adminTestShopConnection')).toEqual([
      { channel: 'adminTestShopConnection', args: { shop: 'northwind-apparel.myshopify.com' } },
    ])
    const reason =
      'Shopify refused a token for northwind-apparel.myshopify.com: Client credentials cannot be performed on this shop.'
    await act(async () =>
      tested.resolve({
        shop: 'northwind-apparel.myshopify.com',
        state: 'ERROR',
        method: null,
        scopes: [],
        message: reason,
      }),
    )
    expect(within(northwind).getByText('Error')).toBeInTheDocument()
    expect(within(northwind).getByText(reason)).toBeInTheDocument()
    await expectToast('Could not connect to northwind apparel', reason, 'error')
  })

  it('says what a successful test reached, and how', async () => {
    renderConfigs({
      adminTestShopConnection: () => ({
        ...CONNECTIONS['lumen-botanicals.myshopify.com']!,
        shop: 'northwind-apparel.myshopify.com',
        scopes: ['read_products', 'read_orders'],
      }),
    })
    await loaded()
    const northwind = rowOf('northwind-apparel.myshopify.com')

    await userEvent.click(within(northwind).getByRole('button', { name: 'Test connection' }))

    await expectToast(
      'Connected',
      'Tandem reached northwind apparel (northwind-apparel.myshopify.com) on Shopify by client credentials, with 2 permissions, and registered its webhooks.',
    )
    expect(within(northwind).getByText('Connected')).toBeInTheDocument()
  })

  it('says so when a tab has no configs', async () => {
    renderConfigs({ getAllAppConfig: () => [] })

    expect(await screen.findByText('No brand app configs yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    await userEvent.click(tab('Creators'))
    expect(screen.getByText('No creator app configs yet.')).toBeInTheDocument()
  })

  it('shows why the load failed and reads again on Retry, never an empty list', async () => {
    let attempts = 0
    const fake = renderConfigs({
      getAllAppConfig: () => {
        attempts += 1
        if (attempts === 1) {
          throw serverRefusal('fetch app config', 'the server did not answer')
        }
        return CONFIGS
      },
    })

    expect(
      await screen.findByText('Failed to fetch app config: the server did not answer'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByText('No brand app configs yet.')).not.toBeInTheDocument()
    expect(screen.queryByText('App configs fetched successfully')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))

    await loaded()
    expect(dataRows()).toHaveLength(2)
    expect(fake.callsTo('getAllAppConfig')).toHaveLength(2)
    expect(screen.queryByText(/Failed to fetch app config/)).not.toBeInTheDocument()
    await expectToast('Success', 'App configs fetched successfully')
  })

  it('shows the failure when the app URLs cannot be read', async () => {
    renderConfigs({
      getAppUrls: () => {
        throw new BridgeError({ message: 'Failed to fetch app urls: Bad gateway' })
      },
    })

    expect(await screen.findByText('Failed to fetch app urls: Bad gateway')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })
})

describe('Client secrets', () => {
  it('reveals a secret on request and hides it again', async () => {
    const fake = renderConfigs({ 'configs/revealSecret': () => 'shpss_lumen_secret_9f3a' })
    await loaded()
    const user = userEvent.setup()

    expect(fake.callsTo('configs/revealSecret')).toHaveLength(0)
    await user.click(
      within(rowOf('lumen-botanicals.myshopify.com')).getByRole('button', { name: 'Reveal' }),
    )

    const row = rowOf('lumen-botanicals.myshopify.com')
    expect(within(row).getByText('shpss_lumen_secret_9f3a')).toBeInTheDocument()
    expect(fake.callsTo('configs/revealSecret').map((call) => call.args)).toEqual([
      { shop: 'lumen-botanicals.myshopify.com' },
    ])
    // Only the row asked about.
    expect(
      within(rowOf('northwind-apparel.myshopify.com')).getByText('••••••••'),
    ).toBeInTheDocument()

    await user.click(within(row).getByRole('button', { name: 'Hide' }))
    expect(within(row).getByText('••••••••9f3a')).toBeInTheDocument()
    expect(within(row).queryByText('shpss_lumen_secret_9f3a')).not.toBeInTheDocument()
  })

  it('says why a secret could not be revealed', async () => {
    renderConfigs({
      'configs/revealSecret': () => {
        throw new BridgeError({ message: 'No app config for lumen-botanicals.myshopify.com.' })
      },
    })
    await loaded()

    await userEvent.click(
      within(rowOf('lumen-botanicals.myshopify.com')).getByRole('button', { name: 'Reveal' }),
    )

    await expectToast('Error', 'No app config for lumen-botanicals.myshopify.com.', 'error')
    expect(
      within(rowOf('lumen-botanicals.myshopify.com')).getByText('••••••••9f3a'),
    ).toBeInTheDocument()
  })

  it('copies a secret through main, without the renderer seeing it', async () => {
    const fake = renderConfigs({ 'configs/copySecret': () => undefined })
    await loaded()

    await userEvent.click(
      within(rowOf('northwind-apparel.myshopify.com')).getByRole('button', { name: 'Copy' }),
    )

    expect(fake.callsTo('configs/copySecret').map((call) => call.args)).toEqual([
      { shop: 'northwind-apparel.myshopify.com' },
    ])
    expect(fake.callsTo('configs/revealSecret')).toHaveLength(0)
    expect(fake.callsTo('clipboard/writeText')).toHaveLength(0)
    await expectToast(
      'Client secret copied',
      'The client secret has been copied to your clipboard.',
    )
  })
})

describe('Add config', () => {
  it('opens the form and disables Add Config and the tabs while it is open', async () => {
    renderConfigs()
    await loaded()

    await userEvent.click(addConfig())

    const form = screen.getByRole('form', { name: 'Shopify App Configuration' })
    expect(form).toHaveAccessibleDescription(
      'Add a custom app config to connect to a shopify store',
    )
    expect(screen.getByLabelText('Shop')).toHaveAttribute('placeholder', 'your-store.myshopify.com')
    expect(screen.getByLabelText('Client ID')).toHaveValue('')
    expect(screen.getByLabelText('Client Secret')).toHaveValue('')
    expect(screen.getByRole('radio', { name: 'Brand' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Creator' })).not.toBeChecked()
    expect(addConfig()).toBeDisabled()
    expect(tab('Brands')).toBeDisabled()
    expect(tab('Creators')).toBeDisabled()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('keeps Create disabled until all four are filled, spaces not counting', async () => {
    renderConfigs()
    await loaded()
    await userEvent.click(addConfig())

    expect(createButton()).toBeDisabled()
    const user = await fillForm({ shop: 'new-brand.myshopify.com', clientId: 'abc' })
    expect(createButton()).toBeDisabled()
    await user.type(screen.getByLabelText('Client Secret'), '   ')
    expect(createButton()).toBeDisabled()
    await user.type(screen.getByLabelText('Client Secret'), 's3cret')
    expect(createButton()).toBeEnabled()
    await user.clear(screen.getByLabelText('Client ID'))
    expect(createButton()).toBeDisabled()
  })

  it('sends the values trimmed, closes the form and shows the new row on its tab', async () => {
    const created = deferred<AppConfigView>()
    const fake = renderConfigs({ createAppConfig: () => created.promise })
    await loaded()
    await userEvent.click(addConfig())

    const user = await fillForm({
      shop: '  new-creator.myshopify.com ',
      clientId: ' client-42 ',
      clientSecret: '  shpss_new_secret  ',
      shopType: 'CREATOR',
    })
    await user.click(createButton())

    expect(fake.callsTo('createAppConfig').map((call) => call.args)).toEqual([
      {
        shop: 'new-creator.myshopify.com',
        clientId: 'client-42',
        clientSecret: 'shpss_new_secret',
        shopType: 'CREATOR',
      },
    ])

    await act(async () =>
      created.resolve({
        shop: 'new-creator.myshopify.com',
        clientId: 'client-42',
        maskedClientSecret: '••••••••cret',
        secretError: null,
        shopType: 'CREATOR',
      }),
    )

    await expectToast('Success', 'App config created successfully')
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
    expect(addConfig()).toBeEnabled()
    expect(tab('Creators')).toHaveAttribute('aria-selected', 'true')
    expect(tab('Brands')).toBeEnabled()
    expect(dataRows().map((row) => cellTexts(row).slice(0, 4))).toEqual([
      ['maya-makes.myshopify.com', 'maya-client', '••••••••77c1RevealCopy', 'Creator'],
      ['new-creator.myshopify.com', 'client-42', '••••••••cretRevealCopy', 'Creator'],
    ])
  })

  it('refuses a duplicate with the reason and keeps what was typed', async () => {
    const reason = 'An app config for maya-makes.myshopify.com already exists'
    renderConfigs({
      createAppConfig: () => {
        throw serverRefusal('create app config', reason)
      },
    })
    await loaded()
    await userEvent.click(addConfig())

    const user = await fillForm({
      shop: 'Maya-Makes.myshopify.com',
      clientId: 'again',
      clientSecret: 'again-secret',
      shopType: 'CREATOR',
    })
    await user.click(createButton())

    await expectToast('Error', 'Failed to create app config', 'error')
    const form = screen.getByRole('form', { name: 'Shopify App Configuration' })
    expect(within(form).getByText(reason)).toBeInTheDocument()
    expect(screen.getByLabelText('Shop')).toHaveValue('Maya-Makes.myshopify.com')
    expect(screen.getByLabelText('Client ID')).toHaveValue('again')
    expect(screen.getByLabelText('Client Secret')).toHaveValue('again-secret')
    expect(screen.getByRole('radio', { name: 'Creator' })).toBeChecked()
    expect(createButton()).toBeEnabled()
    expect(addConfig()).toBeDisabled()
  })

  it('says on the Shop field what is wrong once it is left, follows each key, and sends nothing', async () => {
    const fake = renderConfigs()
    await loaded()
    await userEvent.click(addConfig())
    const shop = screen.getByLabelText('Shop')

    const user = await fillForm({ shop: 'new-brand' })
    // Half a domain is not called wrong while it is being typed.
    expect(screen.queryByText(SHOP_RULE)).not.toBeInTheDocument()
    await user.tab()
    expect(shop).toHaveAccessibleDescription(expect.stringContaining(SHOP_RULE))
    expect(shop).toHaveAttribute('aria-invalid', 'true')

    await user.type(shop, '.myshopify.com')
    expect(screen.queryByText(SHOP_RULE)).not.toBeInTheDocument()
    await user.type(shop, '/admin')
    expect(screen.getByText(SHOP_RULE)).toBeInTheDocument()

    await fillForm({ clientId: 'id', clientSecret: 'secret' })
    await user.click(createButton())
    expect(screen.getByText(SHOP_RULE)).toBeInTheDocument()
    expect(fake.callsTo('createAppConfig')).toHaveLength(0)
  })

  it('says on the field what is wrong with a client id, once it is left', async () => {
    renderConfigs()
    await loaded()
    await userEvent.click(addConfig())

    const user = await fillForm({ clientId: 'has space' })
    await user.tab()

    expect(screen.getByLabelText('Client ID')).toHaveAccessibleDescription(
      'Client ID must hold only letters, digits, "_" and "-", as Shopify\'s do',
    )
  })

  it.each(['https://New-Brand.myshopify.com/', 'NEW-BRAND.myshopify.com'])(
    'takes %s as the shop new-brand.myshopify.com',
    async (typed) => {
      const fake = renderConfigs({ createAppConfig: () => new Promise(() => undefined) })
      await loaded()
      await userEvent.click(addConfig())

      const user = await fillForm({ shop: typed, clientId: 'id', clientSecret: 'secret' })
      await user.click(createButton())

      expect(screen.queryByText(SHOP_RULE)).not.toBeInTheDocument()
      expect(fake.callsTo('createAppConfig').map((call) => call.args)).toEqual([
        {
          shop: 'new-brand.myshopify.com',
          clientId: 'id',
          clientSecret: 'secret',
          shopType: 'BRAND',
        },
      ])
    },
  )

  it('starts on the shop type of the tab it was opened from', async () => {
    renderConfigs()
    await loaded()

    await userEvent.click(tab('Creators'))
    await userEvent.click(addConfig())

    expect(screen.getByRole('radio', { name: 'Creator' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Brand' })).not.toBeChecked()
  })

  it('takes at most the contract’s 128 characters of a pasted client id or secret', async () => {
    const fake = renderConfigs()
    await loaded()
    await userEvent.click(addConfig())
    const user = userEvent.setup()
    for (const label of ['Client ID', 'Client Secret']) {
      await user.click(screen.getByLabelText(label))
      await user.paste('a'.repeat(900))
      expect(screen.getByLabelText(label)).toHaveValue('a'.repeat(128))
    }
    expect(fake.callsTo('createAppConfig')).toHaveLength(0)
  })

  it('says "Missing some fields" if the form is submitted with a field missing', async () => {
    const fake = renderConfigs()
    await loaded()
    await userEvent.click(addConfig())
    await fillForm({ shop: 'new-brand.myshopify.com', clientId: 'id', clientSecret: '  ' })

    fireEvent.submit(screen.getByRole('form', { name: 'Shopify App Configuration' }))

    await expectToast('Error', 'Missing some fields. All fields are required', 'error')
    expect(fake.callsTo('createAppConfig')).toHaveLength(0)
  })

  it('closes the form on Cancel, and opens it empty again', async () => {
    const fake = renderConfigs()
    await loaded()
    await userEvent.click(addConfig())
    const user = await fillForm({ shop: 'half-done.myshopify.com', shopType: 'CREATOR' })

    await user.click(screen.getByRole('button', { name: 'Cancel' }))

    expect(screen.queryByRole('form')).not.toBeInTheDocument()
    expect(addConfig()).toBeEnabled()
    expect(tab('Brands')).toHaveAttribute('aria-selected', 'true')
    expect(dataRows()).toHaveLength(2)
    expect(fake.callsTo('createAppConfig')).toHaveLength(0)

    await user.click(addConfig())
    expect(screen.getByLabelText('Shop')).toHaveValue('')
    expect(screen.getByRole('radio', { name: 'Brand' })).toBeChecked()
  })
})

describe('Delete config', () => {
  it('asks first, then deletes: toast and the row goes', async () => {
    const fake = renderConfigs({ deleteAppConfig: ({ shop }) => ({ ...CONFIGS[0]!, shop }) })
    await loaded()
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen-botanicals.myshopify.com' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete app config' })
    expect(dialog).toHaveTextContent('Delete the app config of lumen-botanicals.myshopify.com?')
    expect(fake.callsTo('deleteAppConfig')).toHaveLength(0)

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))

    expect(fake.callsTo('deleteAppConfig').map((call) => call.args)).toEqual([
      { shop: 'lumen-botanicals.myshopify.com' },
    ])
    await expectToast('Success', 'App config deleted successfully')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(dataRows().map((row) => cellTexts(row)[0])).toEqual(['northwind-apparel.myshopify.com'])
  })

  it('deletes nothing on Cancel', async () => {
    const fake = renderConfigs()
    await loaded()
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen-botanicals.myshopify.com' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }))

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(fake.callsTo('deleteAppConfig')).toHaveLength(0)
    expect(dataRows()).toHaveLength(2)
  })

  it('keeps the row when the delete fails, and says why', async () => {
    const reason = 'No app config for lumen-botanicals.myshopify.com'
    renderConfigs({
      deleteAppConfig: () => {
        throw serverRefusal('delete app config', reason)
      },
    })
    await loaded()
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete lumen-botanicals.myshopify.com' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))

    await expectToast('Error', 'Failed to delete app config', 'error')
    expect(screen.getByText(reason)).toBeInTheDocument()
    expect(dataRows().map((row) => cellTexts(row)[0])).toEqual([
      'lumen-botanicals.myshopify.com',
      'northwind-apparel.myshopify.com',
    ])
  })

  it('says "Shop is required" for a config without a shop, and calls nothing', async () => {
    const fake = renderConfigs({ getAllAppConfig: () => [{ ...CONFIGS[0]!, shop: '' }] })
    await loaded()
    const user = userEvent.setup()

    await user.click(screen.getByRole('button', { name: 'Delete' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))

    await expectToast('Error', 'Shop is required', 'error')
    expect(fake.callsTo('deleteAppConfig')).toHaveLength(0)
  })
})

describe('URL Configuration', () => {
  const appUrlBlock = () => screen.getByRole('button', { name: /^Copy app URL/i })
  const authUrlBlock = () => screen.getByRole('button', { name: /^Copy auth URL/i })

  it("shows the current tab's app URL, and its auth URLs one per line", async () => {
    renderConfigs()
    await loaded()

    expect(screen.getByRole('heading', { name: 'URL Configuration' })).toBeInTheDocument()
    expect(within(appUrlBlock()).getByText(APP_URLS.brandAppUrl)).toBeInTheDocument()
    expect(
      within(authUrlBlock())
        .getAllByText(/^http/)
        .map((line) => line.textContent),
    ).toEqual([
      'http://127.0.0.1:4000/shopify/brand/auth/callback',
      'http://127.0.0.1:4000/shopify/brand/auth/shopify/callback',
    ])

    await userEvent.click(tab('Creators'))

    expect(within(appUrlBlock()).getByText(APP_URLS.creatorAppUrl)).toBeInTheDocument()
    expect(
      within(authUrlBlock())
        .getAllByText(/^http/)
        .map((line) => line.textContent),
    ).toEqual([
      'http://127.0.0.1:4000/shopify/creator/auth/callback',
      'http://127.0.0.1:4000/shopify/creator/auth/shopify/callback',
    ])
  })

  it("follows the form's shop type while the form is open", async () => {
    renderConfigs()
    await loaded()
    await userEvent.click(tab('Creators'))
    await userEvent.click(addConfig())

    // The form starts on the tab's type, CREATOR here.
    expect(within(appUrlBlock()).getByText(APP_URLS.creatorAppUrl)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: 'Brand' }))
    expect(within(appUrlBlock()).getByText(APP_URLS.brandAppUrl)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: 'Creator' }))
    expect(within(appUrlBlock()).getByText(APP_URLS.creatorAppUrl)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: 'Brand' }))

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(within(appUrlBlock()).getByText(APP_URLS.creatorAppUrl)).toBeInTheDocument()
  })

  it('copies the app URL and the auth list exactly as sent, with their toasts', async () => {
    const fake = renderConfigs()
    await loaded()
    const user = userEvent.setup()

    await user.click(appUrlBlock())
    await expectToast('App URL Copied', 'The app URL has been copied to your clipboard.')

    await user.click(authUrlBlock())
    await expectToast('Auth URL Copied', 'The auth URL has been copied to your clipboard.')

    await user.click(tab('Creators'))
    await user.click(authUrlBlock())

    expect(fake.callsTo('clipboard/writeText').map((call) => call.args)).toEqual([
      { text: APP_URLS.brandAppUrl },
      { text: APP_URLS.brandAppAuthUrl },
      { text: APP_URLS.creatorAppAuthUrl },
    ])
  })

  it('says so when the clipboard write fails', async () => {
    renderConfigs({
      'clipboard/writeText': () => {
        throw new BridgeError({ message: 'The clipboard is not available.' })
      },
    })
    await loaded()

    await userEvent.click(screen.getByRole('button', { name: /^Copy app URL/i }))

    await expectToast('Error', 'The clipboard is not available.', 'error')
  })
})
