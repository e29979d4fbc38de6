import type { MoneyMovement } from '@shared/contract'
import { formatMoney, storeName } from '@renderer/lib/format'

// An order's money trail in words (issue 33): each movement as a sentence on the transfer screen,
// and what went back after the sale in a sentence or two on the transfer history.

const partyText = ({ party, storeShop }: MoneyMovement) =>
  `${storeName(storeShop)}, the ${party === 'BRAND' ? 'brand' : 'creator'}`

/** "Paid to northwind apparel, the brand.", "Taken back from maya makes, the creator, after a refund." */
export function movementText(movement: MoneyMovement): string {
  const party = partyText(movement)
  switch (movement.kind) {
    case 'TRANSFER':
      return movement.party === 'BRAND' ? `Paid to ${party}.` : `Commission paid to ${party}.`
    case 'REVERSAL':
      return `Taken back from ${party}, after a refund.`
    case 'OWED':
      return `Owed by ${party}, after a refund: Stripe could not take it back from the account's balance.`
    case 'DEDUCTION':
      return `Taken from a later transfer to ${party}, against what it owed.`
  }
}

/** A movement's amount in the currency it moved in. */
export const movementAmount = (movement: MoneyMovement): string =>
  formatMoney(movement.amount, movement.currency)

/**
 * What went back after the sale, for a transfer's history: "Taken back after refunds: $51.00 from
 * northwind apparel, $10.20 from maya makes." and the like for amounts owed and deducted; null
 * when nothing did.
 */
export function afterSaleText(trail: readonly MoneyMovement[]): string | null {
  const of = (kind: MoneyMovement['kind'], preposition: string) =>
    trail
      .filter((movement) => movement.kind === kind)
      .map(
        (movement) => `${movementAmount(movement)} ${preposition} ${storeName(movement.storeShop)}`,
      )
      .join(', ')
  const parts = [
    ['Taken back after refunds', of('REVERSAL', 'from')],
    ['Owed after refunds', of('OWED', 'by')],
    ['Taken from later transfers', of('DEDUCTION', 'from')],
  ].flatMap(([label, amounts]) => (amounts ? [`${label}: ${amounts}.`] : []))
  return parts.length > 0 ? parts.join(' ') : null
}
