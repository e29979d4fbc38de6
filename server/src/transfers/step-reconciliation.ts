import { ORDER_TAG } from '@shared/contract'
import type { RouteDeps } from '../deps'
import { findBrandTransfer } from './payout-checks'
import type { TransferBrandRow, TransferStep } from './transfer-repository'

// Finding out what an earlier attempt did. A step whose intent is still recorded on the next
// attempt had an unknown outcome (the attempt died, lost the answer, or failed after the call was
// sent): the commerce platform or payment provider may have done it. Before the step is acted on
// again, what it would have made is looked for there: the brand order by its tag, the order's paid
// status read, the transfer by its group.

/** The tag that finds a brand order again after its creation's answer was lost. */
export const transferTag = (creatorOrderId: string) => `${ORDER_TAG}-transfer-${creatorOrderId}`

/** Since when `step`'s outcome is unknown (its intent still recorded); null when it is not. */
export const unknownOutcomeSince = (brand: TransferBrandRow, step: TransferStep) =>
  brand.pending_step === step ? brand.pending_since : null

/** createOrder: the brand order an earlier attempt made since `pendingSince`; null for none. */
export async function brandOrderMade(
  deps: Pick<RouteDeps, 'commerce'>,
  creatorOrderId: string,
  shop: string,
  pendingSince: string,
): Promise<string | null> {
  return (
    (await deps.commerce.findOrderByTag(shop, transferTag(creatorOrderId), pendingSince))?.id ??
    null
  )
}

/** markOrderAsPaid: true when the brand order is paid already; null when it is not. */
export async function markedPaid(
  deps: Pick<RouteDeps, 'commerce'>,
  shop: string,
  brandOrderId: string,
): Promise<true | null> {
  // Shopify refuses to mark a paid order as paid: read its status first.
  return (await deps.commerce.orderFinancialStatus(shop, brandOrderId)) === 'PAID' ? true : null
}

/**
 * createTransfer: the brand's transfer an earlier attempt made to the account its intent recorded;
 * null for none, or when no intent recorded an account.
 */
export async function transferMade(
  deps: Pick<RouteDeps, 'payments'>,
  creatorOrderId: string,
  brand: TransferBrandRow,
  signal: AbortSignal,
): Promise<string | null> {
  // Stripe lists at once what it made: looking is exact, where the idempotency key would refuse a
  // changed account, or after a day make the transfer again.
  return brand.transfer_destination === null
    ? null
    : findBrandTransfer(
        deps.payments,
        {
          creatorOrderId,
          shop: brand.brand_store_shop,
          destinationAccountId: brand.transfer_destination,
        },
        { signal },
      )
}
