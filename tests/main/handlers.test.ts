import { describe, expect, it } from 'vitest'
import type { AppConfig } from '@shared/contract'
import { channels, type Channel, type FetchedReceipt } from '@shared/ipc'
import type { ApiClient } from '../../src/main/services/api/api-client'
import { createDesktopService } from '../../src/main/services/desktop/desktop-service'
import { dispatch } from '../../src/main/services/dispatch'
import { UserFacingError } from '../../src/main/services/errors'
import { buildHandlers } from '../../src/main/services/handlers'
import type { SessionService } from '../../src/main/services/session/session-service'
import { LOCAL_DEFAULTS } from '../../src/main/services/settings/build-environment'
import { createSettingsService } from '../../src/main/services/settings/settings-service'
import { memoryStore, recordingLogger } from './fakes'

const config: AppConfig = {
  shop: 'maya-makes.myshopify.com',
  clientId: 'client-maya',
  clientSecret: 'shpss_0123456789abcdef',
  secretError: null,
  shopType: 'CREATOR',
}
const receiptBytes = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 55])

/** Handlers over a fake server: answers (or functions giving them) by call name, every call recorded. */
function setUp(answers: Record<string, unknown> = {}) {
  const apiCalls: { name: string; request: unknown }[] = []
  const api: ApiClient = {
    call: (async (name: string, request?: unknown) => {
      apiCalls.push({ name, request })
      const answer = answers[name]
      if (answer instanceof Error) throw answer
      return typeof answer === 'function' ? (answer as () => unknown)() : answer
    }) as ApiClient['call'],
  }
  const session = {
    view: () => ({ signedIn: true, email: 'admin@tandem.test' }),
    signIn: async (email: string) => ({ signedIn: true, email }),
    signOut: async () => ({ signedIn: false, email: null }),
  } as unknown as SessionService
  const copied: string[] = []
  const written: Uint8Array[] = []
  const log = recordingLogger()
  const desktop = createDesktopService({
    clipboard: { writeText: async (text) => void copied.push(text) },
    saveDialog: { chooseSavePath: async (name) => `/downloads/${name}` },
    files: { writeFile: async (_path, bytes) => void written.push(bytes) },
    opener: { open: async () => {} },
    log,
  })
  const settings = createSettingsService({
    store: memoryStore(),
    defaults: LOCAL_DEFAULTS,
    sessionPersisted: () => true,
    log,
  })
  const handlers = buildHandlers({ session, settings, api, desktop })
  const invoke = (channel: string, args?: unknown) => dispatch(handlers, channel, args, log)
  return { handlers, invoke, apiCalls, copied, written, log }
}

