import { TRANSFER_ERRORS } from '@shared/contract'
import { describe, expect, it } from 'vitest'
import {
  checkDefaultRates,
  checkRate,
  checkUniqueRate,
  resolveRates,
  splitBase,
  type DefaultRates,
} from '../../server/src/domain/commission'
import {
  currencyDecimals,
  formatMinorUnits,
  MoneyError,
  percentOfMinor,
  rateInHundredths,
  toMinorUnits,
} from '../../server/src/domain/money'
import {
  frozenUnitsStillSold,
  lineBaseMinor,
  planTransfer,
  resumeRefusal,
  TransferPlanDataError,
  type PlanInput,
  type PlanLine,
  type PlanResult,
} from '../../server/src/domain/transfer-plan'

const northwind = 'northwind-apparel.myshopify.com'
const lumen = 'lumen-botanicals.myshopify.com'
const ironpeak = 'ironpeak-outdoor.myshopify.com'
const maya = 'maya-makes.myshopify.com'
const urban = 'urban-trail-edits.myshopify.com'

describe('currencyDecimals', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has %i decimals', (currency, decimals) => {
    expect(currencyDecimals(currency)).toBe(decimals)
  })

  it.each(['XYZ', 'usd', 'US', 'dollars', ''])('refuses the unknown code %j', (currency) => {
    expect(() => currencyDecimals(currency)).toThrow(MoneyError)
    expect(() => currencyDecimals(currency)).toThrow(`Unknown currency code "${currency}"`)
  })
})

describe('toMinorUnits', () => {
  it.each([
    ['102.00', 'USD', 10200],
    ['102.0', 'USD', 10200],
    ['102', 'USD', 10200],
    ['0.05', 'USD', 5],
    ['0.5', 'USD', 50],
    ['0', 'USD', 0],
    ['62.00', 'EUR', 6200],
    ['1505', 'JPY', 1505],
    ['1505.0', 'JPY', 1505],
    ['1.234', 'KWD', 1234],
    ['1.2', 'KWD', 1200],
    ['12.340', 'USD', 1234],
    ['90071992547409.91', 'USD', 9007199254740991],
  ])('reads %s %s as %i minor units', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
  })

  it.each([
    ['12.345', 'USD', '"12.345" has more decimals than USD allows (2)'],
    ['1505.5', 'JPY', '"1505.5" has more decimals than JPY allows (0)'],
    ['1.2345', 'KWD', '"1.2345" has more decimals than KWD allows (3)'],
    ['90071992547409.92', 'USD', '"90071992547409.92" is too large an amount of USD'],
  ])('refuses %s %s', (amount, currency, message) => {
    expect(() => toMinorUnits(amount, currency)).toThrow(MoneyError)
    expect(() => toMinorUnits(amount, currency)).toThrow(message)
  })

  it.each([
    'abc',
    '1e3',
    '-1.00',
    '+1.00',
    '',
    '.50',
    '1.',
    ' 1.00',
    '1,000.00',
    'NaN',
    'Infinity',
  ])('refuses the non-amount %j', (amount) => {
    expect(() => toMinorUnits(amount, 'USD')).toThrow(
      `"${amount}" is not an amount of money; expected digits with an optional decimal point, like "102.00"`,
    )
  })

  it('refuses an unknown currency before reading the amount', () => {
    expect(() => toMinorUnits('1.00', 'XYZ')).toThrow('Unknown currency code "XYZ"')
  })
})

describe('formatMinorUnits', () => {
  it.each([
    [10200, 'USD', '102.00'],
    [5, 'USD', '0.05'],
    [0, 'USD', '0.00'],
    [-50, 'USD', '-0.50'],
    [-12345, 'USD', '-123.45'],
    [1500, 'JPY', '1500'],
    [-7, 'JPY', '-7'],
    [1234, 'KWD', '1.234'],
    [5, 'KWD', '0.005'],
    [9007199254740991, 'USD', '90071992547409.91'],
  ])('writes %i %s as %s', (minor, currency, amount) => {
    expect(formatMinorUnits(minor, currency)).toBe(amount)
  })

  it('round-trips with toMinorUnits', () => {
    for (const [amount, currency] of [
      ['102.00', 'USD'],
      ['1505', 'JPY'],
      ['1.234', 'KWD'],
    ] as const) {
      expect(formatMinorUnits(toMinorUnits(amount, currency), currency)).toBe(amount)
    }
  })

  it.each([0.5, Number.NaN, 2 ** 53])('refuses %d, which is not a safe whole number', (minor) => {
    expect(() => formatMinorUnits(minor, 'USD')).toThrow(MoneyError)
  })
})

