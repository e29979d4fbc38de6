import type { TransferPolicy } from '@shared/contract'
import type { Db } from '../db/connect'

// The marketplace's one transfer-policy row (its migration writes it, so it is always there).

const ID = 'marketplace'

const policyOf = (row: {
  mode: TransferPolicy['mode']
  hold_minutes: number
  automatic_since: string | null
}): TransferPolicy => ({
  mode: row.mode,
  holdMinutes: row.hold_minutes,
  automaticSince: row.automatic_since,
})

export async function findTransferPolicy(db: Db): Promise<TransferPolicy> {
  const row = await db
    .selectFrom('transfer_policy')
    .select(['mode', 'hold_minutes', 'automatic_since'])
    .where('id', '=', ID)
    .executeTakeFirstOrThrow()
  return policyOf(row)
}

/** The policy as it stands, its row locked until the transaction ends: two changes take turns. */
export async function lockTransferPolicy(db: Db): Promise<TransferPolicy> {
  const row = await db
    .updateTable('transfer_policy')
    .set((eb) => ({ mode: eb.ref('mode') }))
    .where('id', '=', ID)
    .returning(['mode', 'hold_minutes', 'automatic_since'])
    .executeTakeFirstOrThrow()
  return policyOf(row)
}

export async function writeTransferPolicy(db: Db, policy: TransferPolicy): Promise<void> {
  await db
    .updateTable('transfer_policy')
    .set({
      mode: policy.mode,
      hold_minutes: policy.holdMinutes,
      automatic_since: policy.automaticSince,
    })
    .where('id', '=', ID)
    .execute()
}