describe('handler map', () => {
  it('has a handler for every channel', () => {
    const { handlers } = setUp()
    for (const name of Object.keys(channels) as Channel[]) {
      expect(typeof handlers[name], name).toBe('function')
    }
  })

  it('lets the renderer change the theme but never the backend the token goes to', async () => {
    const { invoke } = setUp()
    expect(await invoke('settings/update', { theme: 'light' })).toMatchObject({
      ok: true,
      value: { theme: 'light', apiUrl: 'http://127.0.0.1:8787' },
    })
    for (const patch of [
      { apiUrl: 'https://evil.example' },
      { theme: 'light', apiUrl: 'https://evil.example' },
    ]) {
      expect((await invoke('settings/update', patch)).ok).toBe(false)
    }
    expect(await invoke('settings/get')).toMatchObject({
      ok: true,
      value: { apiUrl: 'http://127.0.0.1:8787' },
    })
  })

  it('shows the renderer client secrets only masked', async () => {
    const { invoke } = setUp({ getAllAppConfig: { appConfigs: [config] } })
    const answer = await invoke('getAllAppConfig')
    expect(answer).toEqual({
      ok: true,
      value: [
        {
          shop: 'maya-makes.myshopify.com',
          clientId: 'client-maya',
          maskedClientSecret: '••••••••cdef',
          secretError: null,
          shopType: 'CREATOR',
        },
      ],
    })
    expect(JSON.stringify(answer)).not.toContain(config.clientSecret)
  })

  it('says why a secret the server cannot read is neither shown, revealed nor copied', async () => {
    const secretError =
      'The client secret of maya-makes.myshopify.com cannot be read: it was altered'
    const unreadable = { ...config, clientSecret: null, secretError }
    const { invoke, copied } = setUp({ getAllAppConfig: { appConfigs: [unreadable] } })
    expect(await invoke('getAllAppConfig')).toMatchObject({
      ok: true,
      value: [{ shop: unreadable.shop, maskedClientSecret: '', secretError }],
    })
    for (const channel of ['configs/revealSecret', 'configs/copySecret'] as const) {
      expect(await invoke(channel, { shop: unreadable.shop })).toEqual({
        ok: false,
        error: { message: secretError },
      })
    }
    expect(copied).toEqual([])
  })

  it('reveals or copies one secret only when asked for that shop', async () => {
    const { invoke, copied } = setUp({ getAllAppConfig: { appConfigs: [config] } })
    expect(await invoke('configs/revealSecret', { shop: 'maya-makes.myshopify.com' })).toEqual({
      ok: true,
      value: config.clientSecret,
    })
    expect(await invoke('configs/copySecret', { shop: 'Maya-Makes.myshopify.com' })).toEqual({
      ok: true,
      value: undefined,
    })
    expect(copied).toEqual([config.clientSecret])
    expect(await invoke('configs/revealSecret', { shop: 'nobody.myshopify.com' })).toEqual({
      ok: false,
      error: { message: 'No app config for nobody.myshopify.com.' },
    })
  })

  it('passes arguments to the server as the contract parsed them', async () => {
    const { invoke, apiCalls } = setUp({
      adminGetUniqueCommissionRates: { uniqueCommissionRates: [] },
    })
    await invoke('adminGetUniqueCommissionRates', { creatorShop: ' MAYA-makes.myshopify.com ' })
    expect(apiCalls).toEqual([
      {
        name: 'adminGetUniqueCommissionRates',
        request: { query: { creatorShop: 'maya-makes.myshopify.com' } },
      },
    ])
  })

  it("reads and sets a brand's payout account with the shop and account id as parsed", async () => {
    const account = {
      shop: 'northwind-apparel.myshopify.com',
      accountId: 'acct_1Northwind',
      email: 'payouts@northwind.test',
      transfersActive: true,
    }
    const { invoke, apiCalls } = setUp({
      adminStorePaymentAccount: account,
      adminSetStorePaymentAccount: account,
    })
    expect(
      await invoke('adminStorePaymentAccount', { shop: 'Northwind-Apparel.myshopify.com' }),
    ).toEqual({ ok: true, value: account })
    expect(
      await invoke('adminSetStorePaymentAccount', {
        shop: ' northwind-apparel.myshopify.com',
        accountId: ' acct_1Northwind ',
      }),
    ).toEqual({ ok: true, value: account })
    expect(apiCalls).toEqual([
      {
        name: 'adminStorePaymentAccount',
        request: { query: { shop: 'northwind-apparel.myshopify.com' } },
      },
      {
        name: 'adminSetStorePaymentAccount',
        request: {
          body: { shop: 'northwind-apparel.myshopify.com', accountId: 'acct_1Northwind' },
        },
      },
    ])
  })

  it('saves exactly the bytes of the receipt it showed, named by the id it gave them', async () => {
    const second = new Uint8Array([37, 80, 68, 70, 45, 50])
    let fetches = 0
    const { invoke, written } = setUp({
      adminPreviewOrderTransferReceiptPdf: () => (++fetches === 1 ? receiptBytes : second),
    })
    const first = await invoke('adminPreviewOrderTransferReceiptPdf', { creatorOrderId: '1001' })
    const later = await invoke('adminPreviewOrderTransferReceiptPdf', { creatorOrderId: '1001' })
    if (!first.ok || !later.ok) throw new Error('the fetches failed')
    const shown = first.value as FetchedReceipt
    expect(shown.bytes).toEqual(receiptBytes)
    expect((later.value as FetchedReceipt).bytes).toEqual(second)
    expect((later.value as FetchedReceipt).receiptId).not.toBe(shown.receiptId)

    // The earlier receipt of the same order is the one saved: the one its id names.
    const saved = await invoke('receipt/save', {
      receiptId: shown.receiptId,
      suggestedName: 'tandem-receipt-#1001.pdf',
    })
    expect(saved).toEqual({
      ok: true,
      value: { saved: true, path: '/downloads/tandem-receipt-#1001.pdf' },
    })
    expect(written).toEqual([receiptBytes])
  })

  it('refuses to save bytes it never fetched', async () => {
    const { invoke, written } = setUp()
    const save = (receiptId: string) =>
      invoke('receipt/save', { receiptId, suggestedName: 'tandem-receipt-#1001.pdf' })
    expect(await save('8d7c1a52-6a7e-4d8f-9b1e-2f0f5d3c4b1a')).toEqual({
      ok: false,
      error: { message: 'Open the receipt again before saving it.' },
    })
    expect(await save('../../etc/passwd')).toMatchObject({ ok: false })
    expect(written).toEqual([])
  })
})

