import type { OrderTransferRecord } from '@shared/contract'

// The transfer history as CSV (RFC 4180): CRLF line ends, fields quoted when they hold a comma, a
// quote or a line break, amounts as decimal strings. Each transfer has one row per brand (`entry`
// BRAND: the figures frozen when it began), then one row per movement of its money trail (`entry`
// TRANSFER, REVERSAL, OWED or DEDUCTION: who, when, how much in the currency it moved in, and
// Stripe's id), in which the brand columns are empty. So the brand rows add up to what was frozen
// and the trail rows to what moved since, without counting anything twice.

const COLUMNS = [
  'creatorOrderId',
  'creatorStoreShop',
  'status',
  'currency',
  'startedAt',
  'processedAt',
  'processedBy',
  'brandStoreShop',
  'brandOrderId',
  'tandemCommissionRate',
  'creatorCommissionRate',
  'baseAmount',
  'brandAmount',
  'creatorCommissionAmount',
  'tandemCommissionAmount',
  'paymentTransferId',
  // What the Stripe transfer moved: the currency the charge settled in, at its exchange rate.
  'settlementCurrency',
  'exchangeRate',
  'settlementBrandAmount',
  'settlementCreatorCommissionAmount',
  'settlementTandemCommissionAmount',
  // Which kind of row; on the money trail's rows, the movement.
  'entry',
  'party',
  'partyStoreShop',
  'movedAt',
  'movedAmount',
  'movedCurrency',
  'stripeId',
] as const

type Row = Partial<Record<(typeof COLUMNS)[number], string | number | null>>

export const CSV_HEADER = `${COLUMNS.join(',')}\r\n`

/** The rows of one transfer, each ending with CRLF. */
export function transferCsvRows(transfer: OrderTransferRecord): string {
  const ofTransfer: Row = {
    creatorOrderId: transfer.creatorOrderId,
    creatorStoreShop: transfer.creatorStoreShop,
    status: transfer.status,
    currency: transfer.currency,
    startedAt: transfer.startedAt,
    processedAt: transfer.processedAt,
    processedBy: transfer.processedBy,
  }
  const brandRows = transfer.brands.map((brand): Row => ({
    ...ofTransfer,
    brandStoreShop: brand.brandStoreShop,
    brandOrderId: brand.brandOrderId,
    tandemCommissionRate: brand.tandemCommissionRate,
    creatorCommissionRate: brand.creatorCommissionRate,
    baseAmount: brand.baseAmount,
    brandAmount: brand.brandAmount,
    creatorCommissionAmount: brand.creatorCommissionAmount,
    tandemCommissionAmount: brand.tandemCommissionAmount,
    paymentTransferId: brand.paymentTransferId,
    settlementCurrency: brand.settlement?.currency,
    exchangeRate: brand.settlement?.exchangeRate,
    settlementBrandAmount: brand.settlement?.brandAmount,
    settlementCreatorCommissionAmount: brand.settlement?.creatorCommissionAmount,
    settlementTandemCommissionAmount: brand.settlement?.tandemCommissionAmount,
    entry: 'BRAND',
  }))
  const trailRows = transfer.moneyTrail.map((movement): Row => ({
    ...ofTransfer,
    entry: movement.kind,
    party: movement.party,
    partyStoreShop: movement.storeShop,
    movedAt: movement.at,
    movedAmount: movement.amount,
    movedCurrency: movement.currency,
    stripeId: movement.stripeId,
  }))
  return [...brandRows, ...trailRows]
    .map((row) => `${COLUMNS.map((column) => field(row[column] ?? null)).join(',')}\r\n`)
    .join('')
}

function field(value: string | number | null): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  // A spreadsheet would run a text starting like a formula: it is kept as text.
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}
