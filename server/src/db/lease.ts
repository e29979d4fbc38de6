import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Db } from './connect'

// Work that several server processes on one database must not all do at once: the first to take
// the lease does it, the others skip it (the start-up catch-up) or wait their turn (a shop's token
// renewal). A lease runs out on its own, so that one held by a process that died is taken by the
// next.

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
  const holder = newHolder()
  if (!(await take(db, name, holder, options))) return false
  await holding(db, name, holder, options, work)
  return true
}

/**
 * Runs `work` once this process takes the lease: while another holds it, asks again every
 * `pollMs` until that one gives it back or it runs out.
 */
export async function underLeaseInTurn<T>(
  db: Db,
  name: string,
  options: LeaseOptions & { pollMs: number },
  work: () => Promise<T>,
): Promise<T> {
  const holder = newHolder()
  while (!(await take(db, name, holder, options))) await sleep(options.pollMs)
  return holding(db, name, holder, options, work)
}

const newHolder = () => randomBytes(8).toString('hex')

const until = (options: LeaseOptions) =>
  new Date(options.now().getTime() + options.ttlMs).toISOString()

/** Takes the lease when nobody holds it, or its holder let it run out. */
async function take(db: Db, name: string, holder: string, options: LeaseOptions) {
  const taken = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: until(options) })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder, expires_at: until(options) })
        .where('leases.expires_at', '<', options.now().toISOString()),
    )
    .executeTakeFirst()
  return taken.numInsertedOrUpdatedRows !== 0n
}

/** Runs `work` under the taken lease, renewing it meanwhile, and gives it back after. */
async function holding<T>(
  db: Db,
  name: string,
  holder: string,
  options: LeaseOptions,
  work: () => Promise<T>,
): Promise<T> {
  // A renewal that fails leaves the lease to run out: the work must bear being done twice.
  const renewal = setInterval(() => {
    void db
      .updateTable('leases')
      .set({ expires_at: until(options) })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute()
      .catch(() => {})
  }, options.ttlMs / 3)
  try {
    return await work()
  } finally {
    clearInterval(renewal)
    await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute()
  }
}
