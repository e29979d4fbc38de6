import { z } from 'zod'
import {
  callInput,
  calls,
  type CallAnswer,
  type CallArgs,
  type CallInputParsed,
  type CallName,
} from './contract/calls'
import { CreatorOrderId, ShopDomain } from './contract/entities'
import type { ShopType } from './contract/enums'
import { THEMES } from './theme'

export { BROWSER_HOST } from './browser-host'
export { DEFAULT_THEME, THEMES } from './theme'

// The main process's abilities as one map of named async functions. Each call of the contract is
// one channel of the same name (docs/architecture.md "Adding a call"); main's own abilities are
// named "domain/verb". Electron's ipcMain and the browser host are two transports over the same
// map; every argument is parsed in main with the channel's schema, because the renderer is
// untrusted.

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

/**
 * The channels main implements itself, where it adds behaviour to a call (the session, secrets,
 * the receipt cache, files saved to disk) or does what no call does. A call of the contract that
 * is named here is answered by main's own handler of that name; every other call is forwarded as
 * it is (see `forwardedChannels` below), so adding one to the contract needs nothing here.
 */
export const mainChannels = {
  'session/status': channel<SessionView>()(NoInput),
  'session/signIn': channel<SessionView>()(
    z.object({ email: z.string().trim().min(1), password: z.string().min(1) }).strict(),
  ),
  'session/signOut': channel<SessionView>()(NoInput),

  'settings/get': channel<SettingsView>()(NoInput),
  // Only the theme: the backend and Firebase project are never the renderer's to choose (a
  // renderer that could set them could send the administrator's token anywhere).
  'settings/update': channel<SettingsView>()(z.object({ theme: Theme }).strict()),

  // App configs reach the renderer with their client secrets masked.
  getAllAppConfig: channel<AppConfigView[]>()(NoInput),
  createAppConfig: channel<AppConfigView>()(calls.createAppConfig.body),
  deleteAppConfig: channel<AppConfigView>()(calls.deleteAppConfig.params),
  'configs/revealSecret': channel<string>()(ShopInput),
  'configs/copySecret': channel<void>()(ShopInput),

  /** The receipt's bytes, also kept in main so that a save writes exactly what was shown. */
  adminPreviewOrderTransferReceiptPdf: channel<FetchedReceipt>()(OrderInput),
  /** Main writes only bytes it fetched itself: the renderer names them, never supplies them. */
  'receipt/save': channel<SavedFile>()(
    z.object({ receiptId: z.uuid(), suggestedName: z.string().min(1).max(200) }).strict(),
  ),
  /** Main downloads the CSV and saves exactly its bytes where the administrator chooses. */
  adminOrderTransfersCsv: channel<SavedFile>()(NoInput),
  /** Likewise a customer's data request's JSON, which names the customer: never the renderer's. */
  adminDataRequestJson: channel<SavedFile>()(calls.adminDataRequestJson.query),

  'clipboard/writeText': channel<void>()(z.object({ text: z.string().max(100_000) }).strict()),
  'external/open': channel<void>()(z.object({ url: z.url({ protocol: /^https?$/ }) }).strict()),
} as const

type MainChannel = keyof typeof mainChannels
/** The calls main forwards to the server as they are, under the call's own name. */
export type ForwardedCall = Exclude<CallName, MainChannel>

/** The forwarded calls' channels, made from the contract: each call's input is its argument. */
export const forwardedChannels = Object.fromEntries(
  (Object.keys(calls) as CallName[])
    .filter((name): name is ForwardedCall => !Object.hasOwn(mainChannels, name))
    .map((name) => [name, { input: callInput(name)?.schema ?? NoInput }]),
) as { [N in ForwardedCall]: { input: z.ZodType<CallInputParsed<N>, CallArgs<N>> } }

export const channels = { ...mainChannels, ...forwardedChannels }

export type Channel = MainChannel | ForwardedCall
export type ChannelArgs<C extends Channel> = C extends MainChannel
  ? z.input<(typeof mainChannels)[C]['input']>
  : CallArgs<C & ForwardedCall>
export type ChannelParsed<C extends Channel> = C extends MainChannel
  ? z.output<(typeof mainChannels)[C]['input']>
  : CallInputParsed<C & ForwardedCall>
export type ChannelResult<C extends Channel> = C extends MainChannel
  ? (typeof mainChannels)[C]['output']
  : CallAnswer<C & ForwardedCall>

/** What main implements: one async function per channel, taking the parsed argument. */
export type HandlerMap = {
  [C in Channel]: (args: ChannelParsed<C>) => Promise<ChannelResult<C>>
}
/** The handlers main writes itself; the forwarded calls' handlers are made from the contract. */
export type MainHandlers = {
  [C in MainChannel]: (args: ChannelParsed<C>) => Promise<ChannelResult<C>>
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
