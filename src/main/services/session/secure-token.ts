import { z } from 'zod'
import { UserFacingError } from '../errors'
import { parseJson } from '../parse-json'
import type { FetchPort } from '../ports'

// Firebase's documented Secure Token REST endpoint: the SDK offers no way to sign in from a stored
// refresh token in Node, so refreshes go through it directly.

const REQUEST_TIMEOUT_MS = 15_000

/** An answer that parses but does not hold what a renewal must. */
export const UNEXPECTED_RENEWAL_ANSWER =
  'Firebase sent an unexpected answer while renewing your session.'

export interface TokenGrant {
  idToken: string
  refreshToken: string
  expiresInSeconds: number
}

export type RefreshOutcome =
  | { kind: 'granted'; grant: TokenGrant }
  /** Firebase refused the refresh token (revoked, user disabled or deleted, other project). */
  | { kind: 'rejected'; code: string }

const TokenAnswer = z.object({
  id_token: z.string().min(1),
  refresh_token: z.string().min(1),
  // Google sends it as a string of seconds ("3600").
  expires_in: z.coerce.number().int().positive(),
})

const ErrorAnswer = z.object({ error: z.object({ message: z.string() }) })

export function secureTokenEndpoint(apiKey: string, authEmulatorUrl: string | null): string {
  const origin = authEmulatorUrl
    ? `${authEmulatorUrl.replace(/\/+$/, '')}/securetoken.googleapis.com`
    : 'https://securetoken.googleapis.com'
  return `${origin}/v1/token?key=${encodeURIComponent(apiKey)}`
}

/**
 * Exchanges a refresh token for a new ID token. Throws a UserFacingError when Firebase cannot be
 * reached or answers with a server error: the refresh token may still be good then.
 */
export async function exchangeRefreshToken(
  fetchPort: FetchPort,
  endpoint: string,
  refreshToken: string,
): Promise<RefreshOutcome> {
  let status: number
  let text: string
  try {
    const response = await fetchPort(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    status = response.status
    text = await response.text()
  } catch {
    throw new UserFacingError(
      'Could not reach Firebase to renew your session. Check your network connection and try again.',
    )
  }

  const body = parseJson(text)
  if (status >= 200 && status < 300) {
    const answer = TokenAnswer.safeParse(body)
    if (!answer.success) {
      throw new UserFacingError(UNEXPECTED_RENEWAL_ANSWER)
    }
    return {
      kind: 'granted',
      grant: {
        idToken: answer.data.id_token,
        refreshToken: answer.data.refresh_token,
        expiresInSeconds: answer.data.expires_in,
      },
    }
  }
  // 400/401/403 are Firebase's verdict on this refresh token; anything else is Firebase's trouble.
  if (status === 400 || status === 401 || status === 403) {
    return { kind: 'rejected', code: errorCode(body) ?? `HTTP ${status}` }
  }
  throw new UserFacingError(
    `Firebase could not renew your session right now (HTTP ${status}). Please try again.`,
  )
}

/** The bare code ("TOKEN_EXPIRED") of an error answer: safe to log, unlike the rest of a body. */
function errorCode(body: unknown): string | null {
  const parsed = ErrorAnswer.safeParse(body)
  return parsed.success ? (/^[A-Z_]+/.exec(parsed.data.error.message)?.[0] ?? null) : null
}

export interface IdTokenClaims {
  email: string | null
  /** exp − iat: how long the token lives, independent of the local clock's skew. */
  lifetimeSeconds: number
}

const Claims = z.object({ email: z.string().optional(), exp: z.number(), iat: z.number() })

/** Reads (does not verify) an ID token's claims; the API server is the one that verifies it. */
export function readIdTokenClaims(idToken: string): IdTokenClaims | null {
  const payload = idToken.split('.')[1]
  if (!payload) return null
  try {
    const claims = Claims.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
    if (!claims.success || claims.data.exp <= claims.data.iat) return null
    return {
      email: claims.data.email ?? null,
      lifetimeSeconds: claims.data.exp - claims.data.iat,
    }
  } catch {
    return null
  }
}
