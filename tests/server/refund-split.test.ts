import { describe, expect, it } from 'vitest'
import { refundSplit, type FrozenBrandPart } from '../../server/src/domain/refund-split'
import { planTransfer, type PlanInput, type PlanLine } from '../../server/src/domain/transfer-plan'

// What goes back from each party when a creator order is refunded after its transfer, to the
// minor unit: a three-brand order, each brand at its own rates, frozen by planning itself.

const NORTHWIND = 'northwind-apparel.myshopify.com'
const LUMEN = 'lumen-botanicals.myshopify.com'
const URBAN = 'urban-trail-edits.myshopify.com'

const line = (
  lineItemId: string,
  brandStoreShop: string,
  quantity: number,
  unitPriceMinor: number,
  discountMinor = 0,
): PlanLine => ({
  lineItemId,
  brandStoreShop,
  brandVariantId: `variant-${lineItemId}`,
  quantity,
  currentQuantity: quantity,
  unitPriceMinor,
  discountMinor,
})

/** 2 × 51.00 of Northwind; 3 × 11.50 of Lumen less 1.50 off; 1 × 42.00 of Urban. */
const ORDER: PlanInput = {
  order: { name: '#2001', financialStatus: 'PAID', cancelledAt: null },
  currency: 'USD',
  creatorStoreShop: 'maya-makes.myshopify.com',
  lines: [line('1', NORTHWIND, 2, 5100), line('2', LUMEN, 3, 1150, 150), line('3', URBAN, 1, 4200)],
  knownStores: new Set([NORTHWIND, LUMEN, URBAN]),
  defaultRates: new Map([
    [NORTHWIND, { tandemCommissionRate: 10, creatorCommissionRate: 20 }],
    [LUMEN, { tandemCommissionRate: 10, creatorCommissionRate: 15 }],
    [URBAN, { tandemCommissionRate: 12.5, creatorCommissionRate: 7.5 }],
  ]),
  uniqueRates: new Map(),
}

/** The transfer as processing freezes it: planning's own figures. */
function frozen(input: PlanInput): FrozenBrandPart[] {
  const plan = planTransfer(input)
  if (!plan.ok) throw new Error('The order does not plan')
  return plan.brands.map((brand) => ({
    brandStoreShop: brand.brandStoreShop,
    lines: brand.lines,
    rates: { tandemRate: brand.tandemRate, creatorRate: brand.creatorRate },
    baseMinor: brand.baseMinor,
    brandAmountMinor: brand.brandAmountMinor,
    creatorCommissionMinor: brand.creatorCommissionMinor,
    tandemCommissionMinor: brand.tandemCommissionMinor,
  }))
}

/** The order with `refunded` units taken off each line (by line item id). */
const refunded = (input: PlanInput, units: Record<string, number>): PlanInput => ({
  ...input,
  lines: input.lines.map((each) => ({
    ...each,
    currentQuantity: each.currentQuantity - (units[each.lineItemId] ?? 0),
  })),
})

const figures = (base: number, brand: number, creator: number, tandem: number) => ({
  baseMinor: base,
  brandAmountMinor: brand,
  creatorCommissionMinor: creator,
  tandemCommissionMinor: tandem,
})
const NOTHING = figures(0, 0, 0, 0)

