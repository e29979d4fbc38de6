import type { Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * A party's reversals are counted per transfer, the one name of it a shop's erasure cannot change
 * (a shop's domain becomes a pseudonym in every table at once, services/privacy.ts): each new
 * reversal is inserted at the seq after the last of its transfer, and two runs race on
 * (transfer_id, seq). A transfer is one store's on one order, so the seqs numbered until now per
 * order and store are already unique per transfer. The table's primary key stays as it was:
 * SQLite cannot change one without copying the table, and the rename keeps it unique.
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    await trx.schema
      .createIndex('order_reversals_transfer_seq')
      .unique()
      .on('order_reversals')
      .columns(['transfer_id', 'seq'])
      .execute()
  })
