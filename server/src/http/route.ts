import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { calls, describeIssues, type CallName, type Calls } from '@shared/contract'
import type { CallShape } from '@shared/contract/calls'
import { HttpError } from './errors'

// One route per call of the shared contract: its method, path and status come from there, and
// its query, path parameters and body are parsed with the contract's schemas before the handler.

type Parsed<N extends CallName, K extends 'query' | 'params' | 'body'> = Calls[N] extends {
  [key in K]: z.ZodType
}
  ? z.output<Calls[N][K]>
  : undefined

export interface RouteInput<N extends CallName> {
  query: Parsed<N, 'query'>
  params: Parsed<N, 'params'>
  body: Parsed<N, 'body'>
  request: FastifyRequest
}

/** The answer as the contract describes it; a file call answers bytes. */
type RouteAnswer<N extends CallName> = Calls[N] extends { response: z.ZodType }
  ? z.input<Calls[N]['response']>
  : Uint8Array

const PLACES = { query: 'query string', params: 'path', body: 'request body' } as const

export function defineRoute<N extends CallName>(
  app: FastifyInstance,
  name: N,
  handler: (input: RouteInput<N>) => Promise<RouteAnswer<N>>,
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
        request,
      } as RouteInput<N>
      const answer = await handler(input)
      reply.status(call.status)
      if (answer instanceof Uint8Array) {
        return reply
          .type(call.fileType ?? 'application/octet-stream')
          .send(Buffer.from(answer.buffer, answer.byteOffset, answer.length))
      }
      return answer
    },
  })
}