describe('the refund split', () => {
  const transfer = frozen(ORDER)

  it('of one unit of Lumen’s discounted line: Lumen, Maya and Tandem give back its share at Lumen’s rates; the others keep all', () => {
    // The unit cost the customer 11.50 less its 0.50 of the discount: 11.00, the base given back.
    expect(refundSplit(refunded(ORDER, { '2': 1 }), transfer)).toEqual([
      {
        brandStoreShop: NORTHWIND,
        refundedUnits: [],
        kept: figures(10200, 7140, 2040, 1020),
        back: NOTHING,
      },
      {
        brandStoreShop: LUMEN,
        refundedUnits: [{ brandVariantId: 'variant-2', quantity: 1 }],
        kept: figures(2200, 1650, 330, 220),
        back: figures(1100, 825, 165, 110),
      },
      {
        brandStoreShop: URBAN,
        refundedUnits: [],
        kept: figures(4200, 3360, 315, 525),
        back: NOTHING,
      },
    ])
  })

  it('after refunds one by one, equals a transfer of the still-sold lines: what each refund reverses adds up', () => {
    const first = refundSplit(refunded(ORDER, { '2': 1 }), transfer)
    const second = refundSplit(refunded(ORDER, { '2': 2, '1': 1 }), transfer)
    // Lumen kept 16.50 after the first, 8.25 after the second: the second reverses 8.25 more.
    const lumenSecond = second[1]!.back.brandAmountMinor - first[1]!.back.brandAmountMinor
    expect(lumenSecond).toBe(1650 - 825)
    const stillSold = frozen(refunded(ORDER, { '2': 2, '1': 1 }))
    expect(second.map((brand) => brand.kept.brandAmountMinor)).toEqual(
      stillSold.map((brand) => brand.brandAmountMinor),
    )
    expect(second.map((brand) => brand.kept.brandAmountMinor)).toEqual([3570, 825, 3360])
  })

  it('of the whole order, or its cancellation, gives everything back', () => {
    const everything = [
      figures(10200, 7140, 2040, 1020),
      figures(3300, 2475, 495, 330),
      figures(4200, 3360, 315, 525),
    ]
    for (const order of [
      refunded(ORDER, { '1': 2, '2': 3, '3': 1 }),
      { ...ORDER, order: { ...ORDER.order, cancelledAt: '2026-11-27T10:00:00Z' } },
    ]) {
      const split = refundSplit(order, transfer)
      expect(split.map((brand) => brand.back)).toEqual(everything)
      expect(split.map((brand) => brand.kept)).toEqual([NOTHING, NOTHING, NOTHING])
      expect(split.map((brand) => brand.refundedUnits)).toEqual([
        [{ brandVariantId: 'variant-1', quantity: 2 }],
        [{ brandVariantId: 'variant-2', quantity: 3 }],
        [{ brandVariantId: 'variant-3', quantity: 1 }],
      ])
    }
  })

  it('of the money alone, every unit still sold, takes no unit off', () => {
    // REFUNDED as money with no item refunded: the brands shipped what they were paid for.
    const split = refundSplit(
      { ...ORDER, order: { ...ORDER.order, financialStatus: 'REFUNDED' } },
      transfer,
    )
    expect(split.map((brand) => brand.back)).toEqual([NOTHING, NOTHING, NOTHING])
    expect(split.map((brand) => brand.refundedUnits)).toEqual([[], [], []])
  })

  it('never pays for units an edit added after the transfer', () => {
    const added: PlanInput = { ...ORDER, lines: [...ORDER.lines, line('4', URBAN, 3, 4200)] }
    const split = refundSplit(added, transfer)
    expect(split.map((brand) => brand.back)).toEqual([NOTHING, NOTHING, NOTHING])
    expect(split[2]!.kept).toEqual(figures(4200, 3360, 315, 525))
  })

  it('owes the brand a minor unit where rounding a smaller base gives it more', () => {
    // 95 units at 0.01, 10 % each: 9.5 rounds to 10 for Maya and Tandem, 9.4 to 9.
    const cents: PlanInput = {
      ...ORDER,
      lines: [line('1', NORTHWIND, 95, 1)],
      defaultRates: new Map([[NORTHWIND, { tandemCommissionRate: 10, creatorCommissionRate: 10 }]]),
    }
    const [northwind] = refundSplit(refunded(cents, { '1': 1 }), frozen(cents))
    expect(northwind!.kept).toEqual(figures(94, 76, 9, 9))
    expect(northwind!.back).toEqual(figures(1, -1, 1, 1))
  })
})
