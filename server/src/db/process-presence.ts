import { randomBytes } from 'node:crypto'
import type { Db } from './connect'

// The server processes alive on one database, each known by a lease of its own that it renews
// while it runs. Stripe's rate limits are the platform account's, whichever process asks, so each
// paces itself to its share of the processes alive (adapters/payments/stripe/stripe-rate.ts): one
// that dies stops renewing, and the others take its share over once its lease ran out, rather than
// drain the backlog at the pace of the processes configured.

const PREFIX = 'process:'
/** A dead process's lease is removed this long after it ran out, by the next beat of another. */
const FORGOTTEN_AFTER_MS = 24 * 60 * 60_000

export interface PresenceOptions {
  /** How often this process renews its lease and counts the others'. */
  beatMs: number
  /** How long a lease lasts unrenewed: a process silent this long counts as gone. */
  ttlMs: number
  now: () => Date
  /** Told the processes alive (this one among them) at every beat. */
  onCount: (processes: number) => void
}

export interface Presence {
  /** Stops renewing, and gives the lease back: the others take the share at their next beat. */
  stop(): Promise<void>
}

/** Announces this process, and counts the processes alive now and at every beat from now. */
export async function announcePresence(db: Db, options: PresenceOptions): Promise<Presence> {
  const name = PREFIX + randomBytes(8).toString('hex')
  const beat = async () => {
    const now = options.now().getTime()
    const expiresAt = new Date(now + options.ttlMs).toISOString()
    await db
      .insertInto('leases')
      .values({ name, holder: name, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ expires_at: expiresAt }))
      .execute()
    await db
      .deleteFrom('leases')
      .where('name', 'like', `${PREFIX}%`)
      .where('expires_at', '<', new Date(now - FORGOTTEN_AFTER_MS).toISOString())
      .execute()
    const alive = await db
      .selectFrom('leases')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('name', 'like', `${PREFIX}%`)
      .where('expires_at', '>', new Date(now).toISOString())
      .executeTakeFirstOrThrow()
    options.onCount(Math.max(1, Number(alive.count)))
  }
  await beat()
  // One beat at a time: on a slow database a beat can outlast the interval, and stop() must wait
  // for the one under way, or it renews the lease just after stop() gave it back.
  let beating: Promise<void> | undefined
  const timer = setInterval(() => {
    if (beating) return
    // A beat that fails (the database away a moment) keeps the last count until the next one.
    beating = beat()
      .catch(() => {})
      .finally(() => (beating = undefined))
  }, options.beatMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await beating
      await db.deleteFrom('leases').where('name', '=', name).execute()
    },
  }
}
