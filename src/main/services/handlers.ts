import type { AppConfig } from '@shared/contract'
import type { AppConfigView, HandlerMap } from '@shared/ipc'
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

  return {
    'session/status': async () => session.view(),
    'session/signIn': ({ email, password }) => session.signIn(email, password),
    'session/signOut': () => session.signOut(),

    'settings/get': async () => settings.view(),
    'settings/update': async ({ theme }) => settings.setTheme(theme),

    'stores/list': () => api.call('adminAllStores'),
    'stores/syncProducts': (body) => api.call('adminUpdateProducts', { body }),
    'stores/syncStatus': (query) => api.call('adminProductSyncStatus', { query }),
    'stores/paymentAccount': (query) => api.call('adminStorePaymentAccount', { query }),
    'stores/setPaymentAccount': (body) => api.call('adminSetStorePaymentAccount', { body }),

    'commissions/getDefault': ({ shop }) =>
      api.call('adminGetDefaultShopCommissionRate', { query: { shop } }),
    'commissions/setDefault': (body) => api.call('adminSetDefaultCommissionRate', { body }),
    'commissions/listUnique': (query) => api.call('adminGetUniqueCommissionRates', { query }),
    'commissions/createUnique': (body) => api.call('adminCreateUniqueCommissionRate', { body }),
    'commissions/deleteUnique': (query) => api.call('adminDeleteUniqueCommissionRate', { query }),

    'configs/list': async () => (await api.call('getAllAppConfig')).appConfigs.map(toView),
    'configs/create': async (body) =>
      toView((await api.call('createAppConfig', { body })).appConfig),
    'configs/delete': async ({ shop }) =>
      toView((await api.call('deleteAppConfig', { params: { shop } })).appConfig),
    'configs/revealSecret': ({ shop }) => findSecret(shop),
    'configs/copySecret': async ({ shop }) => desktop.copyText(await findSecret(shop)),
    'configs/appUrls': () => api.call('getAppUrls'),
    'configs/connection': (query) => api.call('adminShopConnection', { query }),
    'configs/testConnection': (body) => api.call('adminTestShopConnection', { body }),

    'transfer/preview': (query) => api.call('adminPreviewOrderTransfer', { query }),
    'transfer/process': (body) => api.call('adminCreateOrderTransfer', { body }),
    'transfer/acceptPriceException': (body) => api.call('adminAcceptPriceException', { body }),
    'receipt/fetch': async (query) => {
      const bytes = await api.call('adminPreviewOrderTransferReceiptPdf', { query })
      return { receiptId: receipts.remember(bytes), bytes }
    },
    'receipt/save': async ({ receiptId, suggestedName }) => {
      const bytes = receipts.get(receiptId)
      if (!bytes) throw new UserFacingError('Open the receipt again before saving it.')
      return desktop.saveFile(suggestedName, bytes)
    },

    'orders/list': (query) => api.call('adminCreatorOrders', { query }),
    'orders/transfers': (query) => api.call('adminOrderTransfers', { query }),
    'orders/exportCsv': async () => {
      const bytes = await api.call('adminOrderTransfersCsv')
      const day = new Date().toISOString().slice(0, 10)
      return desktop.saveFile(`tandem-transfers-${day}.csv`, bytes)
    },
    'products/list': (query) => api.call('adminStoreProducts', { query }),
    'activity/list': (query) => api.call('adminAuditLog', { query }),

    'clipboard/writeText': async ({ text }) => desktop.copyText(text),
    'external/open': ({ url }) => desktop.openExternal(url),
  }
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