describe('rateInHundredths', () => {
  it.each([
    [10, 1000],
    [12.34, 1234],
    [0.29, 29],
    [33.33, 3333],
    [0, 0],
    [100, 10000],
  ])('%d is %i hundredths', (rate, hundredths) => {
    expect(rateInHundredths(rate)).toBe(hundredths)
  })

  it.each([12.345, 0.001, Number.NaN, Number.POSITIVE_INFINITY])(
    '%d has no whole hundredths',
    (rate) => {
      expect(rateInHundredths(rate)).toBeNull()
    },
  )
})

describe('percentOfMinor', () => {
  it.each([
    // [base minor, rate %, result minor]
    [13600, 15, 2040],
    [13600, 10, 1360],
    [3450, 20, 690],
    [3450, 8, 276],
    [5, 10, 1], // 0.005 USD rounds up to 0.01
    [15, 15, 2], // 0.0225 USD rounds down to 0.02
    [1, 50, 1], // exactly half a cent goes up
    [3, 50, 2], // 1.5 → 2
    [625, 4.56, 29], // exactly 28.5; base × rate / 100 in doubles is 28.4999…, which rounds to 28
    [375, 34.8, 131], // exactly 130.5; doubles give 130.4999…
    [1505, 10, 151], // ¥1,505 at 10 % = ¥150.5 → ¥151
    [1236, 12.5, 155], // 1.236 KWD at 12.5 % = 0.1545 → 0.155
    [1234, 12.5, 154], // 1.234 KWD at 12.5 % = 0.15425 → 0.154
    [13600, 0, 0],
    [13600, 100, 13600],
    [0, 15, 0],
    [12345, 12.34, 1523], // 1523.373
    [9_007_199_254_740, 33.33, 3_002_099_511_605], // 3 002 099 511 604.842; doubles lose the base × rate
    [Number.MAX_SAFE_INTEGER, 33.33, 3_002_099_511_605_172],
    [Number.MAX_SAFE_INTEGER, 100, Number.MAX_SAFE_INTEGER],
  ])('%i minor units at rate %d make %i', (base, rate, result) => {
    expect(percentOfMinor(base, rate)).toBe(result)
  })

  it.each([
    [-5, 10],
    [0.5, 10],
    [Number.NaN, 10],
    [2 ** 53, 10],
  ])('refuses the base %d', (base, rate) => {
    expect(() => percentOfMinor(base, rate)).toThrow(
      'Commission base must be a non-negative whole number of minor units',
    )
  })

  it.each([12.345, -1, Number.NaN])('refuses the rate %d', (rate) => {
    expect(() => percentOfMinor(100, rate)).toThrow(
      `Rate ${rate} must be a non-negative percentage with at most two decimals`,
    )
  })

  it('refuses a result past the safe integers', () => {
    expect(() => percentOfMinor(Number.MAX_SAFE_INTEGER, 200)).toThrow('is too large')
  })
})

describe('resolveRates', () => {
  const lumenDefault: DefaultRates = { tandemCommissionRate: 8, creatorCommissionRate: 12 }

  it('uses the brand default without a unique rate', () => {
    expect(resolveRates(lumenDefault, null)).toEqual({ tandemRate: 8, creatorRate: 12 })
  })

  it('lets the unique rate replace the creator rate, never the tandem rate', () => {
    expect(resolveRates(lumenDefault, 20)).toEqual({ tandemRate: 8, creatorRate: 20 })
  })

  it('keeps a unique rate of 0 rather than falling back to the default', () => {
    expect(resolveRates(lumenDefault, 0)).toEqual({ tandemRate: 8, creatorRate: 0 })
  })

  it('is null for a brand without a default, even with a unique rate', () => {
    expect(resolveRates(null, null)).toBeNull()
    expect(resolveRates(null, 20)).toBeNull()
  })
})

