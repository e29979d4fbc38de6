import { maskKey, ok, stripeError, type Answer } from './http'
import type { AccountRecord, Runtime } from './state'

// GET /v1/accounts/:id, as a platform reads its Express connected accounts.

const view = (account: AccountRecord) => ({
  id: account.id,
  object: 'account',
  type: 'express',
  email: account.email,
  country: 'US',
  default_currency: 'usd',
  charges_enabled: account.transfersActive,
  payouts_enabled: account.transfersActive,
  details_submitted: true,
  capabilities: { transfers: account.transfersActive ? 'active' : 'inactive' },
  created: account.created,
})

export function retrieveAccount(runtime: Runtime, id: string): Answer {
  const account = runtime.state.accounts[id]
  if (account) return ok(view(account))
  return accountInvalid(runtime, id)
}

/**
 * Stripe does not say "no such account": an unknown id and a revoked one answer the same 403, to
 * a read of the account or a request made as it (Stripe-Account).
 */
export const accountInvalid = (runtime: Runtime, id: string): Answer =>
  stripeError(403, {
    type: 'invalid_request_error',
    code: 'account_invalid',
    message:
      `The provided key '${maskKey(runtime.secretKey)}' does not have access to account '${id}' ` +
      '(or that account does not exist). Application access may have been revoked.',
  })
