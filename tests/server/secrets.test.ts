import { createCipheriv, randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { readDatabaseSettings } from '../../server/src/config'
import { openDatabase, type Db } from '../../server/src/db/connect'
import { createSecretBox, keyIdOf, type SecretPlace } from '../../server/src/secrets'
import { seedSandboxMarketplace } from '../../server/src/seed/seed'
import { sandboxApp, STORES } from '../../server/src/seed/sandbox-data'
import { runNpmScript } from '../support/npm-script'
import { freshSharedDatabase, type SharedDatabase } from './support/server-process'
import { startServerUnderTest } from './support/server-under-test'

// Client secrets and Shopify tokens at rest (docs/operations.md "Secrets at rest, and rotating the
// key"): AES-256-GCM with its whole 16-byte tag, bound to its shop and field, under a named key;
// `npm run secrets:rotate` seals every one anew under a new key in one transaction; a value that
// does not open is that row's clear error, never the list's 500.

const MAYA = 'maya-makes.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const oldKey = randomBytes(32)
const newKey = randomBytes(32)
const MAYA_SECRET: SecretPlace = { shop: MAYA, field: 'client secret' }

/** A v2 value built by hand for Maya's client secret: iv, a tag of `tagBytes`, the ciphertext. */
function sealedWithTag(key: Buffer, plain: string, tagBytes: number): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes })
  cipher.setAAD(Buffer.from(`client secret\0${MAYA}`))
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  const body = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
  return `v2:${keyIdOf(key)}:${body}`
}

/** A value as the server sealed them before key ids and binding (v1). */
function sealedV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return 'v1:' + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')
}

describe('a sealed secret', () => {
  const box = createSecretBox(oldKey)

  it('opens where it was sealed, and names its key without showing the secret', () => {
    const sealed = box.seal('shpss_maya_secret', MAYA_SECRET)
    expect(sealed).toMatch(new RegExp(`^v2:${keyIdOf(oldKey)}:`))
    expect(sealed).not.toContain('shpss_maya_secret')
    expect(box.open(sealed, MAYA_SECRET)).toBe('shpss_maya_secret')
  })

  it.each([
    ['another shop', { shop: LUMEN, field: 'client secret' }],
    ['another field of the same shop', { shop: MAYA, field: 'Shopify refresh token' }],
  ] as const)('does not open when moved to %s', (_name, place) => {
    const sealed = box.seal('shpss_maya_secret', MAYA_SECRET)
    expect(() => box.open(sealed, place)).toThrow(
      `The ${place.field} of ${place.shop} cannot be read: it does not open where it is stored: it was altered, or sealed for another shop or field`,
    )
  })

  it('does not open with a tag shorter than 16 bytes, however it was made', () => {
    // A genuine 4-byte tag over nothing, which GCM would take: too short to hold 16 bytes.
    expect(() => box.open(sealedWithTag(oldKey, '', 4), MAYA_SECRET)).toThrow(
      'cannot be read: it is too short to hold a whole 16-byte tag',
    )
    // A genuine 4-byte tag before a longer ciphertext: read as a 16-byte tag, it does not match.
    const short = sealedWithTag(oldKey, 'shpss_a_longer_secret_value', 4)
    expect(() => box.open(short, MAYA_SECRET)).toThrow('cannot be read: it does not open')
    // The same made with a whole tag opens: the refusals above are the tag's length.
    expect(box.open(sealedWithTag(oldKey, 'shpss_a_longer_secret_value', 16), MAYA_SECRET)).toBe(
      'shpss_a_longer_secret_value',
    )
  })

  it('does not open once a byte of it changed', () => {
    const sealed = box.seal('shpss_maya_secret', MAYA_SECRET)
    const body = Buffer.from(sealed.split(':')[2]!, 'base64')
    body[body.length - 1]! ^= 1
    const altered = `v2:${box.keyId}:${body.toString('base64')}`
    expect(() => box.open(altered, MAYA_SECRET)).toThrow('it was altered')
  })

  it('opens under a previous key while the new one seals, and names a key the server lacks', () => {
    const sealedBefore = box.seal('shpss_maya_secret', MAYA_SECRET)
    const rotating = createSecretBox(newKey, [oldKey])
    expect(rotating.open(sealedBefore, MAYA_SECRET)).toBe('shpss_maya_secret')
    expect(rotating.seal('x', MAYA_SECRET)).toMatch(new RegExp(`^v2:${keyIdOf(newKey)}:`))
    expect(() => createSecretBox(newKey).open(sealedBefore, MAYA_SECRET)).toThrow(
      `it was sealed under key ${keyIdOf(oldKey)}, which this server does not hold`,
    )
  })

  it('refuses an old-format value (bound to no shop) but for the rotation, which reads it', () => {
    const v1 = sealedV1(oldKey, 'shpss_legacy')
    expect(() => createSecretBox(oldKey).open(v1, MAYA_SECRET)).toThrow(
      'it is in the old format, bound to no shop: run `npm run secrets:rotate`',
    )
    const rotation = createSecretBox(newKey, [oldKey], { openLegacy: true })
    expect(rotation.open(v1, MAYA_SECRET)).toBe('shpss_legacy')
  })
})