describe('splitBase', () => {
  it.each([
    // [base, tandem %, creator %, creator, tandem, brand]
    [13600, 10, 15, 2040, 1360, 10200],
    [3450, 8, 20, 690, 276, 2484],
    [2775, 8, 12, 333, 222, 2220],
    [1800, 10, 15, 270, 180, 1350],
    [6200, 10, 15, 930, 620, 4650],
    [1505, 10, 15, 226, 151, 1128], // JPY: 225.75 → 226, 150.5 → 151
    [1236, 8, 12.5, 155, 99, 982], // KWD: 154.5 → 155, 98.88 → 99
    [13600, 0, 0, 0, 0, 13600],
    [13600, 0, 100, 13600, 0, 0],
    [13600, 100, 0, 0, 13600, 0],
    [13600, 33.33, 66.67, 9067, 4533, 0],
    [0, 10, 15, 0, 0, 0],
  ])(
    '%i minor units at tandem rate %d and creator rate %d',
    (base, tandemRate, creatorRate, creator, tandem, brand) => {
      expect(splitBase(base, { tandemRate, creatorRate })).toEqual({
        creatorCommissionMinor: creator,
        tandemCommissionMinor: tandem,
        brandAmountMinor: brand,
      })
      expect(creator + tandem + brand).toBe(base)
    },
  )

  it('keeps the brand amount at zero when both commissions round up past the base', () => {
    // 1 cent at 50 % + 50 %: each commission is half a cent and rounds up to a whole one.
    expect(splitBase(1, { tandemRate: 50, creatorRate: 50 })).toEqual({
      creatorCommissionMinor: 1,
      tandemCommissionMinor: 0,
      brandAmountMinor: 0,
    })
    // 5 cents at 30 % + 70 %: 1.5 → 2 and 3.5 → 4 would make 6.
    expect(splitBase(5, { tandemRate: 70, creatorRate: 30 })).toEqual({
      creatorCommissionMinor: 2,
      tandemCommissionMinor: 3,
      brandAmountMinor: 0,
    })
  })
})

describe('rate bounds', () => {
  it.each([0, 100, 12.34, 0.01, 99.99])('accepts the rate %d', (rate) => {
    expect(checkRate('creatorCommissionRate', rate)).toBeNull()
  })

  it.each([
    [-0.01, 'creatorCommissionRate must be a number from 0 to 100'],
    [100.01, 'creatorCommissionRate must be a number from 0 to 100'],
    [Number.NaN, 'creatorCommissionRate must be a number from 0 to 100'],
    [Number.POSITIVE_INFINITY, 'creatorCommissionRate must be a number from 0 to 100'],
    [12.345, 'creatorCommissionRate must have at most two decimals'],
  ])('refuses the rate %d', (rate, message) => {
    expect(checkRate('creatorCommissionRate', rate)).toBe(message)
  })

  it.each([
    [10, 15],
    [0, 0],
    [0, 100],
    [100, 0],
    [33.33, 66.67],
    [50, 50],
  ])('accepts the default %d / %d', (tandemCommissionRate, creatorCommissionRate) => {
    expect(checkDefaultRates({ tandemCommissionRate, creatorCommissionRate }, [])).toBeNull()
  })

  it.each([
    [50, 50.01],
    [90, 20],
    [33.34, 66.67],
  ])('refuses the default %d / %d', (tandemCommissionRate, creatorCommissionRate) => {
    expect(checkDefaultRates({ tandemCommissionRate, creatorCommissionRate }, [])).toBe(
      'Tandem and creator commission rates together must not exceed 100',
    )
  })

  it('names the field of a default rate out of range', () => {
    expect(checkDefaultRates({ tandemCommissionRate: 101, creatorCommissionRate: 0 }, [])).toBe(
      'tandemCommissionRate must be a number from 0 to 100',
    )
    expect(checkDefaultRates({ tandemCommissionRate: 10, creatorCommissionRate: 1.005 }, [])).toBe(
      'creatorCommissionRate must have at most two decimals',
    )
  })

  it("checks a new default against the brand's unique rates", () => {
    const rates = { tandemCommissionRate: 85, creatorCommissionRate: 10 }
    expect(checkDefaultRates(rates, [12, 15])).toBeNull()
    expect(checkDefaultRates(rates, [12, 15.01, 3])).toBe(
      "The tandem commission rate plus the brand's highest unique commission rate (15.01) must not exceed 100",
    )
  })

  it('accepts a unique rate within the bounds', () => {
    expect(checkUniqueRate(20, { tandemCommissionRate: 8, creatorCommissionRate: 12 })).toBeNull()
    expect(checkUniqueRate(90, { tandemCommissionRate: 10, creatorCommissionRate: 15 })).toBeNull()
    expect(checkUniqueRate(0, { tandemCommissionRate: 100, creatorCommissionRate: 0 })).toBeNull()
    expect(checkUniqueRate(95, null)).toBeNull()
  })

  it("refuses a unique rate that passes 100 with the brand's tandem rate", () => {
    expect(checkUniqueRate(90.01, { tandemCommissionRate: 10, creatorCommissionRate: 15 })).toBe(
      "The unique commission rate plus the brand's tandem commission rate (10) must not exceed 100",
    )
  })

  it('names the field of a unique rate out of range', () => {
    expect(checkUniqueRate(-1, null)).toBe('commissionRate must be a number from 0 to 100')
    expect(checkUniqueRate(20.001, null)).toBe('commissionRate must have at most two decimals')
  })
})

