import type { KeyAttempts } from '../adapters/commerce/shopify/idempotency-keys'
import type { Db } from '../db/connect'

// The attempts of each idempotency key Shopify refused as failed before (shopify_key_attempts):
// what lets a call sent under a key go on past them (adapters/commerce/shopify/idempotency-keys.ts).

export function shopifyKeyAttempts(db: Db): KeyAttempts {
  return {
    async failedThrough(shop, key) {
      const row = await db
        .selectFrom('shopify_key_attempts')
        .select('failed_through')
        .where('shop', '=', shop)
        .where('idempotency_key', '=', key)
        .executeTakeFirst()
      return row ? Number(row.failed_through) : 0
    },

    // Never lowered: two runs recording at once keep the later attempt.
    async failed(shop, key, attempt) {
      await db
        .insertInto('shopify_key_attempts')
        .values({ shop, idempotency_key: key, failed_through: attempt })
        .onConflict((conflict) =>
          conflict
            .columns(['shop', 'idempotency_key'])
            .doUpdateSet({ failed_through: attempt })
            .where('shopify_key_attempts.failed_through', '<', attempt),
        )
        .execute()
    },
  }
}