describe('the app configs list', () => {
  it('answers a secret it cannot read as that row error, the other rows as they are', async () => {
    const server = await startServerUnderTest()
    try {
      // Maya's sealed secret moved onto Lumen's row: it must not open there.
      const maya = await server.db
        .selectFrom('app_configs')
        .select('client_secret_sealed')
        .where('shop', '=', MAYA)
        .executeTakeFirstOrThrow()
      await server.db
        .updateTable('app_configs')
        .set({ client_secret_sealed: maya.client_secret_sealed })
        .where('shop', '=', LUMEN)
        .execute()
      const response = await server.app.inject({
        url: '/get-all-app-config',
        headers: server.asAdmin,
      })
      expect(response.statusCode).toBe(200)
      const { appConfigs } = response.json() as {
        appConfigs: { shop: string; clientSecret: string | null; secretError: string | null }[]
      }
      expect(appConfigs).toHaveLength(STORES.length)
      for (const config of appConfigs) {
        expect(config).toEqual(
          config.shop === LUMEN
            ? expect.objectContaining({
                clientSecret: null,
                secretError: `The client secret of ${LUMEN} cannot be read: it does not open where it is stored: it was altered, or sealed for another shop or field`,
              })
            : expect.objectContaining({
                clientSecret: sandboxApp(config.shop).clientSecret,
                secretError: null,
              }),
        )
      }
      // Deleting the row is how an admin mends it: that works too.
      const deleted = await server.app.inject({
        method: 'DELETE',
        url: `/delete-app-config/${LUMEN}`,
        headers: server.asAdmin,
      })
      expect(deleted.statusCode).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe('npm run secrets:rotate', () => {
  let database: SharedDatabase | undefined
  let db: Db | undefined
  afterEach(async () => {
    await db?.destroy()
    db = undefined
    await database?.remove()
    database = undefined
  }, 30_000)

  /**
   * The sandbox's app configs and a token pair for Maya, sealed under the old key; Maya's refresh
   * token still in the old format (v1), as a server before key ids left it.
   */
  async function databaseUnderOldKey(): Promise<Db> {
    database = await freshSharedDatabase()
    const { databaseUrl, sqliteFile } = readDatabaseSettings(database.env)
    db = await openDatabase({ databaseUrl: databaseUrl ?? undefined, sqliteFile })
    const old = createSecretBox(oldKey)
    await seedSandboxMarketplace(db, { secrets: old, now: new Date() })
    await db
      .insertInto('shop_connections')
      .values({
        shop: MAYA,
        method: 'AUTHORIZATION_CODE',
        access_token_sealed: old.seal('shpat_maya_access', {
          shop: MAYA,
          field: 'Shopify access token',
        }),
        access_token_expires_at: new Date().toISOString(),
        refresh_token_sealed: sealedV1(oldKey, 'shprt_maya_refresh'),
        refresh_token_expires_at: new Date().toISOString(),
        scopes: 'read_products',
        error: null,
        updated_at: new Date().toISOString(),
      })
      .execute()
    return db
  }

  /** Every sealed value stored, by where it is. */
  async function storedValues(
    on: Db,
  ): Promise<Map<string, { place: SecretPlace; sealed: string }>> {
    const values = new Map<string, { place: SecretPlace; sealed: string }>()
    const add = (place: SecretPlace, sealed: string | null) => {
      if (sealed) values.set(`${place.field} of ${place.shop}`, { place, sealed })
    }
    for (const row of await on.selectFrom('app_configs').selectAll().execute()) {
      add({ shop: row.shop, field: 'client secret' }, row.client_secret_sealed)
    }
    for (const row of await on.selectFrom('shop_connections').selectAll().execute()) {
      add({ shop: row.shop, field: 'Shopify access token' }, row.access_token_sealed)
      add({ shop: row.shop, field: 'Shopify refresh token' }, row.refresh_token_sealed)
    }
    return values
  }

  const rotate = (keys: { current: Buffer; previous: Buffer[] }) =>
    runNpmScript('secrets:rotate', [], {
      ...database!.env,
      TANDEM_SECRET_KEY: keys.current.toString('hex'),
      TANDEM_PREVIOUS_SECRET_KEYS: keys.previous.map((key) => key.toString('base64')).join(','),
    })

  it('seals every secret and token anew under the new key, each still reading the same', async () => {
    const on = await databaseUnderOldKey()
    const before = await storedValues(on)
    const legacy = createSecretBox(oldKey, [], { openLegacy: true })
    const plainBefore = new Map(
      [...before].map(([name, { place, sealed }]) => [name, legacy.open(sealed, place)]),
    )

    const result = await rotate({ current: newKey, previous: [oldKey] })
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe(
      `Sealed anew under key ${keyIdOf(newKey)}: ${STORES.length} client secret(s) and 2 Shopify token(s). TANDEM_PREVIOUS_SECRET_KEYS may now be emptied.`,
    )
    expect(result.exitCode).toBe(0)

    const after = await storedValues(on)
    expect([...after.keys()]).toEqual([...before.keys()])
    // A server that holds the new key alone reads every one, the old-format token included.
    const onlyNewKey = createSecretBox(newKey)
    for (const [name, { place, sealed }] of after) {
      expect(sealed, name).not.toBe(before.get(name)!.sealed)
      expect(sealed, name).toMatch(new RegExp(`^v2:${keyIdOf(newKey)}:`))
      expect(onlyNewKey.open(sealed, place), name).toBe(plainBefore.get(name))
    }
  })

  it('changes nothing when one value does not open, and names it', async () => {
    const on = await databaseUnderOldKey()
    // Lumen's secret sealed under a key nobody gives the command.
    await on
      .updateTable('app_configs')
      .set({
        client_secret_sealed: createSecretBox(randomBytes(32)).seal('lost', {
          shop: LUMEN,
          field: 'client secret',
        }),
      })
      .where('shop', '=', LUMEN)
      .execute()
    const before = await storedValues(on)

    const result = await rotate({ current: newKey, previous: [oldKey] })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(
        `^Nothing was changed: 1 stored value\\(s\\) do not open\\.\\n- The client secret of ${LUMEN} cannot be read: it was sealed under key [0-9a-f]{12}, which this server does not hold`,
      ),
    )
    expect(await storedValues(on)).toEqual(before)
  })
})
