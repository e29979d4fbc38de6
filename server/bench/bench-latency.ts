import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

// A proxy in front of an emulator that answers every call to it `latencyMs` after it was sent, as
// a remote Shopify or Stripe would, and records each call: what it asked, and when it was sent and
// answered (the benchmark's own clock, performance.now()). Every call pays the latency, not a
// list of operations that goes stale as processing makes new ones. The emulator's own work runs
// within the latency, as the real service's does within its answer's time: the emulators share
// the benchmark's process, and their time is neither Tandem's nor the network's.

/** One call through the proxy. */
export interface RecordedCall {
  method: string
  path: string
  body: string
  startedMs: number
  answeredMs: number
}

export interface LatencyProxy {
  url: string
  calls: RecordedCall[]
  /** Resolves once no call has been in flight for a while (the shops' webhook registrations). */
  settled(): Promise<void>
  close(): Promise<void>
}

const readBody = async (message: IncomingMessage) => {
  const chunks: Buffer[] = []
  for await (const chunk of message) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startLatencyProxy(target: string, latencyMs: number): Promise<LatencyProxy> {
  const to = new URL(target)
  const calls: RecordedCall[] = []
  let inFlight = 0
  let lastMs = 0
  const server = createServer((incoming, outgoing) => {
    const startedMs = performance.now()
    inFlight++
    lastMs = startedMs
    void (async () => {
      const body = await readBody(incoming)
      const forwarded = new Promise<{ message: IncomingMessage; body: Buffer }>(
        (resolve, reject) => {
          const sent = httpRequest(
            {
              host: to.hostname,
              port: to.port,
              method: incoming.method,
              path: incoming.url,
              headers: { ...incoming.headers, host: to.host },
            },
            (message) => void readBody(message).then((read) => resolve({ message, body: read })),
          )
          sent.on('error', reject)
          sent.end(body)
        },
      )
      // The emulator answers while the latency runs, as the real service works within its own.
      const [answer] = await Promise.all([
        forwarded,
        sleep(Math.max(0, latencyMs - (performance.now() - startedMs))),
      ])
      outgoing.writeHead(answer.message.statusCode ?? 502, answer.message.headers)
      outgoing.end(answer.body)
      calls.push({
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        body: body.toString('utf8'),
        startedMs,
        answeredMs: performance.now(),
      })
    })()
      .catch((error: unknown) => {
        outgoing.writeHead(502).end(String(error))
      })
      .finally(() => {
        inFlight--
        lastMs = performance.now()
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    settled: async () => {
      // Quiet for twice the latency: a caller's next call in a sequence has had time to come.
      const quietMs = 2 * Math.max(latencyMs, 25)
      while (inFlight > 0 || performance.now() - lastMs < quietMs) await sleep(quietMs / 4)
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
