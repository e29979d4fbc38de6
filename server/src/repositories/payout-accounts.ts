import type { Db } from '../db/connect'

// Which Stripe connected account each brand store is paid to: Tandem's own fact (the account's
// email and capabilities are Stripe's, read when shown).

export async function findPayoutAccountId(db: Db, shop: string): Promise<string | null> {
  const row = await db
    .selectFrom('store_payment_accounts')
    .select('account_id')
    .where('store_shop', '=', shop)
    .executeTakeFirst()
  return row?.account_id ?? null
}

export async function setPayoutAccountId(
  db: Db,
  shop: string,
  accountId: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('store_payment_accounts')
    .values({ store_shop: shop, account_id: accountId, updated_at: at })
    .onConflict((oc) =>
      oc.column('store_shop').doUpdateSet({ account_id: accountId, updated_at: at }),
    )
    .execute()
}
