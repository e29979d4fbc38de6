import { z } from 'zod'

/** The body of every error answer of the server. */
export const ErrorBody = z.object({
  error: z.string(),
  message: z.string(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

/** Machine codes of `ErrorBody.error`, one per HTTP status the server uses. */
export const ERROR_CODES = {
  400: 'invalid_input',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'business_rule',
  502: 'upstream_failed',
  503: 'unavailable',
  507: 'insufficient_storage',
} as const

/**
 * The specification's payment-transfer messages, word for word (docs/product-rules.md "Order
 * transfers").
 */
export const TRANSFER_ERRORS = {
  noBrandOrders: 'No brand orders found',
  commissionNotFound: 'Commission not found',
  productCommissionNotFound: 'Commission of the product and brand not found',
  markAsPaidFailed: 'Order mark as paid failed',
  storeNotFound: 'Store not found',
  connectedAccountEmailNotFound: 'Payment provider connected account email not found',
  connectedAccountIdNotFound: 'Payment provider connected account ID not found',
  paymentIntentIdNotFound: 'Payment intent id not found',
  paymentIntentNotFound: 'Payment intent not found',
  paymentIntentNotSucceeded: 'Payment intent not successed',
  transferCreateFailed: 'Transfer create failed',
  transferSendInvoiceFailed: 'Transfer send invoice failed',
  // Tandem's additions (docs/product-rules.md, and the payout checks' of docs/integrations.md
  // "Stripe" before anything is ordered).
  connectedAccountTransfersInactive: 'Payment provider connected account cannot receive transfers',
  paymentIntentMismatch: 'Payment intent does not match the creator order',
  creatorOrderNotFound: 'Creator order not found',
  alreadyProcessed: 'Order transfer already processed',
} as const

/**
 * How a transfer refusal says that an administrator may accept it (a line priced below its brand's
 * price): the console offers "Accept price exception" on a refusal that says it.
 */
export const PRICE_EXCEPTION_HINT = 'an administrator may accept a price exception for this order'

/**
 * How a transfer refusal says that an administrator may release the order despite what Shopify
 * found of fraud: the console offers "Release for transfer" on a refusal that says it.
 */
export const FRAUD_RELEASE_HINT =
  'an administrator may release it for transfer once satisfied that the order is genuine'
