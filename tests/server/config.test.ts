import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, readServerConfig } from '../../server/src/config'
import { PRODUCTION_ENV } from './support/production-env'
import { buildServer, spawnServer } from './support/server-process'

// TANDEM_MODE (docs/operations.md "Production mode"): production refuses to start, naming each
// setting that is missing or unsafe, all at once; sandbox keeps the local stack's defaults.

/** The settings production refuses to start without. */
const REQUIRED = [
  'DATABASE_URL',
  'TANDEM_SECRET_KEY',
  'STRIPE_SECRET_KEY',
  'TANDEM_FIREBASE_PROJECT_ID',
  'TANDEM_PUBLIC_URL',
]

const problemsOf = (env: Record<string, string | undefined>): string[] => {
  try {
    readServerConfig(env)
    return []
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
}

describe('production mode', () => {
  it('starts from the settings it needs, with nothing pointing at an emulator', () => {
    const config = readServerConfig(PRODUCTION_ENV)
    expect(config).toMatchObject({
      mode: 'production',
      databaseUrl: PRODUCTION_ENV.DATABASE_URL,
      publicUrl: PRODUCTION_ENV.TANDEM_PUBLIC_URL,
      firebaseProjectId: 'tandem-marketplace',
      shopifyEndpoint: null,
      stripeEndpoint: null,
      failpoints: undefined,
    })
  })

  it('starts without a service account key, for Google Cloud, whose own credentials serve', () => {
    const onGoogleCloud = { ...PRODUCTION_ENV, GOOGLE_APPLICATION_CREDENTIALS: undefined }
    expect(readServerConfig(onGoogleCloud).mode).toBe('production')
  })

  it.each(REQUIRED)('refuses to start without %s, naming it', (name) => {
    const problems = problemsOf({ ...PRODUCTION_ENV, [name]: undefined })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(new RegExp(`^${name} is missing: `))
  })

  it.each([
    ['DATABASE_URL', 'file:/data/tandem.sqlite', 'DATABASE_URL must be a PostgreSQL URL'],
    ['TANDEM_PUBLIC_URL', 'http://api.tandem.example', 'TANDEM_PUBLIC_URL must be https'],
    ['STRIPE_SECRET_KEY', 'pk_live_publishable', 'STRIPE_SECRET_KEY is not a Stripe secret key'],
    [
      'TANDEM_FIREBASE_PROJECT_ID',
      'demo-tandem',
      'TANDEM_FIREBASE_PROJECT_ID names a demo project',
    ],
    [
      'GOOGLE_APPLICATION_CREDENTIALS',
      '/nowhere/key.json',
      'GOOGLE_APPLICATION_CREDENTIALS names no readable file: /nowhere/key.json',
    ],
    ['TANDEM_SHOPIFY_ENDPOINT', 'http://127.0.0.1:8788', 'TANDEM_SHOPIFY_ENDPOINT is set'],
    ['TANDEM_STRIPE_ENDPOINT', 'http://127.0.0.1:8789', 'TANDEM_STRIPE_ENDPOINT is set'],
    ['FIREBASE_AUTH_EMULATOR_HOST', '127.0.0.1:9099', 'FIREBASE_AUTH_EMULATOR_HOST is set'],
    ['TANDEM_FAILPOINTS', 'createOrder:after-call=kill', 'TANDEM_FAILPOINTS is set'],
    ['TANDEM_TRANSFER_LEASE_MS', '500', 'TANDEM_TRANSFER_LEASE_MS is set'],
    ['TANDEM_JOB_LEASE_MS', '500', 'TANDEM_JOB_LEASE_MS is set'],
    ['TANDEM_JOB_RETRY_DELAY_SECONDS', '1', 'TANDEM_JOB_RETRY_DELAY_SECONDS is set'],
  ])('refuses %s=%s as unsafe', (name, value, problem) => {
    const problems = problemsOf({ ...PRODUCTION_ENV, [name]: value })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(problem)
  })

  it('says every problem at once', () => {
    const problems = problemsOf({
      TANDEM_MODE: 'production',
      TANDEM_SHOPIFY_ENDPOINT: 'http://127.0.0.1:8788',
    })
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      ...REQUIRED,
      'TANDEM_SHOPIFY_ENDPOINT',
    ])
  })
})

describe('sandbox mode', () => {
  it('is the default, with the local stack defaults', () => {
    const config = readServerConfig({ TANDEM_SECRET_KEY: randomBytes(32).toString('hex') })
    expect(config).toMatchObject({
      mode: 'sandbox',
      databaseUrl: null,
      firebaseProjectId: 'demo-tandem',
      publicUrl: 'http://127.0.0.1:8787',
    })
  })

  it("paces Stripe requests at Stripe's limits for the key's mode, or this process's share of them", () => {
    const secretKey = randomBytes(32).toString('hex')
    const rateOf = (env: Record<string, string>) =>
      readServerConfig({ TANDEM_SECRET_KEY: secretKey, ...env }).stripeRateLimits
    expect(rateOf({ STRIPE_SECRET_KEY: 'sk_live_abc' })).toEqual({
      perSecond: 100,
      perEndpointPerSecond: 25,
    })
    expect(rateOf({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toEqual({
      perSecond: 25,
      perEndpointPerSecond: 25,
    })
    // Two processes on one live account.
    const half = {
      STRIPE_SECRET_KEY: 'sk_live_abc',
      TANDEM_STRIPE_REQUESTS_PER_SECOND: '50',
      TANDEM_STRIPE_ENDPOINT_REQUESTS_PER_SECOND: '12.5',
    }
    expect(rateOf(half)).toEqual({ perSecond: 50, perEndpointPerSecond: 12.5 })
    expect(() => rateOf({ TANDEM_STRIPE_REQUESTS_PER_SECOND: '0' })).toThrow(
      'TANDEM_STRIPE_REQUESTS_PER_SECOND must be a number of requests a second above 0, not "0"',
    )
  })

  it('refuses a mode it does not know', () => {
    expect(() => readServerConfig({ TANDEM_MODE: 'prod' })).toThrow(
      'TANDEM_MODE must be "sandbox" or "production", not "prod"',
    )
  })
})

describe('the server process in production mode', () => {
  let server: Awaited<ReturnType<typeof buildServer>>
  beforeAll(async () => {
    server = await buildServer()
  })
  afterAll(() => server?.remove())

  it('exits at start, printing each missing and unsafe setting for the operator', async () => {
    const start = spawnServer(server.entry, {
      TANDEM_MODE: 'production',
      TANDEM_SECRET_KEY: PRODUCTION_ENV.TANDEM_SECRET_KEY,
      TANDEM_PUBLIC_URL: 'http://api.tandem.example',
      TANDEM_STRIPE_ENDPOINT: 'http://127.0.0.1:8789',
    })
    await expect(start).rejects.toThrow(
      [
        'The server process exited at start:',
        'The Tandem server cannot start in production mode:',
        '- DATABASE_URL is missing: production keeps its data in PostgreSQL (postgres://user:password@host/db)',
        "- STRIPE_SECRET_KEY is missing: the platform's Stripe secret key moves the brands' money",
        "- TANDEM_FIREBASE_PROJECT_ID is missing: the Firebase project whose administrators' sign-ins count",
        '- TANDEM_PUBLIC_URL must be https: Shopify sends secrets to it',
        '- TANDEM_STRIPE_ENDPOINT is set: it points at the Stripe emulator; unset it',
      ].join('\n'),
    )
  })
})