// The sandbox marketplace of docs/product-rules.md.
const sandboxDefaults: ReadonlyMap<string, DefaultRates> = new Map([
  [northwind, { tandemCommissionRate: 10, creatorCommissionRate: 15 }],
  [lumen, { tandemCommissionRate: 8, creatorCommissionRate: 12 }],
])
const sandboxUniqueRates: Record<string, ReadonlyMap<string, number>> = {
  [maya]: new Map([[lumen, 20]]),
  [urban]: new Map(),
}
const knownStores: ReadonlySet<string> = new Set([northwind, lumen, ironpeak])

/** A line whose units cost `totalMinor` after discounts, all still sold unless told. */
function line(
  lineItemId: string,
  brandStoreShop: string | null,
  quantity: number,
  totalMinor: number,
  currentQuantity = quantity,
): PlanLine {
  const brandVariantId =
    brandStoreShop === null ? null : `gid://shopify/ProductVariant/${lineItemId}`
  const unitPriceMinor = quantity === 0 ? 0 : Math.ceil(totalMinor / quantity)
  const discountMinor = unitPriceMinor * quantity - totalMinor
  return {
    lineItemId,
    brandStoreShop,
    brandVariantId,
    quantity,
    currentQuantity,
    unitPriceMinor,
    discountMinor,
  }
}

const PAID_ORDER = { name: '#2001', financialStatus: 'PAID', cancelledAt: null }

function sandboxOrder(currency: string, creatorStoreShop: string, lines: PlanLine[]): PlanInput {
  return {
    order: PAID_ORDER,
    currency,
    creatorStoreShop,
    lines,
    knownStores,
    defaultRates: sandboxDefaults,
    uniqueRates: sandboxUniqueRates[creatorStoreShop] ?? new Map(),
  }
}

/** The plan's figures as the API writes them, to compare with docs/product-rules.md's table. */
function figures(result: PlanResult, currency: string): unknown {
  if (!result.ok) return result
  const money = (minor: number): string => formatMinorUnits(minor, currency)
  return {
    brands: result.brands.map((brand) => ({
      shop: brand.brandStoreShop,
      rates: [brand.tandemRate, brand.creatorRate],
      base: money(brand.baseMinor),
      creator: money(brand.creatorCommissionMinor),
      tandem: money(brand.tandemCommissionMinor),
      brand: money(brand.brandAmountMinor),
      lines: brand.lines.map((l) => `${l.quantity} × ${l.lineItemId} (${l.brandVariantId})`),
    })),
    totals: {
      brand: money(result.totals.totalBrandAmountMinor),
      creator: money(result.totals.totalCreatorCommissionMinor),
      tandem: money(result.totals.totalTandemCommissionMinor),
    },
  }
}

