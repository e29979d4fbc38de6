import { createHmac, timingSafeEqual } from 'node:crypto'

// Shopify signs what it sends to an app with the app's client secret: the query of the App URL and
// of the OAuth callback (hex HMAC-SHA256 of the other parameters, sorted and form-encoded as a
// query, as Shopify's own app library checks it, so that a value holding `=` or `/` matches), and
// each webhook (base64 HMAC-SHA256 of the raw body). Comparisons take the same time whatever
// matches, so that a forger learns nothing from how fast a guess is refused.

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)

/** Whether the query's `hmac` is Shopify's signature of its other parameters. */
export function queryHmacValid(query: URLSearchParams, clientSecret: string): boolean {
  const given = query.get('hmac')
  if (!given || !/^[0-9a-f]{64}$/i.test(given)) return false
  const message = new URLSearchParams(
    [...query.entries()]
      .filter(([key]) => key !== 'hmac' && key !== 'signature')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ).toString()
  const expected = createHmac('sha256', clientSecret).update(message).digest()
  return sameBytes(Buffer.from(given, 'hex'), expected)
}

/** Whether `X-Shopify-Hmac-Sha256` is Shopify's signature of exactly these body bytes. */
export function webhookHmacValid(
  rawBody: Buffer,
  header: string | undefined,
  clientSecret: string,
): boolean {
  if (!header || !/^[A-Za-z0-9+/]+=*$/.test(header)) return false
  const expected = createHmac('sha256', clientSecret).update(rawBody).digest()
  return sameBytes(Buffer.from(header, 'base64'), expected)
}
