import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import type { CallRoutes } from '../http/route'
import { runSandboxAction } from '../sandbox/sandbox-controls'

// The console's Sandbox page: only a server in sandbox mode beside the emulators has the
// emulators to drive (deps.sandbox); any other answers 404 saying so, and does nothing.

export const NOT_A_SANDBOX =
  'The sandbox controls exist only on a server in sandbox mode beside the Shopify and Stripe ' +
  'emulators (the local stack); this server works with the real Shopify and Stripe.'

export const sandboxRoutes = (deps: RouteDeps) =>
  ({
    adminSandboxAction: async ({ body }) => {
      if (!deps.sandbox) throw new Refusal('not_found', NOT_A_SANDBOX)
      return { message: await runSandboxAction(deps.sandbox, body) }
    },
  }) satisfies Partial<CallRoutes>
