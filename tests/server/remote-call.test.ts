import { describe, expect, it } from 'vitest'
import { RemoteTimeoutError, settleWithLimit, withDeadline } from '../../server/src/lib/remote-call'

// The bounds processing puts on its calls to Shopify and Stripe.

describe('settleWithLimit', () => {
  it('runs every item, never more than the limit at once, and keeps each outcome in place', async () => {
    let running = 0
    let most = 0
    const outcomes = await settleWithLimit(
      Array.from({ length: 20 }, (_, i) => i),
      8,
      async (i) => {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        running--
        if (i === 3) throw new Error('brand 3 failed')
        return i * 10
      },
    )
    expect(most).toBe(8)
    expect(outcomes).toHaveLength(20)
    expect(outcomes[3]).toEqual({ status: 'rejected', reason: new Error('brand 3 failed') })
    expect(outcomes[19]).toEqual({ status: 'fulfilled', value: 190 })
  })
})

describe('withDeadline', () => {
  it("answers the call's answer within the deadline, and a timeout error past it", async () => {
    expect(await withDeadline(1000, async () => 'answered')).toBe('answered')
    const never = new Promise<never>(() => {})
    await expect(withDeadline(20, () => never)).rejects.toThrow(new RemoteTimeoutError('20 ms'))
  })
})
