import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { StripeRate } from '../../server/src/adapters/payments/stripe/stripe-rate'

// The Stripe adapter's pacing on a fake clock: who gets a turn when, under the limit in all and
// each endpoint's.

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

/** A pacer on the fake clock, and the turns it granted: [endpoint, ms since the start]. */
function pacer(limits: { perSecond: number; perEndpointPerSecond: number }) {
  const rate = new StripeRate(limits, () => Date.now())
  const start = Date.now()
  const granted: [string, number][] = []
  const take = (endpoint: string, signal?: AbortSignal) =>
    rate
      .turn(endpoint, signal, () => new Error(`${endpoint} not sent`))
      .then(() => void granted.push([endpoint, Date.now() - start]))
  return { rate, take, granted }
}

it('spaces turns evenly after a first pair; an endpoint at its limit holds up no other', async () => {
  const { take, granted } = pacer({ perSecond: 4, perEndpointPerSecond: 1 })
  for (const endpoint of ['a', 'a', 'a', 'b', 'c']) void take(endpoint)
  await vi.advanceTimersByTimeAsync(2000)
  expect(granted).toEqual([
    ['a', 0],
    ['a', 0],
    // b and c take the turns in all that a, at its own limit, cannot.
    ['b', 250],
    ['c', 500],
    ['a', 1000],
  ])
})

it('under the limit in all, the endpoint whose caller came first goes first', async () => {
  const { take, granted } = pacer({ perSecond: 1, perEndpointPerSecond: 10 })
  for (const endpoint of ['a', 'a', 'b', 'a', 'b']) void take(endpoint)
  await vi.advanceTimersByTimeAsync(4000)
  expect(granted.map(([endpoint]) => endpoint)).toEqual(['a', 'a', 'b', 'a', 'b'])
})

it('a caller who stops waiting leaves the queue, and the next takes its turn', async () => {
  const { take, granted } = pacer({ perSecond: 1, perEndpointPerSecond: 1 })
  void take('a')
  void take('a')
  const giveUp = new AbortController()
  const abandoned = take('a', giveUp.signal)
  void take('a')
  giveUp.abort()
  await expect(abandoned).rejects.toThrow('a not sent')
  await vi.advanceTimersByTimeAsync(1000)
  expect(granted).toEqual([
    ['a', 0],
    ['a', 0],
    ['a', 1000],
  ])
})

it('paces to its share among the processes alive, and to the whole once alone again', async () => {
  const { rate, take, granted } = pacer({ perSecond: 4, perEndpointPerSecond: 4 })
  rate.shareAmong(2)
  for (let i = 0; i < 6; i++) void take('a')
  await vi.advanceTimersByTimeAsync(1100)
  // The other process is gone: its share is this one's from the next turn on.
  rate.shareAmong(1)
  await vi.advanceTimersByTimeAsync(1000)
  expect(granted.map(([, at]) => at)).toEqual([0, 0, 500, 1000, 1500, 1750])
})
