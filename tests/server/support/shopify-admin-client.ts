import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach } from 'vitest'
import { startShopifyEmulator, type ShopifyEmulator } from '../../../emulators/shopify/emulator'
import { sandboxApp } from '../../../server/src/seed/sandbox-data'

// A Shopify emulator per test and the calls a test makes to it as an app would: a token by the
// client-credentials grant, then GraphQL requests to the shop's Admin API; and a receiver of the
// webhooks it delivers.

/** A JSON answer, shaped by what each test asserts of it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export interface ShopifyUnderTest {
  emulator: ShopifyEmulator
  /** A fresh access token of the shop's own app. */
  token(shop: string): Promise<string>
  /** POSTs a GraphQL request to the shop's Admin API; a fresh token unless one is given. */
  admin(
    shop: string,
    query: string,
    variables?: object,
    accessToken?: string,
  ): Promise<{ status: number; body: Json }>
  /** The `data` of a request that must have no GraphQL errors. */
  data(shop: string, query: string, variables?: object): Promise<Json>
}

/** A fresh access token of the shop's own app, by the client-credentials grant. */
export async function appToken(emulator: ShopifyEmulator, shop: string): Promise<string> {
  const response = await fetch(`${emulator.url}/${shop}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: sandboxApp(shop).clientId,
      client_secret: sandboxApp(shop).clientSecret,
    }),
  })
  return ((await response.json()) as { access_token: string }).access_token
}

/** A fresh seeded emulator for each test of the file, closed after it. */
export function shopifyEmulatorPerTest(): ShopifyUnderTest {
  const under = {} as ShopifyUnderTest
  under.token = (shop) => appToken(under.emulator, shop)
  under.admin = async (shop, query, variables = {}, accessToken) => {
    const response = await fetch(`${under.emulator.url}/${shop}/admin/api/2026-10/graphql.json`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Access-Token': accessToken ?? (await under.token(shop)),
      },
      body: JSON.stringify({ query, variables }),
    })
    return { status: response.status, body: await response.json() }
  }
  under.data = async (shop, query, variables) => {
    const { body } = await under.admin(shop, query, variables)
    if (body.errors) throw new Error(JSON.stringify(body.errors))
    return body.data
  }
  beforeEach(async () => {
    under.emulator = await startShopifyEmulator({ imageBaseUrl: 'http://tandem.test' })
  })
  afterEach(() => under.emulator.close())
  return under
}

export interface Delivery {
  headers: IncomingHttpHeaders
  body: string
}

/** An HTTP server that accepts every webhook delivery and keeps it. */
export async function webhookReceiver(): Promise<{
  uri: string
  received: Delivery[]
  close(): Promise<void>
}> {
  const received: Delivery[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/shopify`
  return {
    uri,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
