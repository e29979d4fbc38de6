import type { Db } from '../db/connect'

// The single-use `state` of each authorization-code install Tandem started (oauth_states).

export async function insertOAuthState(
  db: Db,
  state: { state: string; shop: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('oauth_states')
    .values({ state: state.state, shop: state.shop, created_at: state.createdAt })
    .execute()
}

/**
 * Deletes the shop's state and answers when it was issued; null when there is none. The row goes
 * as it is checked, so that a replayed callback finds nothing.
 */
export async function takeOAuthState(db: Db, shop: string, state: string): Promise<string | null> {
  const issued = await db
    .deleteFrom('oauth_states')
    .where('state', '=', state)
    .where('shop', '=', shop)
    .returning('created_at')
    .executeTakeFirst()
  return issued?.created_at ?? null
}

/** Deletes the states issued before `before` (long unusable); answers how many. */
export async function removeOAuthStatesBefore(db: Db, before: string): Promise<number> {
  const removed = await db
    .deleteFrom('oauth_states')
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(removed.numDeletedRows)
}
