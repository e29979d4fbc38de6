import { sql, type Kysely } from 'kysely'
import { inOneTransaction } from './in-one-transaction'

/**
 * The currencies whose minor units changed when Stripe's currency table replaced ICU's: ICU counts
 * no decimals, Stripe two (HUF, IDR, COP, ISK, UGX …). Fixed as of 007; amounts stored in them
 * before are rescaled so that "4990" HUF stays 4,990 forints, except a brand already paid: Stripe
 * moved its amount as it reads it now, and the record keeps what was moved (an underpayment to put
 * right, not to hide). (LYD, three decimals in ICU and two by Stripe's default, is not a currency
 * Stripe charges in.)
 */
const ICU_WHOLE_STRIPE_TWO_DECIMALS =
  'AFN ALL COP HUF IDR IQD IRR ISK KPW LAK LBP MMK PKR SLL SOS SYP UGX YER'.split(' ')

/**
 * Money owed out of a charge: each PaymentIntent pays for at most one creator order (held when its
 * transfer is first frozen), and a brand's figures in the platform's settlement currency beside
 * the order's, with the charge's exchange rate (null on transfers frozen before this). Minor units
 * become Stripe's (above).
 */
export const up = (db: Kysely<unknown>): Promise<void> =>
  inOneTransaction(db, async (trx) => {
    const rescaled = sql.join(ICU_WHOLE_STRIPE_TWO_DECIMALS.map((code) => sql.lit(code)))
    await sql`
      UPDATE store_products SET min_price_minor = min_price_minor * 100
      WHERE currency IN (${rescaled})
    `.execute(trx)
    await sql`
      UPDATE creator_order_index SET total_minor = total_minor * 100
      WHERE currency IN (${rescaled})
    `.execute(trx)
    await sql`
      UPDATE order_transfer_brands SET base_minor = base_minor * 100,
        creator_commission_minor = creator_commission_minor * 100,
        tandem_commission_minor = tandem_commission_minor * 100,
        brand_amount_minor = brand_amount_minor * 100
      WHERE payment_transfer_id IS NULL AND creator_order_id IN
        (SELECT creator_order_id FROM order_transfers WHERE currency IN (${rescaled}))
    `.execute(trx)
    await trx.schema
      .createTable('payment_intent_orders')
      .addColumn('payment_intent_id', 'text', (c) => c.primaryKey())
      .addColumn('creator_order_id', 'text', (c) => c.notNull())
      .addColumn('creator_store_shop', 'text', (c) => c.notNull())
      .addColumn('held_at', 'text', (c) => c.notNull())
      .execute()
    const brands = () => trx.schema.alterTable('order_transfer_brands')
    await brands().addColumn('settlement_currency', 'text').execute()
    await brands().addColumn('exchange_rate', 'text').execute()
    for (const column of [
      'brand_amount_settlement_minor',
      'creator_commission_settlement_minor',
      'tandem_commission_settlement_minor',
    ]) {
      await brands().addColumn(column, 'bigint').execute()
    }
  })
