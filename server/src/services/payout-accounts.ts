import type { StorePaymentAccount } from '@shared/contract'
import { TRANSFER_ERRORS } from '@shared/contract'
import type { ConnectedAccount } from '../adapters/payments/payments-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { upstreamRefusal, withDeadline } from '../lib/remote-call'
import { findPayoutAccountId, setPayoutAccountId } from '../repositories/payout-accounts'
import { unpaidPayoutsOf } from '../repositories/creator-payouts'
import { findStoreType, lockStore } from '../repositories/stores'
import { formatMinorUnits } from '../domain/money'
import { requeuePayoutsOf } from '../transfers/creator-payout'
import { auditedChange, type Actor } from './audited-change'
import { requeueOrdersWaitingOn } from './automatic-transfers'

// The Payouts card of a store's page: which Stripe connected account the store is paid to (a
// brand its transfers, a creator its commissions), what Stripe says of it (its email, whether it
// can receive transfers), and what a creator is still owed.

/** How long the console waits for Stripe's answer about an account. */
const STRIPE_LOOKUP_MS = 15_000

type Deps = Pick<RouteDeps, 'db' | 'jobs' | 'now' | 'payments'>

/** A store paid out: a brand its transfers, a creator its commissions. */
const requireStore = async (deps: Deps, shop: string) => {
  const type = await findStoreType(deps.db, shop)
  if (!type) throw new Refusal('not_found', TRANSFER_ERRORS.storeNotFound)
  return type
}

/** A creator's commissions still owed, per currency, and why the oldest waits. */
async function commissionOwed(deps: Deps, shop: string) {
  const unpaid = await unpaidPayoutsOf(deps.db, shop)
  const byCurrency = new Map<string, { minor: number; orders: number }>()
  for (const payout of unpaid) {
    const sum = byCurrency.get(payout.currency) ?? { minor: 0, orders: 0 }
    byCurrency.set(payout.currency, {
      minor: sum.minor + payout.amount_minor,
      orders: sum.orders + 1,
    })
  }
  return {
    commissionOwed: [...byCurrency].map(([currency, { minor, orders }]) => ({
      currency,
      amount: formatMinorUnits(minor, currency),
      orders,
    })),
    commissionWaitingReason: unpaid[0]?.waiting_reason ?? null,
  }
}

const lookUp = (deps: Deps, accountId: string) =>
  withDeadline(STRIPE_LOOKUP_MS, (signal) =>
    deps.payments.connectedAccount(accountId, { signal }),
  ).catch((error: unknown) => {
    throw upstreamRefusal(`Payout account ${accountId} lookup failed`, 'payment provider', error)
  })

const answer = async (
  deps: Deps,
  shop: string,
  accountId: string | null,
  account: ConnectedAccount | null,
): Promise<StorePaymentAccount> => ({
  shop,
  accountId,
  email: account?.email ?? null,
  transfersActive: account?.transfersActive ?? null,
  ...(await commissionOwed(deps, shop)),
})

export async function payoutAccount(deps: Deps, shop: string): Promise<StorePaymentAccount> {
  await requireStore(deps, shop)
  const accountId = await findPayoutAccountId(deps.db, shop)
  return answer(deps, shop, accountId, accountId ? await lookUp(deps, accountId) : null)
}

export async function setPayoutAccount(
  deps: Deps,
  actor: Actor,
  input: { shop: string; accountId: string },
): Promise<StorePaymentAccount> {
  await requireStore(deps, input.shop)
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
    const type = await lockStore(trx, input.shop)
    const before = await findPayoutAccountId(trx, input.shop)
    await setPayoutAccountId(trx, input.shop, account.accountId, deps.now().toISOString())
    // What waited for an account it can be paid to is tried again: a brand's orders stopped for
    // want of it, a creator's commissions owed.
    if (type === 'CREATOR') await requeuePayoutsOf(deps, trx, input.shop)
    else await requeueOrdersWaitingOn(deps, trx, input.shop)
    const details = { before: { accountId: before }, after: { accountId: account.accountId } }
    return {
      result: undefined,
      audit: { action: 'payout-account.set', target: input.shop, details },
    }
  })
  return answer(deps, input.shop, account.accountId, account)
}
