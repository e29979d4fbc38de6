import type { StorePaymentAccount } from '@shared/contract'
import { TRANSFER_ERRORS } from '@shared/contract'
import type { FastifyInstance } from 'fastify'
import type { ConnectedAccount } from '../adapters/payments/payments-port'
import type { RouteDeps } from '../deps'
import { Refusal } from '../domain/errors'
import { recordAudit } from '../audit/audit-log'
import { defineRoute } from '../http/route'
import { findPayoutAccountId, setPayoutAccountId } from '../repositories/payout-accounts'
import { findStoreType } from '../repositories/stores'
import { upstreamRefusal, withDeadline } from '../lib/remote-call'

// The Payouts card of a brand's store page: which Stripe connected account the brand is paid to,
// and what Stripe says of it (its email, whether it can receive transfers).

/** How long the console waits for Stripe's answer about an account. */
const STRIPE_LOOKUP_MS = 15_000

export function registerPayoutAccountRoutes(app: FastifyInstance, deps: RouteDeps): void {
  /** Only brands are paid out: 404 for an unknown store, 422 for a creator's. */
  async function brandStore(shop: string): Promise<void> {
    const type = await findStoreType(deps.db, shop)
    if (!type) throw new Refusal('not_found', TRANSFER_ERRORS.storeNotFound)
    if (type !== 'BRAND') {
      throw new Refusal(
        'business_rule',
        `${shop} is a creator store: only brand stores are paid out`,
      )
    }
  }

  const lookUp = (accountId: string) =>
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

  defineRoute(app, 'adminStorePaymentAccount', async ({ query }) => {
    await brandStore(query.shop)
    const accountId = await findPayoutAccountId(deps.db, query.shop)
    return answer(query.shop, accountId, accountId ? await lookUp(accountId) : null)
  })

  defineRoute(app, 'adminSetStorePaymentAccount', async ({ body, request }) => {
    await brandStore(body.shop)
    // Only an account Stripe knows as connected to the platform: a typo would stop every payout.
    const account = await lookUp(body.accountId)
    if (!account) {
      throw new Refusal(
        'business_rule',
        `${TRANSFER_ERRORS.connectedAccountIdNotFound}: Stripe has no account ${body.accountId} connected to the platform`,
      )
    }
    await deps.db.transaction().execute(async (trx) => {
      const before = await findPayoutAccountId(trx, body.shop)
      await setPayoutAccountId(trx, body.shop, account.accountId, deps.now().toISOString())
      await recordAudit(trx, deps.now(), {
        actorEmail: request.adminEmail,
        action: 'payout-account.set',
        target: body.shop,
        details: { before: { accountId: before }, after: { accountId: account.accountId } },
      })
    })
    return answer(body.shop, account.accountId, account)
  })
}
