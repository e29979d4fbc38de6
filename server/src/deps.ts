import type { SandboxEmulators } from './sandbox/sandbox-controls'
import type { CommercePort } from './adapters/commerce/commerce-port'
import type { ShopifyServices } from './adapters/commerce/shopify/shopify'
import type { PaymentsPort } from './adapters/payments/payments-port'
import type { TokenVerifier } from './auth/verify'
import type { Db } from './db/connect'
import type { JobQueue } from './jobs/job-queue'
import type { SecretBox } from './secrets'
import type { PreviewCache } from './transfers/preview-cache'
import type { TransferTiming } from './transfers/transfer-timing'

// What the server is built from. Routes and services take these parts from here, never from
// app.ts, which assembles them.

export interface AppDeps {
  db: Db
  verifier: TokenVerifier
  /** Lower-cased emails that are administrators without the admin claim. */
  adminEmails: readonly string[]
  secrets: SecretBox
  commerce: CommercePort
  /** Shop connections (status, install, uninstall) beside the commerce port. */
  shopify: ShopifyServices
  payments: PaymentsPort
  /** The one way background work runs (services/background-work.ts registers and starts it). */
  jobs: JobQueue
  /** Where the Shopify apps and product images are reached: `{url}/shopify/brand`, `{url}/images/…`. */
  publicUrl: string
  now?: () => Date
  /** Leases, timeouts and parallelism of transfer processing; the defaults otherwise. */
  transferTiming?: Partial<TransferTiming>
  /**
   * Logs to stdout when given. Each request's two lines at 'info' (a deploy's log), or at 'debug',
   * below the log's level (the local stack, whose console polls); warnings and errors either way.
   */
  logger?: { requests: 'info' | 'debug' }
  /** How long a request may take to arrive (app.ts's REQUEST_TIMEOUT_MS), shorter in tests. */
  requestTimeoutMs?: number
  /**
   * The proxies in front of the server (addresses, CIDRs or proxy-addr's `loopback`,
   * `uniquelocal`): a request from one is taken to come from the client its X-Forwarded-For
   * names, which the webhook route shares its budget by. None when absent.
   */
  trustedProxies?: string
  /**
   * The emulators the Sandbox page drives (server/src/sandbox): set in sandbox mode beside them
   * only; absent, its call answers 404.
   */
  sandbox?: SandboxEmulators
  /** Whether the database is known to be away (db/database-away.ts); never, when not given. */
  database?: { away(): boolean }
}

/**
 * What the routes are given: the app's parts with the clock filled in, and the process's cache of
 * what previews read from Shopify (transfers/preview-cache.ts), which the webhook route clears.
 */
export type RouteDeps = Omit<AppDeps, 'now'> & { now: () => Date; previewCache: PreviewCache }