describe('planTransfer on the sandbox orders', () => {
  it('plans #1001: Northwind and Lumen at the unique rate, the Sticker Pack left out', () => {
    const order = sandboxOrder('USD', maya, [
      line('overshirt', northwind, 2, 13600),
      line('face-oil', lumen, 1, 3450),
      line('sticker', null, 1, 500),
    ])
    expect(figures(planTransfer(order), 'USD')).toEqual({
      brands: [
        {
          shop: northwind,
          rates: [10, 15],
          base: '136.00',
          creator: '20.40',
          tandem: '13.60',
          brand: '102.00',
          lines: ['2 × overshirt (gid://shopify/ProductVariant/overshirt)'],
        },
        {
          shop: lumen,
          rates: [8, 20],
          base: '34.50',
          creator: '6.90',
          tandem: '2.76',
          brand: '24.84',
          lines: ['1 × face-oil (gid://shopify/ProductVariant/face-oil)'],
        },
      ],
      totals: { brand: '126.84', creator: '27.30', tandem: '16.36' },
    })
  })

  it('fails #1002: Ironpeak has no default commission', () => {
    const order = sandboxOrder('USD', urban, [line('headlamp', ironpeak, 1, 4200)])
    expect(planTransfer(order)).toEqual({
      ok: false,
      error: 'needsAttention',
      reason: {
        kind: 'noDefaultCommission',
        brandStoreShop: ironpeak,
        sentence:
          'Commission not found: ironpeak outdoor has no default commission: set it on its store page',
      },
    })
    expect(TRANSFER_ERRORS.commissionNotFound).toBe('Commission not found')
  })

  it("fails #1003: only the creator's own products", () => {
    const order = sandboxOrder('USD', maya, [line('sticker', null, 2, 1000)])
    expect(planTransfer(order)).toEqual({
      ok: false,
      error: 'nothingToTransfer',
      message: 'No brand orders found',
    })
    expect(TRANSFER_ERRORS.noBrandOrders).toBe('No brand orders found')
  })

  it('plans #1004: Lumen first, as in the order, at the default rates', () => {
    const order = sandboxOrder('USD', urban, [
      line('soap', lumen, 3, 2775),
      line('socks', northwind, 1, 1800),
    ])
    expect(figures(planTransfer(order), 'USD')).toEqual({
      brands: [
        {
          shop: lumen,
          rates: [8, 12],
          base: '27.75',
          creator: '3.33',
          tandem: '2.22',
          brand: '22.20',
          lines: ['3 × soap (gid://shopify/ProductVariant/soap)'],
        },
        {
          shop: northwind,
          rates: [10, 15],
          base: '18.00',
          creator: '2.70',
          tandem: '1.80',
          brand: '13.50',
          lines: ['1 × socks (gid://shopify/ProductVariant/socks)'],
        },
      ],
      totals: { brand: '35.70', creator: '6.03', tandem: '4.02' },
    })
  })

  it('plans #1005 in EUR', () => {
    const order = sandboxOrder('EUR', maya, [line('overshirt', northwind, 1, 6200)])
    expect(figures(planTransfer(order), 'EUR')).toEqual({
      brands: [
        {
          shop: northwind,
          rates: [10, 15],
          base: '62.00',
          creator: '9.30',
          tandem: '6.20',
          brand: '46.50',
          lines: ['1 × overshirt (gid://shopify/ProductVariant/overshirt)'],
        },
      ],
      totals: { brand: '46.50', creator: '9.30', tandem: '6.20' },
    })
  })
})

