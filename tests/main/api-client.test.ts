import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, createApiClient } from '../../src/main/services/api/api-client'
import type { ApiClientOptions } from '../../src/main/services/api/api-client'
import { UserFacingError } from '../../src/main/services/errors'
import type { Logger } from '../../src/main/services/ports'

// A real HTTP server on 127.0.0.1: ky, fetch, headers, retries and timeouts all run for real.

interface Seen {
  method: string
  url: URL
  authorization: string | undefined
  contentType: string | undefined
  body: string
}

type Handler = (seen: Seen, res: ServerResponse) => void

let server: Server
let baseUrl: string
let seen: Seen[]
let handler: Handler
let logs: string[]

const log: Logger = {
  info: (message) => logs.push(`info ${message}`),
  warn: (message) => logs.push(`warn ${message}`),
  error: (message) => logs.push(`error ${message}`),
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

beforeEach(async () => {
  seen = []
  logs = []
  handler = (_, res) => json(res, 500, { error: 'unset', message: 'no handler' })
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const entry: Seen = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      }
      seen.push(entry)
      handler(entry, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterEach(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

function client(overrides: Partial<ApiClientOptions> = {}) {
  let refreshes = 0
  const options: ApiClientOptions = {
    baseUrl: () => baseUrl,
    session: {
      idToken: async () => 'token-1',
      forceRefresh: async () => `token-${++refreshes + 1}`,
    },
    log,
    ...overrides,
  }
  return createApiClient(options)
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

const stores = [
  { shop: 'brand-one.myshopify.com', shopType: 'BRAND' },
  { shop: 'creator-one.myshopify.com', shopType: 'CREATOR' },
]

describe('the API client', () => {
  it('sends the bearer token and parses the stores list', async () => {
    handler = (_, res) => json(res, 200, stores)

    await expect(client().call('adminAllStores')).resolves.toEqual(stores)

    expect(seen).toHaveLength(1)
    expect(seen[0]?.method).toBe('GET')
    expect(seen[0]?.url.pathname).toBe('/admin-all-stores')
    expect(seen[0]?.url.search).toBe('')
    expect(seen[0]?.authorization).toBe('Bearer token-1')
  })

  it('sends no Authorization header when signed out', async () => {
    handler = (s, res) =>
      s.authorization
        ? json(res, 200, stores)
        : json(res, 401, { error: 'unauthenticated', message: 'Sign in' })
    const signedOut = client({
      session: { idToken: async () => null, forceRefresh: async () => null },
    })

    const error = await failure(signedOut.call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server did not accept your sign-in; sign out and sign in again',
    )
    expect(error.status).toBe(401)
    expect(seen.map((s) => s.authorization)).toEqual([undefined])
  })

  it('omits null and undefined query parameters', async () => {
    handler = (_, res) => json(res, 200, { uniqueCommissionRates: [] })
    const query = { brandShop: null, creatorShop: 'creator-one.myshopify.com' }

    // The screen passes a null brand (docs/product-rules.md "The server's calls"), which the query
    // type does not admit.
    await client().call('adminGetUniqueCommissionRates', {
      query: query as unknown as { creatorShop: string },
    })

    expect(seen[0]?.url.search).toBe('?creatorShop=creator-one.myshopify.com')
    expect(logs).toEqual([])
  })

  it('fills the :shop path parameter, encoded', async () => {
    const appConfig = {
      shop: 'brand-one.myshopify.com',
      clientId: 'id',
      clientSecret: 'secret',
      secretError: null,
      shopType: 'BRAND',
    }
    handler = (_, res) => json(res, 200, { appConfig })

    await expect(
      client().call('deleteAppConfig', { params: { shop: 'a/b c?.myshopify.com' } }),
    ).resolves.toEqual({ appConfig })

    expect(seen[0]?.method).toBe('DELETE')
    expect(seen[0]?.url.pathname).toBe('/delete-app-config/a%2Fb%20c%3F.myshopify.com')
  })

  it('joins a base URL that ends with a slash', async () => {
    handler = (_, res) => json(res, 200, stores)

    await client({ baseUrl: () => `${baseUrl}/` }).call('adminAllStores')

    expect(seen[0]?.url.pathname).toBe('/admin-all-stores')
  })

  it('sends a JSON body and accepts the contract status', async () => {
    const synced = { storeShop: 'brand-one.myshopify.com', productCount: 3, syncedAt: 'now' }
    handler = (_, res) => json(res, 200, synced)

    await expect(
      client().call('adminUpdateProducts', { body: { storeShop: 'brand-one.myshopify.com' } }),
    ).resolves.toEqual(synced)

    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.contentType).toBe('application/json')
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ storeShop: 'brand-one.myshopify.com' })
  })

  it("surfaces the server's ErrorBody message", async () => {
    handler = (_, res) =>
      json(res, 422, { error: 'business_rule', message: 'Commission not found' })

    const error = await failure(
      client().call('adminPreviewOrderTransfer', { query: { creatorOrderId: '1001' } }),
    )

    expect(error.message).toBe('Failed to fetch preview: Commission not found')
    expect(error.reason).toBe('Commission not found')
    expect(error.action).toBe('fetch preview')
    expect(error.status).toBe(422)
    expect(seen[0]?.url.search).toBe('?creatorOrderId=1001')
  })

  it("words a refused payout account with Stripe's reason", async () => {
    const reason = 'Payment provider connected account ID not found: acct_1Missing'
    handler = (_, res) => json(res, 422, { error: 'business_rule', message: reason })

    const error = await failure(
      client().call('adminSetStorePaymentAccount', {
        body: { shop: 'brand-one.myshopify.com', accountId: 'acct_1Missing' },
      }),
    )

    expect(error.message).toBe(`Failed to set payout account: ${reason}`)
    expect(error.reason).toBe(reason)
    expect(error.status).toBe(422)
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.url.pathname).toBe('/admin-set-store-payment-account')
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
      shop: 'brand-one.myshopify.com',
      accountId: 'acct_1Missing',
    })
  })

  it('words a non-JSON 500 by its status', async () => {
    handler = (_, res) => {
      res.writeHead(500, { 'content-type': 'text/html' })
      res.end('<h1>oops</h1>')
    }

    const error = await failure(client().call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server answered 500 Internal Server Error',
    )
    expect(error.status).toBe(500)
    // 500 is not among the statuses worth repeating.
    expect(seen).toHaveLength(1)
  })

  it('turns a malformed answer into a clear error and logs paths, not values', async () => {
    handler = (_, res) => json(res, 200, [{ shop: 'brand-one.myshopify.com', shopType: 'SECRET' }])

    const error = await failure(client().call('adminAllStores'))

    expect(error.message).toBe('Failed to fetch stores: the server sent an unexpected answer')
    expect(error.status).toBe(200)
    expect(logs.join('\n')).toContain('0.shopType')
    expect(logs.join('\n')).not.toContain('SECRET')
  })

  it('treats an answer that is not JSON as unexpected', async () => {
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('hello')
    }

    const error = await failure(client().call('adminAllStores'))

    expect(error.message).toBe('Failed to fetch stores: the server sent an unexpected answer')
  })

  it('fails a commission call answered with a status other than the contract one', async () => {
    handler = (_, res) => json(res, 202, { tandemCommissionRate: 10, creatorCommissionRate: 5 })

    const error = await failure(
      client().call('adminGetDefaultShopCommissionRate', {
        query: { shop: 'brand-one.myshopify.com' },
      }),
    )

    expect(error.message).toBe(
      'Failed to fetch default commission rates: the server answered 202 Accepted instead of 200 OK',
    )
    expect(error.status).toBe(202)
  })

  it('on 401 refreshes the token once and repeats the request with it', async () => {
    handler = (s, res) =>
      s.authorization === 'Bearer token-2'
        ? json(res, 201, {
            creatorOrderId: '1001',
            status: 'COMPLETED',
            processedAt: '2024-01-01T00:00:00Z',
            brandOrders: [],
          })
        : json(res, 401, { error: 'unauthenticated', message: 'Token expired' })

    const answer = await client().call('adminCreateOrderTransfer', {
      body: { creatorOrderId: '1001' },
    })

    expect(answer.status).toBe('COMPLETED')
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer token-1', 'Bearer token-2'])
    expect(seen.map((s) => s.body)).toEqual([
      '{"creatorOrderId":"1001"}',
      '{"creatorOrderId":"1001"}',
    ])
    expect(logs.join('\n')).not.toContain('token-')
  })

  it('gives up with the session-expired message after a second 401', async () => {
    handler = (_, res) => json(res, 401, { error: 'unauthenticated', message: 'Token expired' })

    const error = await failure(client().call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server did not accept your sign-in; sign out and sign in again',
    )
    expect(error.status).toBe(401)
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer token-1', 'Bearer token-2'])
  })

  it("words a failed refresh in the session service's own words", async () => {
    handler = (_, res) => json(res, 401, { error: 'unauthenticated', message: 'Token expired' })
    const offline = client({
      session: {
        idToken: async () => 'token-1',
        forceRefresh: async () => {
          throw new UserFacingError('Failed to refresh: offline', 'could not reach Firebase')
        },
      },
    })

    const error = await failure(offline.call('adminAllStores'))

    expect(error.message).toBe('Failed to fetch stores: could not reach Firebase')
    expect(error.status).toBeNull()
  })

  it('repeats a GET answered 503, up to twice', async () => {
    handler = (_, res) =>
      seen.length < 3
        ? json(res, 503, { error: 'unavailable', message: 'Busy' })
        : json(res, 200, stores)

    await expect(client().call('adminAllStores')).resolves.toEqual(stores)

    expect(seen).toHaveLength(3)
  })

  it('never repeats a POST answered 503', async () => {
    handler = (_, res) => json(res, 503, { error: 'unavailable', message: 'Busy' })

    const error = await failure(
      client().call('adminCreateOrderTransfer', { body: { creatorOrderId: '1001' } }),
    )

    expect(error.message).toBe('Failed to process transfer: Busy')
    expect(error.status).toBe(503)
    expect(seen).toHaveLength(1)
  })

  it('says so when the server does not answer in time', async () => {
    handler = () => undefined

    const error = await failure(client({ timeoutMs: 200 }).call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server did not answer within 200 milliseconds',
    )
    expect(error.status).toBeNull()
    // A timeout is not repeated: the person has already waited the whole time.
    expect(seen).toHaveLength(1)
  })

  it('keeps the whole call, retries included, within one timeout', async () => {
    handler = (_, res) => {
      setTimeout(() => json(res, 503, { error: 'unavailable', message: 'Busy' }), 150)
    }

    const error = await failure(client({ timeoutMs: 400 }).call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server did not answer within 400 milliseconds',
    )
    // Three slow attempts with their backoff would need well over 400 ms.
    expect(seen.length).toBeLessThan(3)
  })

  it('times out an answer whose body stalls halfway', async () => {
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('[{"shop":')
    }

    const error = await failure(client({ timeoutMs: 200 }).call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server did not answer within 200 milliseconds',
    )
  })

  it('words an unreachable server with its address', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const address = `http://127.0.0.1:${port}`

    const error = await failure(
      client({ baseUrl: () => address }).call('adminCreateOrderTransfer', {
        body: { creatorOrderId: '1001' },
      }),
    )

    expect(error.message).toBe(
      `Failed to process transfer: could not reach the server at ${address}`,
    )
    expect(error.status).toBeNull()
  })

  it('rejects a base URL that is not one', async () => {
    const error = await failure(client({ baseUrl: () => 'not a url' }).call('adminAllStores'))

    expect(error.message).toBe(
      'Failed to fetch stores: the server address "not a url" is not a valid URL',
    )
  })

  it('returns the exact bytes of the receipt PDF', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 254, 255, 10, 13])])
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' })
      res.end(pdf)
    }

    const bytes = await client().call('adminPreviewOrderTransferReceiptPdf', {
      query: { creatorOrderId: '1001' },
    })

    expect(bytes).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(bytes).equals(pdf)).toBe(true)
    expect(seen[0]?.url.search).toBe('?creatorOrderId=1001')
  })

  it('returns the CSV export as the bytes sent, and refuses an answer of another type', async () => {
    const csv = Buffer.from('creatorOrderId,brandAmount\r\n"1004","22.20"\r\n')
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
      res.end(csv)
    }
    const bytes = await client().call('adminOrderTransfersCsv')
    expect(Buffer.from(bytes).equals(csv)).toBe(true)

    handler = (_, res) => json(res, 200, [])
    const error = await failure(client().call('adminOrderTransfersCsv'))
    expect(error.message).toBe(
      'Failed to export CSV: the server sent "application/json", not a CSV file',
    )
  })

  it('refuses a receipt answer that is not a PDF', async () => {
    handler = (_, res) => json(res, 200, { hello: 'world' })

    const error = await failure(
      client().call('adminPreviewOrderTransferReceiptPdf', { query: { creatorOrderId: '1001' } }),
    )

    expect(error.message).toBe(
      'Failed to fetch receipt PDF: the server sent "application/json", not a PDF',
    )
  })
})
