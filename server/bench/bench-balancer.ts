import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

// A load balancer before the server processes, as a deployment has one: Shopify's webhooks are
// registered at its one address, and each request goes to the next process in turn. A process
// that refuses the connection (it is gone) is taken out and the request given to the next, as a
// balancer's health check would; one that dies with the request in hand answers 502, and Shopify
// sends the delivery again.

export interface Balancer {
  url: string
  /** The processes requests go to, in turn. */
  setTargets(urls: string[]): void
  /** How many requests were answered with each status (502: no process answered). */
  answers: Map<number, number>
  close(): Promise<void>
}

export async function startBalancer(): Promise<Balancer> {
  let targets: string[] = []
  let next = 0
  const answers = new Map<number, number>()
  const tally = (status: number) => answers.set(status, (answers.get(status) ?? 0) + 1)

  const forward = async (request: IncomingMessage, body: Buffer) => {
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      name === 'host' || name === 'content-length' || typeof value !== 'string'
        ? []
        : [[name, value] as [string, string]],
    )
    while (targets.length > 0) {
      const target = targets[next++ % targets.length]!
      try {
        return await fetch(target + request.url, { method: request.method, headers, body })
      } catch (error) {
        // Refused: nothing reached the process, and another may take the request.
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') return null
        targets = targets.filter((url) => url !== target)
      }
    }
    return null
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      void forward(request, Buffer.concat(chunks)).then(async (answer) => {
        const status = answer?.status ?? 502
        tally(status)
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(answer ? Buffer.from(await answer.arrayBuffer()) : '{}')
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTargets: (urls) => {
      targets = [...urls]
    },
    answers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
