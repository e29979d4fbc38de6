import { z } from 'zod'
import type { CallAnswer } from './contract/calls'
import { calls } from './contract/calls'
import { CreatorOrderId, ShopDomain } from './contract/entities'
import type { ShopType } from './contract/enums'
import { THEMES } from './theme'

export { BROWSER_HOST } from './browser-host'
export { DEFAULT_THEME, THEMES } from './theme'

// The main process's abilities as one map of named async functions ("domain/verb"). Electron's
// ipcMain and the browser host are two transports over the same map; every argument is parsed in
// main with the schema below, because the renderer is untrusted.

export const Theme = z.enum(THEMES)
export type Theme = z.infer<typeof Theme>

/** All the renderer ever learns of the session: never a token. */
export interface SessionView {
  signedIn: boolean
  email: string | null
}

/** Settings the renderer may see and change; secrets are not among them. */
export interface SettingsView {
  apiUrl: string
  theme: Theme
  /** The Firebase project sign-in goes to. */
  firebaseProjectId: string
  /** False when the OS offers no encryption: the session is then kept in memory only. */
  sessionPersisted: boolean
}

/** An app config as the renderer sees it: the client secret only masked. */
export interface AppConfigView {
  shop: string
  clientId: string
  maskedClientSecret: string
  /** Why the server cannot read the stored secret (then there is nothing to mask or reveal). */
  secretError: string | null
  shopType: ShopType
}

/** A receipt PDF as main fetched it: its bytes, and the id under which main keeps them to save. */
export interface FetchedReceipt {
  receiptId: string
  bytes: Uint8Array
}

export interface SavedFile {
  /** False when the person cancelled the save dialog. */
  saved: boolean
  path: string | null
}

const NoInput = z.undefined()
const ShopInput = z.object({ shop: ShopDomain }).strict()
const OrderInput = z.object({ creatorOrderId: CreatorOrderId }).strict()

/** Declares a channel: its argument schema and (as a type only) its result. */
function channel<Output>() {
  return <Input extends z.ZodType>(input: Input) => ({ input, output: undefined as Output })
}

