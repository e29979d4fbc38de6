// Shopify's rule for every @idempotent mutation ("Implementing idempotency",
// shopify.dev/docs/api/usage/implementing-idempotency; the codes of Admin API 2026-10's
// InventorySetQuantitiesUserErrorCode): a key whose call made its change answers that change
// again, and a key whose call was refused is refused for good, whatever the arguments now
// (IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: "A previous request with this idempotency key failed.
// Retry with a new idempotency key."). So a call is sent under its key, then `key#2`, `key#3` … for
// as long as Shopify answers that the key before failed: the same sequence on every run, so that a
// retry after an unknown outcome (a timeout, a lost answer, a 5xx) meets the key that made its
// change and is answered with it, never applied twice, and a retry after a refusal acts anew.
//
// A caller's key depends only on what it asks (a brand refund's on the order's state), so a cause
// of refusals that lasts spends one attempt per run, run after run. Each attempt Shopify said
// failed is recorded (KeyAttempts), and the next run starts after the last recorded: the sequence
// has no end, and no run walks the attempts an earlier one already knew failed. A crash between
// Shopify's answer and the record costs one more refused call.

/** Attempts of one run before Shopify's refusal is given to the caller; the next run goes on. */
const MOST_KEY_ATTEMPTS = 10

/** Where the attempts Shopify refused for an earlier failure are kept (a repository implements it). */
export interface KeyAttempts {
  /** The last attempt of `key` in `shop` known to have failed before; 0 when none is. */
  failedThrough(shop: string, key: string): Promise<number>
  /** Records that attempt `attempt` of `key` in `shop` failed before (and so every one before it). */
  failed(shop: string, key: string, attempt: number): Promise<void>
}

interface UserError {
  message: string
  code?: string | null
}

/**
 * Whether Shopify refused the key for an earlier call's failure: by its code where the payload
 * has one, by its words where (refundCreate's plain UserError) it has none.
 */
export const keyFailedBefore = (errors: UserError[]) =>
  errors.some(
    (error) =>
      error.code === 'IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED' ||
      error.message.startsWith('A previous request with this idempotency key failed'),
  )

/** The answer of `send` under the first key of `key`'s sequence in `shop` not refused before. */
export async function underLiveKey<Answer>(
  { attempts, shop, key }: { attempts: KeyAttempts; shop: string; key: string },
  send: (key: string) => Promise<Answer>,
  userErrors: (answer: Answer) => UserError[],
): Promise<Answer> {
  const first = (await attempts.failedThrough(shop, key)) + 1
  for (let attempt = first; ; attempt++) {
    const answer = await send(attempt === 1 ? key : `${key}#${attempt}`)
    if (!keyFailedBefore(userErrors(answer))) return answer
    await attempts.failed(shop, key, attempt)
    if (attempt - first + 1 === MOST_KEY_ATTEMPTS) return answer
  }
}
