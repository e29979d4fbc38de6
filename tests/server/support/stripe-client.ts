import Stripe from 'stripe'
import { afterEach, beforeEach } from 'vitest'
import {
  startStripeEmulator,
  type StripeEmulator,
  type StripeEmulatorOptions,
} from '../../../emulators/stripe/emulator'

// stripe-node pointed at a Stripe emulator, as the emulator's own tests reach it.

/** A client of the emulator under `secretKey` (its own when absent), without retries of its own. */
export const clientOf = (running: StripeEmulator, secretKey = running.secretKey): Stripe =>
  new Stripe(secretKey, {
    host: '127.0.0.1',
    port: Number(new URL(running.url).port),
    protocol: 'http',
    maxNetworkRetries: 0,
  })

/** The error a Stripe call rejects with. */
export async function failureOf(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call
  } catch (error) {
    return error as Stripe.errors.StripeError
  }
  throw new Error('The call succeeded')
}

/** The seeded emulator a test runs against, on the clock the test moves, and its client. */
export interface StripeUnderTest {
  /** The emulator's clock: 2026-11-10 12:00 UTC when each test starts. */
  clock: Date
  emulator: StripeEmulator
  stripe: Stripe
  /** Starts another emulator with these options, once the test closed the one it had. */
  start(options?: StripeEmulatorOptions): Promise<void>
}

/** A fresh emulator for each test of the file, closed after it. */
export function stripeEmulatorPerTest(): StripeUnderTest {
  const under = {} as StripeUnderTest
  under.start = async (options = {}) => {
    under.emulator = await startStripeEmulator({ now: () => under.clock, ...options })
    under.stripe = clientOf(under.emulator)
  }
  beforeEach(async () => {
    under.clock = new Date('2026-11-10T12:00:00.000Z')
    await under.start()
  })
  afterEach(() => under.emulator.close())
  return under
}
