import type { CreatorOrder, MoneyMovement, TransferPreview, TransferStatus } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { formatMinorUnits } from '../domain/money'
import type { BrandRefundSplit } from '../domain/refund-split'
import type { ReceiptData } from '../receipt/receipt-pdf'
import type { LinkedOrder } from './linked-order'
import { orderGid, orderNumber } from '../adapters/commerce/shopify/order-gid'
import type { TransferBrandRow } from './transfer-repository'

// How a transfer is shown: the preview answer and the receipt hold the same figures, taken from
// the plan before processing and from the frozen rows after it.

export interface BrandFigures {
  brandStoreShop: string
  brandOrderId: string | null
  brandAmountMinor: number
  creatorCommissionMinor: number
  tandemCommissionMinor: number
  /** The same in the currency the charge settled in, once frozen; absent from a plan. */
  settlement?: SettledFigures | null
}

/** A brand's frozen figures in the settlement currency, at the charge's exchange rate. */
export interface SettledFigures {
  currency: string
  exchangeRate: string
  brandAmountMinor: number
  creatorCommissionMinor: number
  tandemCommissionMinor: number
}

/** The settled figures of a frozen brand row; null until the charge was read (all set together). */
export function settledFiguresOf(brand: TransferBrandRow): SettledFigures | null {
  const {
    settlement_currency: currency,
    exchange_rate: exchangeRate,
    brand_amount_settlement_minor: brandAmountMinor,
    creator_commission_settlement_minor: creatorCommissionMinor,
    tandem_commission_settlement_minor: tandemCommissionMinor,
  } = brand
  if (
    currency === null ||
    exchangeRate === null ||
    brandAmountMinor === null ||
    creatorCommissionMinor === null ||
    tandemCommissionMinor === null
  ) {
    return null
  }
  return { currency, exchangeRate, brandAmountMinor, creatorCommissionMinor, tandemCommissionMinor }
}

export interface TransferView {
  order: LinkedOrder
  status: TransferStatus
  processedAt: string | null
  brands: BrandFigures[]
  /** Every movement of the order's money so far (money-trail.ts); none before processing. */
  moneyTrail: MoneyMovement[]
  /** What the refunds since the transfer take back from each brand's part it touches. */
  refunds: BrandRefundSplit[]
}

const moneyBag = (minor: number, currency: string) => ({
  presentmentMoney: { amount: formatMinorUnits(minor, currency), currencyCode: currency },
})

/** The creator order shaped like Shopify's Order, with each line's brand. */
export function creatorOrderOf(order: LinkedOrder): CreatorOrder {
  return {
    id: orderGid(order.id),
    name: order.name,
    email: order.email,
    createdAt: order.createdAt,
    creatorStoreShop: order.storeShop,
    currentSubtotalPriceSet: moneyBag(order.subtotalMinor, order.currency),
    currentTotalTaxSet: moneyBag(order.taxMinor, order.currency),
    currentShippingPriceSet: moneyBag(order.shippingMinor, order.currency),
    currentTotalPriceSet: moneyBag(order.totalMinor, order.currency),
    shippingAddress: order.shippingAddress,
    lineItems: {
      nodes: order.lines.map((line) => ({
        id: line.id,
        title: line.title,
        quantity: line.quantity,
        currentQuantity: line.currentQuantity,
        image: line.imageUrl === null ? null : { url: line.imageUrl },
        originalUnitPriceSet: moneyBag(line.unitPriceMinor, order.currency),
        originalTotalSet: moneyBag(line.originalTotalMinor, order.currency),
        brandStoreShop: line.source?.brandStoreShop ?? null,
      })),
    },
  }
}

/** A party's three figures of a brand's base, in minor units. */
export type ThreeParts = Pick<
  BrandFigures,
  'brandAmountMinor' | 'creatorCommissionMinor' | 'tandemCommissionMinor'
>

/**
 * Each brand's three figures as decimal strings of `currency`, and their totals: sums of the
 * per-brand figures, never recomputed from rates.
 */
export function amountsOf(brands: readonly ThreeParts[], currency: string) {
  const amount = (minor: number) => formatMinorUnits(minor, currency)
  const total = (pick: (brand: ThreeParts) => number) =>
    amount(brands.reduce((sum, brand) => sum + pick(brand), 0))
  return {
    each: brands.map((brand) => ({
      brandAmount: amount(brand.brandAmountMinor),
      creatorCommissionAmount: amount(brand.creatorCommissionMinor),
      tandemCommissionAmount: amount(brand.tandemCommissionMinor),
    })),
    totals: {
      totalBrandAmount: total((brand) => brand.brandAmountMinor),
      totalCreatorCommissionAmount: total((brand) => brand.creatorCommissionMinor),
      totalTandemCommissionAmount: total((brand) => brand.tandemCommissionMinor),
    },
  }
}

