import type { FastifyInstance } from 'fastify'
import { HttpError } from '../http/errors'

// The sandbox's product images: a tile per product key with its initials on a colour of its own,
// drawn here so that the local stack needs no image files and no network. Public, because an
// <img> sends no bearer token (see app.ts).

const KEY = /^[a-z0-9-]{1,60}$/

/** The tile never changes for a key, so browsers and proxies may keep it for a year. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable'

/** FNV-1a: a stable spread of keys over the colour wheel, the same on every run and machine. */
function hue(key: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  }
  return (hash >>> 0) % 360
}

/** "linen-overshirt" → "LO": the first letters of the first two words. */
const initials = (key: string) =>
  key
    .split('-')
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase()

// The key is checked against KEY before it gets here, so it needs no escaping inside the markup.
const tile = (key: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
  `<rect width="200" height="200" fill="hsl(${hue(key)}, 55%, 42%)"/>` +
  `<text x="100" y="100" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" ` +
  `font-size="72" font-weight="600" fill="#fff">${initials(key)}</text></svg>`

export function registerImageRoutes(app: FastifyInstance): void {
  app.get<{ Params: { key: string } }>('/images/products/:key.svg', async (request, reply) => {
    const { key } = request.params
    if (!KEY.test(key)) throw new HttpError(404, 'There is no product image at this address')
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .send(tile(key))
  })
}