export const channels = {
  'session/status': channel<SessionView>()(NoInput),
  'session/signIn': channel<SessionView>()(
    z.object({ email: z.string().trim().min(1), password: z.string().min(1) }).strict(),
  ),
  'session/signOut': channel<SessionView>()(NoInput),

  'settings/get': channel<SettingsView>()(NoInput),
  // Only the theme: the backend and Firebase project are never the renderer's to choose (a
  // renderer that could set them could send the administrator's token anywhere).
  'settings/update': channel<SettingsView>()(z.object({ theme: Theme }).strict()),

  'configs/connection': channel<CallAnswer<'adminShopConnection'>>()(
    calls.adminShopConnection.query,
  ),
  'configs/testConnection': channel<CallAnswer<'adminTestShopConnection'>>()(
    calls.adminTestShopConnection.body,
  ),

  'stores/list': channel<CallAnswer<'adminAllStores'>>()(NoInput),
  'stores/syncProducts': channel<CallAnswer<'adminUpdateProducts'>>()(
    calls.adminUpdateProducts.body,
  ),
  'stores/syncStatus': channel<CallAnswer<'adminProductSyncStatus'>>()(
    calls.adminProductSyncStatus.query,
  ),
  'stores/paymentAccount': channel<CallAnswer<'adminStorePaymentAccount'>>()(
    calls.adminStorePaymentAccount.query,
  ),
  'stores/setPaymentAccount': channel<CallAnswer<'adminSetStorePaymentAccount'>>()(
    calls.adminSetStorePaymentAccount.body,
  ),

  'commissions/getDefault': channel<CallAnswer<'adminGetDefaultShopCommissionRate'>>()(ShopInput),
  'commissions/setDefault': channel<CallAnswer<'adminSetDefaultCommissionRate'>>()(
    calls.adminSetDefaultCommissionRate.body,
  ),
  'commissions/listUnique': channel<CallAnswer<'adminGetUniqueCommissionRates'>>()(
    calls.adminGetUniqueCommissionRates.query,
  ),
  'commissions/createUnique': channel<CallAnswer<'adminCreateUniqueCommissionRate'>>()(
    calls.adminCreateUniqueCommissionRate.body,
  ),
  'commissions/deleteUnique': channel<CallAnswer<'adminDeleteUniqueCommissionRate'>>()(
    calls.adminDeleteUniqueCommissionRate.query,
  ),

  'configs/list': channel<AppConfigView[]>()(NoInput),
  'configs/create': channel<AppConfigView>()(calls.createAppConfig.body),
  'configs/delete': channel<AppConfigView>()(ShopInput),
  'configs/revealSecret': channel<string>()(ShopInput),
  'configs/copySecret': channel<void>()(ShopInput),
  'configs/appUrls': channel<CallAnswer<'getAppUrls'>>()(NoInput),

  'transfer/preview': channel<CallAnswer<'adminPreviewOrderTransfer'>>()(OrderInput),
  'transfer/process': channel<CallAnswer<'adminCreateOrderTransfer'>>()(OrderInput),
  'transfer/acceptPriceException': channel<CallAnswer<'adminAcceptPriceException'>>()(
    calls.adminAcceptPriceException.body,
  ),
  /** The receipt's bytes, also kept in main so that a save writes exactly what was shown. */
  'receipt/fetch': channel<FetchedReceipt>()(OrderInput),
  /** Main writes only bytes it fetched itself: the renderer names them, never supplies them. */
  'receipt/save': channel<SavedFile>()(
    z.object({ receiptId: z.uuid(), suggestedName: z.string().min(1).max(200) }).strict(),
  ),

  'orders/list': channel<CallAnswer<'adminCreatorOrders'>>()(calls.adminCreatorOrders.query),
  'orders/transfers': channel<CallAnswer<'adminOrderTransfers'>>()(calls.adminOrderTransfers.query),
  /** Main downloads the CSV and saves exactly its bytes where the administrator chooses. */
  'orders/exportCsv': channel<SavedFile>()(NoInput),
  'products/list': channel<CallAnswer<'adminStoreProducts'>>()(calls.adminStoreProducts.query),
  'activity/list': channel<CallAnswer<'adminAuditLog'>>()(calls.adminAuditLog.query),

  'clipboard/writeText': channel<void>()(z.object({ text: z.string().max(100_000) }).strict()),
  'external/open': channel<void>()(z.object({ url: z.url({ protocol: /^https?$/ }) }).strict()),
} as const

export type Channel = keyof typeof channels
export type ChannelArgs<C extends Channel> = z.input<(typeof channels)[C]['input']>
export type ChannelParsed<C extends Channel> = z.output<(typeof channels)[C]['input']>
export type ChannelResult<C extends Channel> = (typeof channels)[C]['output']

/** What main implements: one async function per channel, taking the parsed argument. */
export type HandlerMap = {
  [C in Channel]: (args: ChannelParsed<C>) => Promise<ChannelResult<C>>
}

/** Main-to-renderer events. */
export interface MainEvents {
  /** The session changed without the renderer asking (refresh failed, token revoked). */
  'session/changed': SessionView
}
export type MainEvent = keyof MainEvents

/**
 * How a handler's outcome crosses a transport: errors as sentences for a person. `reason` is the
 * bare cause when `message` wraps it ("Failed to fetch preview: Commission not found").
 */
export interface BridgeFailure {
  message: string
  reason?: string
}
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: BridgeFailure }

/** What the preload really exposes as `window.tandem`: envelopes, unwrapped in lib/bridge.ts. */
export interface RawBridge {
  invoke(channel: Channel, args?: unknown): Promise<Envelope<unknown>>
  on(event: MainEvent, listener: (payload: unknown) => void): () => void
}

/** The typed bridge the renderer's screens use (lib/bridge.ts), over either transport. */
export interface TandemBridge {
  invoke<C extends Channel>(
    channel: C,
    ...args: ChannelArgs<C> extends undefined ? [] : [ChannelArgs<C>]
  ): Promise<ChannelResult<C>>
  on<E extends MainEvent>(event: E, listener: (payload: MainEvents[E]) => void): () => void
}

export const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && Object.hasOwn(channels, name)
