import { randomBytes } from 'node:crypto'
import type { Db } from '../../db/connect'
import { PaymentsError, type PaymentsPort, type TransferRequest } from './payments-port'

// The sandbox payment provider: Stripe Connect's behaviour, as far as the server relies on it,
// kept in the server's own database (payment_* tables).

/**
 * Failures a test can switch on: answer the provider's error message to make the call fail, or
 * null to let it through. Read at every call, so a test may change it between requests.
 */
export interface SandboxPaymentsFaults {
  createTransfer?: (request: TransferRequest) => string | null
}

interface SandboxPaymentsOptions {
  faults?: SandboxPaymentsFaults
}

export function createSandboxPayments(db: Db, options: SandboxPaymentsOptions = {}): PaymentsPort {
  const faults = options.faults ?? {}

  return {
    async connectedAccount(shop) {
      const account = await db
        .selectFrom('payment_accounts')
        .select(['account_id', 'email'])
        .where('store_shop', '=', shop)
        .executeTakeFirst()
      return account ? { accountId: account.account_id, email: account.email } : null
    },

    async createTransfer(request) {
      const fault = faults.createTransfer?.(request)
      if (fault) throw new PaymentsError(fault)
      const account = await db
        .selectFrom('payment_accounts')
        .select('account_id')
        .where('account_id', '=', request.destinationAccountId)
        .executeTakeFirst()
      if (!account) throw new PaymentsError(`No such destination: ${request.destinationAccountId}`)

      // The unique index on idempotency_key decides between concurrent requests with one key:
      // exactly one insert lands, and every request answers that row.
      await db
        .insertInto('payment_transfers')
        .values({
          id: `tr_sandbox_${randomBytes(12).toString('hex')}`,
          idempotency_key: request.idempotencyKey,
          destination_account_id: request.destinationAccountId,
          amount_minor: request.amountMinor,
          currency: request.currency,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute()
      const transfer = await db
        .selectFrom('payment_transfers')
        .selectAll()
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirstOrThrow()
      // Stripe refuses a key reused with other parameters rather than answering the old transfer.
      if (
        transfer.destination_account_id !== request.destinationAccountId ||
        transfer.amount_minor !== request.amountMinor ||
        transfer.currency !== request.currency
      ) {
        throw new PaymentsError(
          'Keys for idempotent requests can only be used with the same parameters they were first used with',
        )
      }
      return { id: transfer.id }
    },
  }
}
