import type { StorePaymentAccount } from '@shared/contract'
import { TRANSFER_ERRORS } from '@shared/contract'
import type { ConnectedAccount } from '../adapters/payments/payments-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { upstreamRefusal, withDeadline } from '../lib/remote-call'
import { findPayoutAccountId, setPayoutAccountId } from '../repositories/payout-accounts'
import { lockStore, requireStoreOf } from '../repositories/stores'
import { auditedChange, type Actor } from './audited-change'
import { requeueOrdersWaitingOn } from './automatic-transfers'

// The Payouts card of a brand's store page: which Stripe connected account the brand is paid to,
// and what Stripe says of it (its email, whether it can receive transfers).

/** How long the console waits for Stripe's answer about an account. */
const STRIPE_LOOKUP_MS = 15_000

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now' | 'payments'>

/** Only brands are paid out: an unknown store is not found, a creator's breaks the rule. */
const requireBrandStore = (deps: Deps, shop: string) =>
  requireStoreOf(deps.db, shop, 'BRAND', {
    wrongType: `${shop} is a creator store: only brand stores are paid out`,
    notFound: TRANSFER_ERRORS.storeNotFound,
  })

const lookUp = (deps: Deps, accountId: string) =>
  withDeadline(STRIPE_LOOKUP_MS, (signal) =>
    deps.payments.connectedAccount(accountId, { signal }),
  ).catch((error: unknown) => {
    throw upstreamRefusal(`Payout account ${accountId} lookup failed`, 'payment provider', error)
  })

const answer = (
  shop: string,
  accountId: string | null,
  account: ConnectedAccount | null,
): StorePaymentAccount => ({
  shop,
  accountId,
  email: account?.email ?? null,
  transfersActive: account?.transfersActive ?? null,
})

export async function payoutAccount(deps: Deps, shop: string): Promise<StorePaymentAccount> {
  await requireBrandStore(deps, shop)
  const accountId = await findPayoutAccountId(deps.db, shop)
  return answer(shop, accountId, accountId ? await lookUp(deps, accountId) : null)
}

export async function setPayoutAccount(
  deps: Deps,
  actor: Actor,
  input: { shop: string; accountId: string },
): Promise<StorePaymentAccount> {
  await requireBrandStore(deps, input.shop)
  // Only an account Stripe knows as connected to the platform: a typo would stop every payout.
  const account = await lookUp(deps, input.accountId)
  if (!account) {
    throw new Refusal(
      'business_rule',
      `${TRANSFER_ERRORS.connectedAccountIdNotFound}: Stripe has no account ${input.accountId} connected to the platform`,
    )
  }
  await auditedChange(deps, actor, async (trx) => {
    // Its store's row first, as the other changes to a store lock it before its other rows.
    await lockStore(trx, input.shop)
    const before = await findPayoutAccountId(trx, input.shop)
    await setPayoutAccountId(trx, input.shop, account.accountId, deps.now().toISOString())
    // The orders stopped for want of a payout account the brand can be paid to are tried again.
    await requeueOrdersWaitingOn(deps, trx, input.shop)
    const details = { before: { accountId: before }, after: { accountId: account.accountId } }
    return {
      result: undefined,
      audit: { action: 'payout-account.set', target: input.shop, details },
    }
  })
  return answer(input.shop, account.accountId, account)
}
