import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify'
import type { z } from 'zod'
import { calls, describeIssues, type CallName, type CallParsed, type Calls } from '@shared/contract'
import type { CallShape } from '@shared/contract/calls'
import { CallerLeftError, HttpError } from './errors'

// One route per call of the shared contract: its method, path and status come from there, and
// its query, path parameters and body are parsed with the contract's schemas before the handler.
// The handlers are one map with a key for every call, so that the compiler names a call that has
// no route (docs/architecture.md "Adding a call").

export interface RouteInput<N extends CallName> {
  query: CallParsed<N, 'query'>
  params: CallParsed<N, 'params'>
  body: CallParsed<N, 'body'>
  /** The signed-in administrator's email, as the audit log names them. */
  actor: string | null
  /** The request's log, for what must not change the answer (an audit entry that failed). */
  log: FastifyBaseLogger
  /**
   * Aborted when the caller stops waiting (its connection closed before the answer was sent):
   * a read passes it on, so that nothing more is asked of Shopify or Stripe for nobody. Work that
   * must finish once begun (processing's money steps) does not take it.
   */
  signal: AbortSignal
}

/**
 * An answer already serialized to JSON, sent as it is: for an answer read far more often than it
 * changes (the store list), whose bytes are kept rather than made again for every request.
 */
export class JsonBytes {
  constructor(readonly json: Buffer) {}
}

/** The answer as the contract describes it; a file call answers bytes. */
type RouteAnswer<N extends CallName> = Calls[N] extends { response: z.ZodType }
  ? z.input<Calls[N]['response']>
  : Uint8Array

const PLACES = { query: 'query string', params: 'path', body: 'request body' } as const

export type RouteHandler<N extends CallName> = (
  input: RouteInput<N>,
) => Promise<RouteAnswer<N> | JsonBytes>

/** The server's side of the contract: a handler for every call. */
export type CallRoutes = { [N in CallName]: RouteHandler<N> }

export function registerCalls(app: FastifyInstance, routes: CallRoutes): void {
  for (const name of Object.keys(routes) as CallName[]) {
    defineRoute(app, name, routes[name] as RouteHandler<typeof name>)
  }
}

function defineRoute<N extends CallName>(
  app: FastifyInstance,
  name: N,
  handler: RouteHandler<N>,
): void {
  const call: CallShape = calls[name]
  const parse = (place: keyof typeof PLACES, value: unknown) => {
    const schema = (call as Partial<Record<keyof typeof PLACES, z.ZodType>>)[place]
    if (!schema) return undefined
    // reportInput: the wording tells a missing field from a wrong one by the value it saw.
    const result = schema.safeParse(value ?? (place === 'body' ? undefined : {}), {
      reportInput: true,
    })
    if (!result.success) throw new HttpError(400, describeIssues(result.error, PLACES[place]))
    return result.data
  }
  app.route({
    method: call.method,
    url: call.path,
    handler: async (request, reply) => {
      const input = {
        query: parse('query', request.query),
        params: parse('params', request.params),
        body: parse('body', request.body),
        actor: request.adminEmail,
        log: request.log,
        signal: callerWaiting(reply),
      } as RouteInput<N>
      const answer = await handler(input)
      reply.status(call.status)
      if (answer instanceof JsonBytes)
        return reply.type('application/json; charset=utf-8').send(answer.json)
      if (answer instanceof Uint8Array) {
        return reply
          .type(call.fileType ?? 'application/octet-stream')
          .send(Buffer.from(answer.buffer, answer.byteOffset, answer.length))
      }
      return answer
    },
  })
}

/** A signal aborted (with CallerLeftError) once the caller's connection closes before the answer. */
function callerWaiting(reply: FastifyReply): AbortSignal {
  const controller = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new CallerLeftError())
  })
  return controller.signal
}
