import Stripe from 'stripe'
import type { StripeEmulator } from '../../../emulators/stripe/emulator'

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