describe('planTransfer', () => {
  it("sums a brand's lines into one base, keeping the brand at its first line's place", () => {
    const order = sandboxOrder('USD', urban, [
      line('socks', northwind, 1, 1800),
      line('soap', lumen, 3, 2775),
      line('sticker', null, 1, 500),
      line('overshirt', northwind, 1, 6800),
    ])
    const result = planTransfer(order)
    expect(figures(result, 'USD')).toEqual({
      brands: [
        {
          shop: northwind,
          rates: [10, 15],
          base: '86.00',
          creator: '12.90',
          tandem: '8.60',
          brand: '64.50',
          lines: [
            '1 × socks (gid://shopify/ProductVariant/socks)',
            '1 × overshirt (gid://shopify/ProductVariant/overshirt)',
          ],
        },
        {
          shop: lumen,
          rates: [8, 12],
          base: '27.75',
          creator: '3.33',
          tandem: '2.22',
          brand: '22.20',
          lines: ['3 × soap (gid://shopify/ProductVariant/soap)'],
        },
      ],
      totals: { brand: '86.70', creator: '16.23', tandem: '10.82' },
    })
  })

  it('sums the per-brand figures into the totals rather than applying rates to the sum', () => {
    // Each brand's 0.5-cent commission rounds up; rates on the 10-cent sum would give 1 cent each.
    const order: PlanInput = {
      order: PAID_ORDER,
      currency: 'USD',
      creatorStoreShop: maya,
      lines: [line('a', northwind, 1, 5), line('b', lumen, 1, 5)],
      knownStores,
      defaultRates: new Map([
        [northwind, { tandemCommissionRate: 10, creatorCommissionRate: 10 }],
        [lumen, { tandemCommissionRate: 10, creatorCommissionRate: 10 }],
      ]),
      uniqueRates: new Map(),
    }
    const result = planTransfer(order)
    expect(result.ok && result.totals).toEqual({
      totalBrandAmountMinor: 6,
      totalCreatorCommissionMinor: 2,
      totalTandemCommissionMinor: 2,
    })
  })

  it('plans in a zero-decimal currency', () => {
    const order = sandboxOrder('JPY', urban, [line('overshirt', northwind, 1, 1505)])
    expect(figures(planTransfer(order), 'JPY')).toMatchObject({
      brands: [{ base: '1505', creator: '226', tandem: '151', brand: '1128' }],
      totals: { brand: '1128', creator: '226', tandem: '151' },
    })
  })

  it('plans in a three-decimal currency', () => {
    const order = sandboxOrder('KWD', maya, [line('face-oil', lumen, 1, 1236)])
    expect(figures(planTransfer(order), 'KWD')).toMatchObject({
      brands: [
        { rates: [8, 20], base: '1.236', creator: '0.247', tandem: '0.099', brand: '0.890' },
      ],
      totals: { brand: '0.890', creator: '0.247', tandem: '0.099' },
    })
  })

  it('names the first brand the marketplace does not know', () => {
    const stranger = 'stranger-goods.myshopify.com'
    const order = sandboxOrder('USD', urban, [
      line('headlamp', ironpeak, 1, 4200),
      line('thing', stranger, 1, 100),
      line('other', 'other.myshopify.com', 1, 100),
    ])
    // An unknown store is reported before a known brand's missing commission.
    expect(planTransfer(order)).toMatchObject({
      error: 'needsAttention',
      reason: { kind: 'brandStoreUnknown', brandStoreShop: stranger },
    })
    expect(TRANSFER_ERRORS.storeNotFound).toBe('Store not found')
  })

  it('refuses a creator store named as a brand as unknown', () => {
    const order = sandboxOrder('USD', maya, [line('copy', urban, 1, 100)])
    expect(planTransfer(order)).toMatchObject({
      error: 'needsAttention',
      reason: { kind: 'brandStoreUnknown', brandStoreShop: urban },
    })
  })

  it('leaves out lines removed by an edit or refund, and says when nothing is left', () => {
    const order = sandboxOrder('USD', urban, [
      line('socks', northwind, 1, 1800, 0),
      line('soap', lumen, 3, 2775),
    ])
    const result = planTransfer(order)
    expect(result.ok && result.brands.map((brand) => brand.brandStoreShop)).toEqual([lumen])
    const emptied = [line('socks', northwind, 1, 1800, 0), line('sticker', null, 1, 500)]
    expect(planTransfer(sandboxOrder('USD', urban, emptied))).toEqual({
      ok: false,
      error: 'nothingToTransfer',
      message:
        'Creator order #2001 has nothing left to transfer: every brand line was refunded or removed',
    })
  })

  it('bases a partly refunded line on its units still sold, their discount share rounded up', () => {
    // 3 × 10.00 with 1.00 of discounts; 2 units left keep ceil(100 × 2 / 3) = 67 of it.
    const partly = { ...line('soap', lumen, 3, 2900, 2), unitPriceMinor: 1000, discountMinor: 100 }
    expect(lineBaseMinor(partly)).toBe(1933)
    expect(lineBaseMinor({ ...partly, currentQuantity: 3 })).toBe(2900)
    const result = planTransfer(sandboxOrder('USD', urban, [partly]))
    expect(result.ok && result.brands.map(({ baseMinor, lines }) => [baseMinor, lines])).toEqual([
      [
        1933,
        [{ lineItemId: 'soap', brandVariantId: 'gid://shopify/ProductVariant/soap', quantity: 2 }],
      ],
    ])
  })

  it('tells how much of a frozen transfer the order still sells, a variant summed over its lines', () => {
    const variant = 'gid://shopify/ProductVariant/socks'
    // Two lines of the same socks, one of them refunded: one pair left of two frozen.
    const order = sandboxOrder('USD', urban, [
      line('socks', northwind, 1, 1800),
      line('socks', northwind, 1, 1800, 0),
      line('soap', lumen, 3, 2775),
    ])
    const stillSold = (shop: string, frozen: { brandVariantId: string; quantity: number }[]) =>
      frozenUnitsStillSold(order, shop, frozen)
    expect(stillSold(northwind, [{ brandVariantId: variant, quantity: 2 }])).toBe('some')
    expect(
      stillSold(northwind, [
        { brandVariantId: variant, quantity: 1 },
        { brandVariantId: variant, quantity: 1 },
      ]),
    ).toBe('some')
    expect(stillSold(northwind, [{ brandVariantId: variant, quantity: 1 }])).toBe('all')
    const soap = [{ brandVariantId: 'gid://shopify/ProductVariant/soap', quantity: 3 }]
    expect(stillSold(lumen, soap)).toBe('all')
    expect(stillSold(northwind, soap)).toBe('none')
    // Once the order is cancelled, nothing is sold any more, whatever the quantities say.
    const cancelled = { ...order, order: { ...order.order, cancelledAt: '2026-05-01T00:00:00Z' } }
    expect(frozenUnitsStillSold(cancelled, lumen, soap)).toBe('none')
    expect(resumeRefusal(cancelled.order)).toBeNull()
    expect(resumeRefusal({ ...order.order, financialStatus: 'PENDING' })).toMatch(/is not paid/)
  })

  it('plans only a paid, live order, naming it and its state', () => {
    const lines = [line('overshirt', northwind, 1, 6800)]
    const planned = (order: PlanInput['order']) =>
      planTransfer({ ...sandboxOrder('USD', maya, lines), order })
    const refused = (message: string) => ({ ok: false, error: 'nothingToTransfer', message })
    for (const status of ['PENDING', 'AUTHORIZED', 'PARTIALLY_PAID', 'EXPIRED', 'VOIDED']) {
      expect(planned({ ...PAID_ORDER, financialStatus: status })).toEqual(
        refused(`Creator order #2001 is not paid (${status}): only a paid order is transferred`),
      )
    }
    expect(planned({ ...PAID_ORDER, financialStatus: null })).toEqual(
      refused(
        'Creator order #2001 is not paid (no financial status): only a paid order is transferred',
      ),
    )
    expect(planned({ ...PAID_ORDER, financialStatus: 'REFUNDED' })).toEqual(
      refused(
        'Creator order #2001 was refunded in full (REFUNDED): it has nothing left to transfer',
      ),
    )
    expect(planned({ ...PAID_ORDER, cancelledAt: '2026-11-20T10:00:00Z' })).toEqual(
      refused(
        'Creator order #2001 was cancelled (2026-11-20T10:00:00Z): a cancelled order is not transferred',
      ),
    )
    expect(planned({ ...PAID_ORDER, financialStatus: 'PARTIALLY_REFUNDED' }).ok).toBe(true)
  })

  it('plans a 100 % creator rate and a 0 % tandem rate', () => {
    const order: PlanInput = {
      ...sandboxOrder('USD', maya, [line('overshirt', northwind, 1, 6800)]),
      defaultRates: new Map([[northwind, { tandemCommissionRate: 0, creatorCommissionRate: 100 }]]),
    }
    expect(figures(planTransfer(order), 'USD')).toMatchObject({
      brands: [{ base: '68.00', creator: '68.00', tandem: '0.00', brand: '0.00' }],
    })
  })

  it('throws on order data no reader should produce', () => {
    const noVariant = { ...line('socks', northwind, 1, 1800), brandVariantId: null }
    expect(() => planTransfer(sandboxOrder('USD', urban, [noVariant]))).toThrow(
      new TransferPlanDataError(`Line socks comes from ${northwind} but names no brand variant`),
    )
    expect(() => planTransfer(sandboxOrder('USD', urban, [line('own', urban, 1, 100)]))).toThrow(
      `Line own names the creator's own store ${urban} as its brand`,
    )
    expect(() => planTransfer(sandboxOrder('USD', urban, [line('x', northwind, -1, 100)]))).toThrow(
      'Line x has an invalid quantity -1',
    )
    expect(() => planTransfer(sandboxOrder('USD', urban, [line('x', northwind, 1, 1.5)]))).toThrow(
      'Line x has an invalid price or discount',
    )
    expect(() => planTransfer(sandboxOrder('XYZ', urban, [line('x', northwind, 1, 100)]))).toThrow(
      MoneyError,
    )
    const huge = line('huge', northwind, 1, Number.MAX_SAFE_INTEGER)
    expect(() => planTransfer(sandboxOrder('USD', urban, [huge, huge]))).toThrow(
      `The base of ${northwind} is too large`,
    )
  })
})
