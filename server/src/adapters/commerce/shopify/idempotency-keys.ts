// Shopify's rule for every @idempotent mutation ("Implementing idempotency",
// shopify.dev/docs/api/usage/implementing-idempotency; the codes of Admin API 2026-10's
// InventorySetQuantitiesUserErrorCode): a key whose call made its change answers that change
// again, and a key whose call was refused is refused for good, whatever the arguments now
// (IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: "A previous request with this idempotency key failed.
// Retry with a new idempotency key."). So a call is sent under its key, then `key#2`, `key#3` … for
// as long as Shopify answers that the key before failed: the same sequence on every run, so that a
// retry after an unknown outcome (a timeout, a lost answer, a 5xx) meets the key that made its
// change and is answered with it, never applied twice, and a retry after a refusal acts anew.

/** Keys tried in one call before the refusal is given to the caller. */
const MOST_KEY_ATTEMPTS = 10

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

/** The answer of `send` under the first key of the sequence whose call was not refused before. */
export async function underLiveKey<Answer>(
  key: string,
  send: (key: string) => Promise<Answer>,
  userErrors: (answer: Answer) => UserError[],
): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send(attempt === 1 ? key : `${key}#${attempt}`)
    if (attempt === MOST_KEY_ATTEMPTS || !keyFailedBefore(userErrors(answer))) return answer
  }
}
