import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Runtime } from './context'
import type { FaultScript } from './faults'
import { answerGraphql, readGraphqlRequest } from './graphql-endpoint'
import { formOrJson, json, notFound, readBody, send, type Answer } from './http'
import { answerAccessToken, answerAuthorize } from './oauth'
import { API_VERSION } from './schema'
import type { LeakyBucket } from './throttle'
import type { Timers } from './timers'

// The HTTP surface: `/{shop}/admin/oauth/...`, `/{shop}/admin/api/2026-10/graphql.json` and the
// bulk result files. Each request is counted and offered to the fault script before its work runs.

export interface Surface {
  runtime: Runtime
  faults: FaultScript
  timers: Timers
  bucketOf(shop: string): LeakyBucket
  countCall(shop: string, operation: string): void
}

interface Route {
  /** The shop addressed, for call counts and faults; absent where none applies. */
  shop?: string
  operations: string[]
  work: () => Answer | Promise<Answer>
}

const answerOnly = (work: () => Answer): Route => ({ operations: [], work })

const SHOPIFY_429 =
  'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.'

function route(surface: Surface, request: IncomingMessage, url: URL, body: string): Route {
  const { runtime } = surface
  const bulkFile = /^\/_bulk\/(\d+)\.jsonl$/.exec(url.pathname)
  if (bulkFile && request.method === 'GET') {
    const file = runtime.bulk.file(bulkFile[1]!)
    const headers = { 'Content-Type': 'application/jsonl' }
    return answerOnly(() =>
      file === undefined ? notFound() : { status: 200, headers, body: file },
    )
  }
  const [, domain = '', rest] = /^\/([^/]+)\/admin\/(.+)$/.exec(url.pathname) ?? []
  const shop = runtime.state.shops[domain]
  if (!shop) return answerOnly(notFound)

  if (rest === 'oauth/access_token' && request.method === 'POST') {
    const params = formOrJson(body, request.headers['content-type'])
    const work = () => answerAccessToken(runtime, shop, params)
    return { shop: domain, operations: ['access_token'], work }
  }
  if (rest === 'oauth/authorize' && request.method === 'GET')
    return answerOnly(() => answerAuthorize(runtime, shop, url.searchParams))
  if (rest === `api/${API_VERSION}/graphql.json` && request.method === 'POST') {
    const graphql = readGraphqlRequest(body)
    if (!graphql)
      return answerOnly(() =>
        json(400, { errors: { query: 'Required parameter missing or invalid' } }),
      )
    const header = request.headers['x-shopify-access-token']
    const token = typeof header === 'string' ? header : undefined
    const work = () => answerGraphql(runtime, shop, surface.bucketOf(domain), token, graphql)
    return { shop: domain, operations: graphql.rootFields, work }
  }
  return answerOnly(notFound)
}

async function handle(surface: Surface, request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', surface.runtime.url)
  const routed = route(surface, request, url, await readBody(request))
  const log = surface.runtime.log
  const { shop, operations } = routed
  for (const operation of operations) surface.countCall(shop ?? '', operation)
  const fault = shop === undefined ? undefined : surface.faults.take(shop, operations)
  if (fault) log(`fault ${fault.mode} on ${operations.join(',')} of ${shop}`)
  switch (fault?.mode) {
    case 'drop_before':
      return void request.socket.destroy()
    case 'error': {
      const status = fault.status ?? 503
      return send(response, json(status, { errors: STATUS_CODES[status] ?? 'Error' }))
    }
    case 'throttle429': {
      const retryAfter = String(fault.retryAfterSeconds ?? 1)
      return send(response, json(429, { errors: SHOPIFY_429 }, { 'Retry-After': retryAfter }))
    }
    case 'delay':
      await surface.timers.sleep(fault.delayMs)
  }
  const answer = await routed.work()
  // The work is done and kept; only the answer is lost, as when a connection breaks mid-reply.
  if (fault?.mode === 'drop_after_write') return void request.socket.destroy()
  log(`${request.method} ${url.pathname} ${answer.status}`)
  send(response, answer)
}

export function requestListener(surface: Surface) {
  return (request: IncomingMessage, response: ServerResponse) => {
    handle(surface, request, response).catch((error: unknown) => {
      const reason = error instanceof Error ? error.stack : String(error)
      surface.runtime.log(`${request.method} ${request.url} failed: ${reason}`)
      if (!response.headersSent) send(response, json(500, { errors: 'Internal Server Error' }))
    })
  }
}
