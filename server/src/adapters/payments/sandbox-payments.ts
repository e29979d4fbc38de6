import { randomBytes } from 'node:crypto'
import type { Db } from '../../db/connect'
import { underScriptedFault, type SandboxOperation } from '../sandbox-faults'
import { PaymentsError, type PaymentsPort } from './payments-port'

// The sandbox payment provider: Stripe Connect's behaviour, as far as the server relies on it,
// kept in the server's own database (payment_* tables). As strict as Stripe where it bites: an
// idempotency key answers its first transfer for 24 hours, then is forgotten, and is refused with
// other parameters. Faults are scripted by tests (src/adapters/sandbox-faults.ts).

const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60_000

export const IDEMPOTENCY_REUSE =
  'Keys for idempotent requests can only be used with the same parameters they were first used with'

interface SandboxPaymentsOptions {
  /** The provider's clock, which decides when a key is forgotten. */
  now?: () => Date
}

export function createSandboxPayments(db: Db, options: SandboxPaymentsOptions = {}): PaymentsPort {
  const now = options.now ?? (() => new Date())

  const port: PaymentsPort = {
    async connectedAccount(shop) {
      const account = await db
        .selectFrom('payment_accounts')
        .select(['account_id', 'email'])
        .where('store_shop', '=', shop)
        .executeTakeFirst()
      return account ? { accountId: account.account_id, email: account.email } : null
    },

    async createTransfer(request) {
      const account = await db
        .selectFrom('payment_accounts')
        .select('account_id')
        .where('account_id', '=', request.destinationAccountId)
        .executeTakeFirst()
      if (!account) throw new PaymentsError(`No such destination: ${request.destinationAccountId}`)

      const parameters = JSON.stringify([
        request.amountMinor,
        request.currency,
        request.destinationAccountId,
        request.transferGroup,
      ])
      const at = now()
      const key = await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('payment_idempotency_keys')
          .where('key', '=', request.idempotencyKey)
          .where(
            'created_at',
            '<',
            new Date(at.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS).toISOString(),
          )
          .execute()
        // The key's primary key decides between concurrent requests: exactly one insert lands,
        // and only that request makes a transfer.
        const transferId = `tr_sandbox_${randomBytes(12).toString('hex')}`
        const inserted = await trx
          .insertInto('payment_idempotency_keys')
          .values({
            key: request.idempotencyKey,
            request: parameters,
            transfer_id: transferId,
            created_at: at.toISOString(),
          })
          .onConflict((oc) => oc.column('key').doNothing())
          .executeTakeFirst()
        if (inserted.numInsertedOrUpdatedRows !== 0n) {
          await trx
            .insertInto('payment_transfers')
            .values({
              id: transferId,
              destination_account_id: request.destinationAccountId,
              amount_minor: request.amountMinor,
              currency: request.currency,
              transfer_group: request.transferGroup,
              created_at: at.toISOString(),
            })
            .execute()
        }
        return trx
          .selectFrom('payment_idempotency_keys')
          .selectAll()
          .where('key', '=', request.idempotencyKey)
          .executeTakeFirstOrThrow()
      })
      // Stripe answers `idempotency_error` rather than the first transfer.
      if (key.request !== parameters) throw new PaymentsError(IDEMPOTENCY_REUSE)
      return { id: key.transfer_id }
    },

    async findTransfers({ transferGroup, destinationAccountId }) {
      const rows = await db
        .selectFrom('payment_transfers')
        .select(['id', 'amount_minor'])
        .where('transfer_group', '=', transferGroup)
        .where('destination_account_id', '=', destinationAccountId)
        .orderBy('created_at')
        .execute()
      return rows.map((row) => ({ id: row.id, amountMinor: row.amount_minor }))
    },
  }

  const scripted = <T>(operation: SandboxOperation, target: string, run: () => Promise<T>) =>
    underScriptedFault(db, operation, target, run, (message) => new PaymentsError(message))

  return {
    connectedAccount: (shop) =>
      scripted('connectedAccount', shop, () => port.connectedAccount(shop)),
    createTransfer: (request) =>
      scripted('createTransfer', request.destinationAccountId, () => port.createTransfer(request)),
    findTransfers: (query) =>
      scripted('findTransfers', query.destinationAccountId, () => port.findTransfers(query)),
  }
}
