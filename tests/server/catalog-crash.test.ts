import { describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import { crashScenarios, TAKEOVER } from './support/crash-scenario'

// The crash harness for listings (issue 34): the real server, in processes of its own on SQLite (and
// on PostgreSQL when TANDEM_TEST_DATABASE_URL is set), is killed with SIGKILL once productSet made
// the creator's product and before Tandem recorded it; a process started again takes the job
// over. The creator's store has the product once, and it is the one Tandem linked.

const MAYA = 'maya-makes.myshopify.com'
const OVERSHIRT = 'gid://shopify/Product/101'
const OVERSHIRT_VARIANT = 'gid://shopify/ProductVariant/201'

const crash = crashScenarios()
const start = crash.startTakenOverSoon
const call = crash.call

describe('killed with SIGKILL while listing, then started again', { timeout: 120_000 }, () => {
  it("at listing:after-call: the creator's store has the product once, linked", async () => {
    const scenario = await crash.begin()
    const doomed = await start('listing:after-call=kill')
    expect(
      (await call(doomed, 'POST', '/admin-update-products', { storeShop: NORTHWIND })).status,
    ).toBe(200)
    const listed = await call(doomed, 'POST', '/admin-list-products', {
      creatorStoreShop: MAYA,
      brandStoreShop: NORTHWIND,
      productIds: [OVERSHIRT],
    })
    expect(listed.status).toBe(200)
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' })
    await doomed.line(/^failpoint listing:after-call: kill$/)
    const made = () =>
      scenario.shopify
        .products(MAYA)
        .filter((product) => product.handle.startsWith('linen-overshirt-'))
    expect(made()).toHaveLength(1)

    const restarted = await start()
    const listings = async () =>
      (await call(restarted, 'GET', `/admin-catalog-listings?creatorStoreShop=${MAYA}`)).body
        .listings as { syncState: string; creatorProductId: string | null }[]
    await expect.poll(async () => (await listings())[0]?.syncState, TAKEOVER).toBe('IN_SYNC')
    expect(made()).toHaveLength(1)
    expect((await listings())[0]?.creatorProductId).toBe(made()[0]!.id)
    const db = await scenario.db()
    const link = await db
      .selectFrom('variant_links')
      .select('brand_variant_id')
      .where('creator_variant_id', '=', made()[0]!.variants[0]!.id)
      .executeTakeFirst()
    expect(link).toEqual({ brand_variant_id: OVERSHIRT_VARIANT })
  })
})
