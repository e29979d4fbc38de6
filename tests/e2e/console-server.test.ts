import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent } from 'node:http'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../scripts/lib/ports'
import { firebaseTokenVerifier } from '../../server/src/auth/verify'
import { unreachableNetwork } from '../server/support/firebase-users'
import { order1001Brands, ORDER_1001_TOTALS } from '../support/sandbox-figures'
import { DEMO_ADMIN, upsertEmulatorUser } from '../../scripts/lib/auth-emulator'
import {
  RecordingClipboard,
  downloadsFolder,
  loggingOpener,
  noCipher,
  nodeFileWriter,
} from '../../src/browser-host/node-ports'
import type { FetchedReceipt, SavedFile } from '../../src/shared/ipc'
import { composeMain } from '../../src/main/services/compose'
import { dispatch } from '../../src/main/services/dispatch'
import { LOCAL_DEFAULTS } from '../../src/main/services/settings/build-environment'
import { memoryStore, recordingLogger } from '../main/fakes'
import { startServerUnderTest, type ServerUnderTest } from '../server/support/server-under-test'

// The console's main process (handler map, Firebase session, API client) against the real Tandem
// server and the real Auth emulator: what every screen will stand on.

let server: ServerUnderTest
let folder: string
let invoke: Invoke
const clipboard = new RecordingClipboard(recordingLogger())

type Invoke = (channel: string, args?: unknown) => Promise<unknown>

/** Listens on a free loopback port: the server's URL. */
async function listen(started: ServerUnderTest): Promise<string> {
  await started.app.listen({ host: '127.0.0.1', port: 0 })
  const address = started.app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

/** The console's main process against the server at `apiUrl`: its handler map, called. */
function consoleAgainst(apiUrl: string): Invoke {
  const log = recordingLogger()
  const main = composeMain({
    buildEnvironment: { ...LOCAL_DEFAULTS, apiUrl, authEmulatorUrl: inject('authEmulatorUrl') },
    store: memoryStore(),
    cipher: noCipher,
    clipboard,
    saveDialog: downloadsFolder(folder),
    files: nodeFileWriter,
    opener: loggingOpener(log),
    log,
    emit: () => {},
  })
  return async (channel, args) => {
    const envelope = await dispatch(main.handlers, channel, args, log)
    if (!envelope.ok) throw new Error(envelope.error.message)
    return envelope.value
  }
}

beforeAll(async () => {
  server = await startServerUnderTest()
  await upsertEmulatorUser(inject('authEmulatorUrl'), inject('authProjectId'), DEMO_ADMIN)
  folder = mkdtempSync(join(tmpdir(), 'tandem-console-server-'))
  invoke = consoleAgainst(await listen(server))
})

afterAll(async () => {
  await server?.close()
  rmSync(folder, { recursive: true, force: true })
})

describe('the console when the sign-in service is down', () => {
  it('says so, and keeps the admin signed in rather than asking them to sign in again', async () => {
    // The server's verifier cannot reach Firebase; the console's own sign-in still can.
    const outage = await startServerUnderTest({
      seed: false,
      verifier: firebaseTokenVerifier({
        projectId: inject('authProjectId'),
        httpAgent: unreachableNetwork(new Agent(), await freePort()),
      }),
    })
    try {
      const outageConsole = consoleAgainst(await listen(outage))
      const signedIn = { signedIn: true, email: DEMO_ADMIN.email }
      expect(
        await outageConsole('session/signIn', {
          email: DEMO_ADMIN.email,
          password: DEMO_ADMIN.password,
        }),
      ).toEqual(signedIn)
      await expect(outageConsole('adminAllStores')).rejects.toThrow(
        'Failed to fetch stores: The sign-in service (Firebase Authentication) could not be ' +
          'reached to check your sign-in: try again in a moment',
      )
      expect(await outageConsole('session/status')).toEqual(signedIn)
    } finally {
      await outage.close()
    }
  })
})

describe('the console against the Tandem server', () => {
  it('is refused by the server until it signs in', async () => {
    await expect(invoke('adminAllStores')).rejects.toThrow(/^Failed to fetch stores: /)
  })

  it('signs in the demo admin and lists the sandbox stores', async () => {
    expect(
      await invoke('session/signIn', { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }),
    ).toEqual({ signedIn: true, email: DEMO_ADMIN.email })
    expect(await invoke('adminAllStores')).toEqual([
      { shop: 'ironpeak-outdoor.myshopify.com', shopType: 'BRAND' },
      { shop: 'lumen-botanicals.myshopify.com', shopType: 'BRAND' },
      { shop: 'northwind-apparel.myshopify.com', shopType: 'BRAND' },
      { shop: 'maya-makes.myshopify.com', shopType: 'CREATOR' },
      { shop: 'urban-trail-edits.myshopify.com', shopType: 'CREATOR' },
    ])
  })

  it("previews order 1001 with the sandbox's figures", async () => {
    const { preview } = (await invoke('adminPreviewOrderTransfer', { creatorOrderId: '1001' })) as {
      preview: { currency: string; brands: unknown[]; totals: unknown }
    }
    expect(preview.currency).toBe('USD')
    expect(preview.brands).toEqual(order1001Brands())
    expect(preview.totals).toEqual(ORDER_1001_TOTALS)
  })

  it("carries the server's own message for a refused preview", async () => {
    await expect(invoke('adminPreviewOrderTransfer', { creatorOrderId: '1002' })).rejects.toThrow(
      'Failed to fetch preview: Commission not found',
    )
  })

  it('fetches the receipt PDF and saves exactly those bytes', async () => {
    const { receiptId, bytes } = (await invoke('adminPreviewOrderTransferReceiptPdf', {
      creatorOrderId: '1001',
    })) as FetchedReceipt
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-')
    const saved = (await invoke('receipt/save', {
      receiptId,
      suggestedName: 'tandem-receipt-#1001.pdf',
    })) as SavedFile
    expect(saved).toEqual({ saved: true, path: join(folder, 'tandem-receipt-#1001.pdf') })
    expect(readFileSync(saved.path ?? '').equals(Buffer.from(bytes))).toBe(true)
  })

  it('shows client secrets masked, and copies one whole to the clipboard only on request', async () => {
    const configs = (await invoke('getAllAppConfig')) as {
      shop: string
      maskedClientSecret: string
    }[]
    const maya = configs.find((config) => config.shop === 'maya-makes.myshopify.com')
    expect(maya?.maskedClientSecret).toBe('••••••••akes')
    expect(JSON.stringify(configs)).not.toContain('shpss_sandbox')
    await invoke('configs/copySecret', { shop: 'maya-makes.myshopify.com' })
    expect(clipboard.last).toBe('shpss_sandbox_maya_makes')
  })
})