/** `refundWaiting`: why the order's refunds wait (order-refunds.ts refundWaitingOf). */
export function previewOf(
  view: TransferView,
  refundWaiting: TransferPreview['refundWaiting'] = null,
): TransferPreview {
  const { currency } = view.order
  const { each, totals } = amountsOf(view.brands, currency)
  return {
    currency,
    status: view.status,
    processedAt: view.processedAt,
    brands: view.brands.map((brand, index) => ({
      brandStoreShop: brand.brandStoreShop,
      brandOrderId: brand.brandOrderId,
      ...each[index]!,
      settlement: brand.settlement ? settledAmountsOf(brand.settlement) : null,
    })),
    totals,
    settledTotals: settledTotalsOf(view.brands),
    moneyTrail: view.moneyTrail,
    refundWaiting,
  }
}

const settledAmountsOf = (settled: SettledFigures) => ({
  currency: settled.currency,
  exchangeRate: settled.exchangeRate,
  ...amountsOf([settled], settled.currency).each[0]!,
})

/** What the brands' transfers move in all, when every brand's figures are settled in one currency. */
function settledTotalsOf(brands: readonly BrandFigures[]): TransferPreview['settledTotals'] {
  const settled = brands.map((brand) => brand.settlement ?? null)
  const currency = settled[0]?.currency
  if (!currency || settled.some((each) => each?.currency !== currency)) return null
  const figures = settled.filter((each): each is SettledFigures => each !== null)
  return { currency, totalBrandAmount: amountsOf(figures, currency).totals.totalBrandAmount }
}

/** The receipt prints order numbers ("1001"), which a person can find in Shopify's admin. */
const printedOrderId = (gid: string): string => String(orderNumber(gid) ?? gid)

export function receiptDataOf(view: TransferView, generatedAt: string): ReceiptData {
  const { order } = view
  const preview = previewOf(view)
  const address = order.shippingAddress
  const name = [address?.firstName, address?.lastName].filter(Boolean).join(' ')
  return {
    productName: PRODUCT_NAME,
    status: view.status === 'COMPLETED' ? 'PROCESSED' : 'PREVIEW',
    processedAt: view.processedAt,
    generatedAt,
    creatorOrder: {
      id: String(order.id),
      name: order.name,
      createdAt: order.createdAt,
      storeShop: order.storeShop,
      customer: {
        name: name === '' ? null : name,
        email: order.email,
        address: address
          ? [
              address.address1,
              [address.city, address.zip].filter(Boolean).join(' '),
              address.country,
            ].filter((part): part is string => Boolean(part))
          : [],
      },
    },
    currency: preview.currency,
    brands: preview.brands.map((brand) => ({
      ...brand,
      brandOrderId: brand.brandOrderId === null ? null : printedOrderId(brand.brandOrderId),
    })),
    totals: preview.totals,
    settlement: settlementOfView(view),
    refunds: refundsOfView(view),
    moneyBack: view.moneyTrail.flatMap(({ kind, ...movement }) =>
      kind === 'TRANSFER' ? [] : [{ kind, ...movement }],
    ),
  }
}

/** What the refunds since the transfer took back from each brand's part, with their totals. */
function refundsOfView({ refunds, order }: TransferView): ReceiptData['refunds'] {
  if (refunds.length === 0) return null
  const { each, totals } = amountsOf(
    refunds.map((split) => split.back),
    order.currency,
  )
  return {
    brands: refunds.map(({ brandStoreShop, refundedUnits }, index) => ({
      brandStoreShop,
      refundedUnits: refundedUnits.reduce((sum, units) => sum + units.quantity, 0),
      ...each[index]!,
    })),
    totals,
  }
}

/**
 * What the brands were paid in the currency the charge settled in, when it is another currency
 * than the order's (every brand's figures frozen at the one charge's rate); null otherwise.
 */
function settlementOfView(view: TransferView): ReceiptData['settlement'] {
  const settled = view.brands.map((brand) => brand.settlement ?? null)
  const first = settled[0]
  if (!first || first.currency === view.order.currency) return null
  if (settled.some((each) => each?.currency !== first.currency)) return null
  const figures = settled.filter((each): each is SettledFigures => each !== null)
  const { each, totals } = amountsOf(figures, first.currency)
  return { currency: first.currency, exchangeRate: first.exchangeRate, brands: each, totals }
}
