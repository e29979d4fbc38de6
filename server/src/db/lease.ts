import { randomBytes } from 'node:crypto'
import type { Db } from './connect'

// Work that several server processes on one database must not all do at once (the start-up
// catch-up of creator orders): the first to take the lease does it, the others skip it. A lease
// runs out on its own, so that one held by a process that died is taken by the next.

interface LeaseOptions {
  /** How long a holder has before another may take it; renewed every third of it while working. */
  ttlMs: number
  now: () => Date
}

/** Runs `work` if this process takes the lease; answers false when another holds it. */
export async function underLease(
  db: Db,
  name: string,
  options: LeaseOptions,
  work: () => Promise<void>,
): Promise<boolean> {
  const holder = randomBytes(8).toString('hex')
  const until = () => new Date(options.now().getTime() + options.ttlMs).toISOString()
  const taken = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: until() })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder, expires_at: until() })
        .where('leases.expires_at', '<', options.now().toISOString()),
    )
    .executeTakeFirst()
  if (taken.numInsertedOrUpdatedRows === 0n) return false
  // A renewal that fails leaves the lease to run out: the work must bear being done twice.
  const renewal = setInterval(() => {
    void db
      .updateTable('leases')
      .set({ expires_at: until() })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute()
      .catch(() => {})
  }, options.ttlMs / 3)
  try {
    await work()
  } finally {
    clearInterval(renewal)
    await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute()
  }
  return true
}
