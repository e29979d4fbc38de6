import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Who may call the server: PRODUCT.md's "every call except /healthz needs an administrator's
// Firebase ID token", with tokens minted by the real Auth emulator.

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(() => server.close())

const unauthenticated = {
  error: 'unauthenticated',
  message: 'Sign in first: send a Firebase ID token as "Authorization: Bearer …"',
}
const invalidToken = {
  error: 'unauthenticated',
  message: 'The ID token is invalid or has expired: sign in again',
}

const getStores = (authorization?: string) =>
  server.app.inject({
    method: 'GET',
    url: '/admin-all-stores',
    headers: authorization === undefined ? {} : { authorization },
  })

describe('authentication', () => {
  it('answers 401 without an Authorization header', async () => {
    const response = await getStores()
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual(unauthenticated)
  })

  it.each([
    ['another scheme', () => `Basic ${server.tokens.admin}`],
    ['no token', () => 'Bearer'],
    ['an empty token', () => 'Bearer '],
    ['two tokens', () => `Bearer ${server.tokens.admin} ${server.tokens.admin}`],
    ['a lower-case scheme', () => `bearer ${server.tokens.admin}`],
  ])('answers 401 for a malformed header: %s', async (_name, header) => {
    const response = await getStores(header())
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual(unauthenticated)
  })

  it.each([
    ['garbage', 'not-a-token'],
    ['a JWT-shaped string', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
  ])('answers 401 for a token that does not verify: %s', async (_name, token) => {
    const response = await getStores(`Bearer ${token}`)
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual(invalidToken)
  })

  it('answers 401 before telling whether a path exists', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/no-such-call' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual(unauthenticated)
  })
})

describe('authorization', () => {
  it('answers 403 to a verified user who is not an administrator', async () => {
    const response = await getStores(`Bearer ${server.tokens.notAdmin}`)
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({
      error: 'forbidden',
      message: 'This account is not a Tandem administrator',
    })
  })

  it('lets in a user with the admin claim', async () => {
    const response = await getStores(`Bearer ${server.tokens.admin}`)
    expect(response.statusCode).toBe(200)
  })

  it('lets in a user whose email is in the administrators list', async () => {
    const response = await getStores(`Bearer ${server.tokens.listedAdmin}`)
    expect(response.statusCode).toBe(200)
  })
})

describe('public paths', () => {
  it('answers /healthz without a token', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
  })

  it('answers product images without a token', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/images/products/linen-overshirt.svg',
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
  })

  it.each([
    '/images/../get-all-app-config',
    '/images/%2e%2e/get-all-app-config',
    '/healthz/../get-all-app-config',
    '/images?/get-all-app-config',
  ])('does not open another call through a public prefix: %s', async (url) => {
    const response = await server.app.inject({ method: 'GET', url })
    expect(response.statusCode).not.toBe(200)
    expect(response.body).not.toContain('shpss_')
  })
})
