import { SHORT_LEASES, crashScenarios } from './crash-scenario'
import { MAYA_ACCOUNT, order1001Transfer } from './order-1001-transfer'
import type { ServerProcess } from './server-process'

// What the crash harness's two files share (crash-harness.test.ts: killed at every boundary;
// crash-harness-takeover.test.ts: answers lost, leases lost, requests at once): order 1001
// processed by real server processes on a fresh database and emulators per scenario. Two files,
// so that CI's workers run their halves at once.

export const STEPS = ['createOrder', 'markOrderAsPaid', 'createTransfer'] as const
export const BOUNDARIES = ['before-intent', 'before-call', 'after-call', 'after-record'] as const
/**
 * Short, so that a killed server's lease runs out soon; remote calls get a third of it, which
 * even a loaded machine's calls to the emulators (a few queries each) stay well within.
 */
export const LEASE_MS = SHORT_LEASES.leaseMs
/**
 * Shopify's order search lags behind new orders: here longer than the lease, so that a restarted
 * server reconciles before the search could find the order its predecessor made.
 */
const SEARCH_LAG_MS = 10_000

const MAYA = 'maya-makes.myshopify.com'

/** Call at a test file's top level: it registers the file's hooks (crashScenarios). */
export function crashHarness() {
  const crash = crashScenarios({ searchLagMs: SEARCH_LAG_MS })
  return {
    ...order1001Transfer(crash),
    scenario: () => crash.begin(),
    emulator: () => crash.current().shopify,
    payments: () => crash.current().stripe,
    start: (options: { failpoints?: string; leaseMs?: number } = {}) =>
      crash.current().start(options),

    /** Sets Maya's payout account, which (again) sends the payment of the commissions she is owed. */
    async setCreatorAccount(on: ServerProcess): Promise<number> {
      const response = await fetch(`${on.url}/admin-set-store-payment-account`, {
        method: 'POST',
        headers: { ...crash.admin(), 'content-type': 'application/json' },
        body: JSON.stringify({ shop: MAYA, accountId: MAYA_ACCOUNT }),
      })
      return response.status
    },

    /** What Maya's Payouts card says she is still owed. */
    async creatorOwed(on: ServerProcess): Promise<unknown> {
      const response = await fetch(
        `${on.url}/admin-store-payment-account?shop=${encodeURIComponent(MAYA)}`,
        { headers: crash.admin() },
      )
      return ((await response.json()) as { commissionOwed: unknown }).commissionOwed
    },
  }
}
