import { callInput, type AppConfig } from '@shared/contract'
import {
  forwardedChannels,
  type AppConfigView,
  type ForwardedCall,
  type HandlerMap,
  type MainHandlers,
} from '@shared/ipc'
import type { ApiClient } from './api/api-client'
import type { DesktopService } from './desktop/desktop-service'
import { UserFacingError } from './errors'
import { ReceiptCache } from './receipt-cache'
import type { SessionService } from './session/session-service'
import type { SettingsService } from './settings/settings-service'

export interface Services {
  session: SessionService
  settings: SettingsService
  api: ApiClient
  desktop: DesktopService
}

/** The main process's abilities, one function per channel of src/shared/ipc.ts. */
export function buildHandlers({ session, settings, api, desktop }: Services): HandlerMap {
  const receipts = new ReceiptCache()

  // Client secrets stay in main: the renderer gets them masked, and whole only when a person
  // asks to reveal one.
  const findSecret = async (shop: string): Promise<string> => {
    const { appConfigs } = await api.call('getAllAppConfig')
    const config = appConfigs.find((candidate) => candidate.shop === shop)
    if (!config) throw new UserFacingError(`No app config for ${shop}.`)
    if (config.clientSecret === null)
      throw new UserFacingError(
        config.secretError ?? `The client secret of ${shop} cannot be read.`,
      )
    return config.clientSecret
  }

  const own: MainHandlers = {
    'session/status': async () => session.view(),
    'session/signIn': ({ email, password }) => session.signIn(email, password),
    'session/signOut': () => session.signOut(),

    'settings/get': async () => settings.view(),
    'settings/update': async ({ theme }) => settings.setTheme(theme),

    getAllAppConfig: async () => (await api.call('getAllAppConfig')).appConfigs.map(toView),
    createAppConfig: async (body) =>
      toView((await api.call('createAppConfig', { body })).appConfig),
    deleteAppConfig: async (params) =>
      toView((await api.call('deleteAppConfig', { params })).appConfig),
    'configs/revealSecret': ({ shop }) => findSecret(shop),
    'configs/copySecret': async ({ shop }) => desktop.copyText(await findSecret(shop)),

    adminPreviewOrderTransferReceiptPdf: async (query) => {
      const bytes = await api.call('adminPreviewOrderTransferReceiptPdf', { query })
      return { receiptId: receipts.remember(bytes), bytes }
    },
    'receipt/save': async ({ receiptId, suggestedName }) => {
      const bytes = receipts.get(receiptId)
      if (!bytes) throw new UserFacingError('Open the receipt again before saving it.')
      return desktop.saveFile(suggestedName, bytes)
    },
    adminOrderTransfersCsv: async () => {
      const bytes = await api.call('adminOrderTransfersCsv')
      const day = new Date().toISOString().slice(0, 10)
      return desktop.saveFile(`tandem-transfers-${day}.csv`, bytes)
    },
    adminDataRequestJson: async (query) => {
      const bytes = await api.call('adminDataRequestJson', { query })
      // `{shop}:{request id}`: a colon is no character of a file name everywhere.
      return desktop.saveFile(`tandem-data-request-${query.id.replace(':', '-')}.json`, bytes)
    },

    'clipboard/writeText': async ({ text }) => desktop.copyText(text),
    'external/open': ({ url }) => desktop.openExternal(url),
  }
  return { ...forwardCalls(api), ...own }
}

/** A handler for every forwarded call: it makes the call with the renderer's parsed input. */
function forwardCalls(api: ApiClient): Omit<HandlerMap, keyof MainHandlers> {
  const forward = (name: ForwardedCall) => {
    const place = callInput(name)?.place
    return (input: unknown) => api.call(name, place ? { [place]: input } : undefined)
  }
  return Object.fromEntries(
    Object.keys(forwardedChannels).map((name) => [name, forward(name as ForwardedCall)]),
  ) as Omit<HandlerMap, keyof MainHandlers>
}

function toView(config: AppConfig): AppConfigView {
  return {
    shop: config.shop,
    clientId: config.clientId,
    maskedClientSecret: config.clientSecret === null ? '' : maskSecret(config.clientSecret),
    secretError: config.secretError,
    shopType: config.shopType,
  }
}

/** Eight dots and, for secrets long enough not to give much away, the last four characters. */
function maskSecret(secret: string): string {
  return '••••••••' + (secret.length >= 12 ? secret.slice(-4) : '')
}