describe('CSV export', () => {
  it('saves exactly the bytes the server sent, under a dated name', async () => {
    const csv = new TextEncoder().encode('creatorOrderId,brandAmount\r\n1004,22.20\r\n')
    const { invoke, written, apiCalls } = setUp({ adminOrderTransfersCsv: csv })
    const saved = await invoke('adminOrderTransfersCsv')
    expect(saved).toEqual({
      ok: true,
      value: {
        saved: true,
        path: expect.stringMatching(/^\/downloads\/tandem-transfers-\d{4}-\d{2}-\d{2}\.csv$/),
      },
    })
    expect(written).toEqual([csv])
    expect(apiCalls.map((call) => call.name)).toEqual(['adminOrderTransfersCsv'])
  })
})

describe('Data request download', () => {
  it('saves exactly the JSON the server sent, named after the request', async () => {
    const json = new TextEncoder().encode('{"shop":"maya-makes.myshopify.com","held":{}}')
    const { invoke, written, apiCalls } = setUp({ adminDataRequestJson: json })
    const saved = await invoke('adminDataRequestJson', { id: 'maya-makes.myshopify.com:901' })
    expect(saved).toEqual({
      ok: true,
      value: {
        saved: true,
        path: '/downloads/tandem-data-request-maya-makes.myshopify.com-901.json',
      },
    })
    expect(written).toEqual([json])
    expect(apiCalls).toEqual([
      { name: 'adminDataRequestJson', request: { query: { id: 'maya-makes.myshopify.com:901' } } },
    ])
  })
})

describe('dispatch', () => {
  it('refuses unknown channels, including names from the object prototype', async () => {
    const { invoke } = setUp()
    expect(await invoke('session/steal')).toEqual({
      ok: false,
      error: { message: 'Unknown request "session/steal".' },
    })
    expect((await invoke('constructor')).ok).toBe(false)
    expect((await invoke('__proto__')).ok).toBe(false)
  })

  it('refuses bad arguments with the field and rule, and calls nothing', async () => {
    const { invoke, apiCalls } = setUp()
    expect(await invoke('adminUpdateProducts', { storeShop: 'evil.com' })).toEqual({
      ok: false,
      error: { message: 'Invalid input: storeShop must look like name.myshopify.com' },
    })
    expect(
      (await invoke('adminUpdateProducts', { storeShop: 'a.myshopify.com', extra: 1 })).ok,
    ).toBe(false)
    expect((await invoke('external/open', { url: 'javascript:alert(1)' })).ok).toBe(false)
    expect((await invoke('session/status', { anything: true })).ok).toBe(false)
    expect(apiCalls).toEqual([])
  })

  it('refuses a payout account that is not a Stripe account id, and calls nothing', async () => {
    const { invoke, apiCalls } = setUp()
    const set = (accountId: unknown, extra = {}) =>
      invoke('adminSetStorePaymentAccount', {
        shop: 'northwind-apparel.myshopify.com',
        accountId,
        ...extra,
      })
    expect(await set('northwind')).toEqual({
      ok: false,
      error: { message: 'Invalid input: accountId must look like acct_…' },
    })
    expect(await set('  ')).toEqual({
      ok: false,
      error: { message: 'Invalid input: accountId is required' },
    })
    expect((await set('acct_1Northwind', { email: 'x@y.z' })).ok).toBe(false)
    expect((await invoke('adminStorePaymentAccount', { shop: 'northwind.com' })).ok).toBe(false)
    expect(apiCalls).toEqual([])
  })

  it('forwards sentences meant for a person with their reason', async () => {
    const { invoke } = setUp({
      adminPreviewOrderTransfer: new UserFacingError(
        'Failed to fetch preview: Commission not found',
        'Commission not found',
      ),
    })
    expect(await invoke('adminPreviewOrderTransfer', { creatorOrderId: '1002' })).toEqual({
      ok: false,
      error: {
        message: 'Failed to fetch preview: Commission not found',
        reason: 'Commission not found',
      },
    })
  })

  it('logs unexpected errors and tells the renderer only that something went wrong', async () => {
    const { invoke, log } = setUp({ adminAllStores: new TypeError('x is not a function') })
    expect(await invoke('adminAllStores')).toEqual({
      ok: false,
      error: { message: 'Something went wrong in Tandem Admin; the details are in its log.' },
    })
    expect(log.lines).toEqual(['error adminAllStores failed unexpectedly x is not a function'])
  })
})
