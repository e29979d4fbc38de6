import { describe, expect, it } from 'vitest'
import {
  checkStripeAmount,
  convertMinorUnits,
  currencyDecimals,
  formatMinorUnits,
  MoneyError,
  stripeAmountStep,
  toMinorUnits,
} from '../../server/src/domain/money'

// Stripe's currency table (https://docs.stripe.com/currencies) decides minor units, where Node's
// Intl disagrees: HUF, IDR, COP and TWD have two decimals for Stripe, ISK and UGX are two-decimal
// amounts of whole units, BHD's last digit must be a zero.

describe("Stripe's minor units", () => {
  it.each([
    // currency, Shopify's amount, minor units, written back, step Stripe takes
    ['JPY', '1500.0', 1500, '1500', 1],
    ['KRW', '32000', 32000, '32000', 1],
    ['HUF', '10.45', 1045, '10.45', 1],
    ['HUF', '4990', 499000, '4990.00', 1],
    ['IDR', '150000', 15000000, '150000.00', 1],
    ['COP', '99000.50', 9900050, '99000.50', 1],
    ['ISK', '1500', 150000, '1500.00', 100],
    ['TWD', '800.45', 80045, '800.45', 1],
    ['UGX', '5', 500, '5.00', 100],
    ['BHD', '1.230', 1230, '1.230', 10],
    ['USD', '62.00', 6200, '62.00', 1],
  ] as const)('%s %s is %i minor units', (currency, amount, minor, written, step) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
    expect(formatMinorUnits(minor, currency)).toBe(written)
    expect(stripeAmountStep(currency)).toBe(step)
    expect(checkStripeAmount(minor, currency)).toBe(minor)
  })

  it('counts the decimals Stripe counts, not ICU', () => {
    const decimals = ['JPY', 'KRW', 'HUF', 'ISK', 'TWD', 'UGX', 'BHD', 'IDR', 'COP'].map(
      (currency) => [currency, currencyDecimals(currency)],
    )
    expect(Object.fromEntries(decimals)).toEqual({
      JPY: 0,
      KRW: 0,
      HUF: 2,
      ISK: 2,
      TWD: 2,
      UGX: 2,
      BHD: 3,
      IDR: 2,
      COP: 2,
    })
  })

  it.each([
    ['5.50', 'ISK', '"5.50" is a fraction of ISK, which Stripe counts in whole units'],
    ['5.01', 'UGX', '"5.01" is a fraction of UGX, which Stripe counts in whole units'],
    ['1500.5', 'JPY', '"1500.5" has more decimals than JPY allows (0)'],
    ['32000.1', 'KRW', '"32000.1" has more decimals than KRW allows (0)'],
    ['10.455', 'HUF', '"10.455" has more decimals than HUF allows (2)'],
    ['1.2345', 'BHD', '"1.2345" has more decimals than BHD allows (3)'],
  ])('refuses %s %s', (amount, currency, message) => {
    expect(() => toMinorUnits(amount, currency)).toThrow(MoneyError)
    expect(() => toMinorUnits(amount, currency)).toThrow(message)
  })

  it.each([
    [1235, 'BHD', 'it takes BHD amounts in multiples of 10'],
    [150050, 'ISK', 'it takes ISK amounts in multiples of 100'],
    [501, 'UGX', 'it takes UGX amounts in multiples of 100'],
  ])('refuses to send %i minor units of %s to Stripe', (minor, currency, reason) => {
    expect(() => checkStripeAmount(minor, currency)).toThrow(
      `${minor} minor units of ${currency} cannot be sent to Stripe: ${reason}`,
    )
  })
})

describe("conversion at a charge's exchange rate", () => {
  it.each([
    // Order 1005's figures, EUR to USD at a rate of 1.085: 46.50 × 1.085 = 50.4525.
    [4650, 'EUR', 'USD', '1.085', 5045],
    [930, 'EUR', 'USD', '1.085', 1009],
    [620, 'EUR', 'USD', '1.085', 673],
    [6200, 'EUR', 'USD', '1.085', 6727],
    // Half a cent rounds up: 1.00 × 1.005 = 1.005 → 1.01.
    [100, 'EUR', 'USD', '1.005', 101],
    // Yen to dollars and back: decimals differ on each side.
    [1500, 'JPY', 'USD', '0.0067', 1005],
    [1005, 'USD', 'JPY', '149.25', 1500],
    // Into ISK, whole krónur only: 10.00 USD × 137.456 = 1374.56 ISK → 1375.00.
    [1000, 'USD', 'ISK', '137.456', 137500],
    // Into BHD, the last digit a zero: 10.00 USD × 0.376 = 3.760; 10.01 × 0.376 = 3.76376 → 3.760.
    [1001, 'USD', 'BHD', '0.376', 3760],
    // Rates as a double prints them.
    [100_000_000, 'IDR', 'USD', '6.1e-5', 6100],
    [4650, 'USD', 'USD', '1', 4650],
  ] as const)('%i %s in %s at %s is %i', (minor, from, to, rate, converted) => {
    expect(convertMinorUnits(minor, from, to, rate)).toBe(converted)
  })

  it.each(['', 'abc', '-1.085', '0', '1,085'])('refuses the rate %j', (rate) => {
    expect(() => convertMinorUnits(100, 'EUR', 'USD', rate)).toThrow(MoneyError)
  })
})
