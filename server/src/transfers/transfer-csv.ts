import type { OrderTransferRecord } from '@shared/contract'

// The transfer history as CSV (RFC 4180): one row per brand transfer, CRLF line ends, fields
// quoted when they hold a comma, a quote or a line break, amounts as decimal strings.

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
] as const

export const CSV_HEADER = `${COLUMNS.join(',')}\r\n`

/** The rows of one transfer, each ending with CRLF. */
export function transferCsvRows(transfer: OrderTransferRecord): string {
  return transfer.brands
    .map((brand) => {
      const row: Record<(typeof COLUMNS)[number], string | number | null> = {
        creatorOrderId: transfer.creatorOrderId,
        creatorStoreShop: transfer.creatorStoreShop,
        status: transfer.status,
        currency: transfer.currency,
        startedAt: transfer.startedAt,
        processedAt: transfer.processedAt,
        processedBy: transfer.processedBy,
        brandStoreShop: brand.brandStoreShop,
        brandOrderId: brand.brandOrderId,
        tandemCommissionRate: brand.tandemCommissionRate,
        creatorCommissionRate: brand.creatorCommissionRate,
        baseAmount: brand.baseAmount,
        brandAmount: brand.brandAmount,
        creatorCommissionAmount: brand.creatorCommissionAmount,
        tandemCommissionAmount: brand.tandemCommissionAmount,
        paymentTransferId: brand.paymentTransferId,
        settlementCurrency: brand.settlement?.currency ?? null,
        exchangeRate: brand.settlement?.exchangeRate ?? null,
        settlementBrandAmount: brand.settlement?.brandAmount ?? null,
        settlementCreatorCommissionAmount: brand.settlement?.creatorCommissionAmount ?? null,
        settlementTandemCommissionAmount: brand.settlement?.tandemCommissionAmount ?? null,
      }
      return `${COLUMNS.map((column) => field(row[column])).join(',')}\r\n`
    })
    .join('')
}

function field(value: string | number | null): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  // A spreadsheet would run a text starting like a formula: it is kept as text.
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}
