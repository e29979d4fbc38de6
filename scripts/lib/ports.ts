import { createServer } from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const held = await holdFreePort()
  await held.release()
  return held.port
}

/**
 * A free TCP port on 127.0.0.1, kept listening until `release`: whatever binds a port of its own
 * meanwhile (an emulator, another test file's server) cannot be handed this one. Release it just
 * before the one meant to have it listens.
 */
export function holdFreePort(): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const release = () => new Promise<void>((closed) => server.close(() => closed()))
      if (address && typeof address === 'object') resolve({ port: address.port, release })
      else void release().then(() => reject(new Error('Could not pick a free port')))
    })
  })
}

/** Throws, naming the variable that moves it, when something already listens on the port. */
export function assertPortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', () =>
      reject(new Error(`Port ${port} is in use: stop what listens there or set ${variable}`)),
    )
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

/** Polls `url` until it answers (any status) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) })
      return
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`${url} did not answer within ${timeoutMs} ms`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
