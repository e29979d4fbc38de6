import type { IncomingMessage, ServerResponse } from 'node:http'

// Handlers compute an Answer instead of writing to the response, so that the fault layer can
// decide afterwards whether the caller gets it or a dropped connection.

export interface Answer {
  status: number
  headers?: Record<string, string>
  /** Serialised as JSON unless it is already a string. */
  body: unknown
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body,
  headers,
})

export const notFound = (): Answer => json(404, { errors: 'Not Found' })

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function send(response: ServerResponse, answer: Answer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
  response.writeHead(answer.status, {
    'Content-Type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
    ...answer.headers,
  })
  response.end(text)
}

/**
 * Request bodies of the OAuth endpoints come as JSON or as a form, as Shopify accepts both. A body
 * that is neither reads as no parameters, which the endpoint then refuses like missing ones.
 */
export function formOrJson(body: string, contentType: string | undefined): Record<string, string> {
  if (!contentType?.includes('application/json'))
    return Object.fromEntries(new URLSearchParams(body))
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== 'object' || parsed === null) return {}
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]))
  } catch {
    return {}
  }
}
