/**
 * Money is integer minor units inside the server and decimal strings at the edge (like Shopify's
 * MoneyV2.amount, "102.00"). Nothing here touches floating-point arithmetic on amounts.
 */

/** Thrown for an amount or currency code that cannot be money; callers answer it as bad input. */
export class MoneyError extends Error {
  override name = 'MoneyError'
}

// ICU formats any well-formed three-letter code, so only this list tells a real currency apart.
const knownCurrencies: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

// Stripe's currency table (https://docs.stripe.com/currencies), not ISO 4217's or ICU's, decides
// minor units: every amount Tandem reads (Shopify's) and sends (Stripe's) is counted this way.
// ICU gives HUF, IDR and COP 0 decimals where Stripe counts 2: a brand would get 1/100 of its due.
/** "The charge and the amount are the same": Stripe's zero-decimal currencies. */
const ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF VND VUV XAF XOF XPF'.split(' '),
)
/** Three decimals, and "the last digit must be a zero" for Stripe's payment partners. */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND'])
/**
 * Special cases: ISK and UGX "transitioned to a zero-decimal currency, but backward compatibility
 * requires you to represent it as a two-decimal value, where the decimal amount is always 00": two
 * decimals, whole units only. (HUF and TWD are zero-decimal for payouts only, which Tandem never
 * makes; charges and transfers take their two decimals.)
 */
const WHOLE_UNITS_IN_TWO_DECIMALS = new Set(['ISK', 'UGX'])

/** The number of decimals Stripe counts for an ISO 4217 code: USD, HUF and ISK 2, JPY 0, BHD 3. */
export function currencyDecimals(currency: string): number {
  if (!knownCurrencies.has(currency)) {
    throw new MoneyError(`Unknown currency code "${currency}"; expected an ISO 4217 code like USD`)
  }
  if (ZERO_DECIMAL.has(currency)) return 0
  return THREE_DECIMAL.has(currency) ? 3 : 2
}

/** What every amount of `currency` sent to Stripe must be a multiple of, in minor units. */
export function stripeAmountStep(currency: string): number {
  currencyDecimals(currency)
  if (WHOLE_UNITS_IN_TWO_DECIMALS.has(currency)) return 100
  return THREE_DECIMAL.has(currency) ? 10 : 1
}

/** Refuses an amount Stripe would refuse for its currency's special rule (5.125 BHD, 5.50 ISK). */
export function checkStripeAmount(minor: number, currency: string): number {
  const step = stripeAmountStep(currency)
  if (!Number.isSafeInteger(minor) || minor % step !== 0) {
    throw new MoneyError(
      `${minor} minor units of ${currency} cannot be sent to Stripe: it takes ${currency} ` +
        `amounts in multiples of ${step}`,
    )
  }
  return minor
}

const decimalAmount = /^(\d+)(?:\.(\d+))?$/

/**
 * Parses a non-negative decimal string into minor units. Negatives are refused: every amount the
 * server reads (prices, line totals) is non-negative. Decimals beyond the currency's are accepted
 * only when they are zeros, because Shopify writes "1500.0" for JPY and "102.0" for USD.
 */
export function toMinorUnits(amount: string, currency: string): number {
  const decimals = currencyDecimals(currency)
  const match = decimalAmount.exec(amount)
  if (!match) {
    throw new MoneyError(
      `"${amount}" is not an amount of money; expected digits with an optional decimal point, like "102.00"`,
    )
  }
  const whole = match[1] ?? ''
  const fraction = match[2] ?? ''
  const excess = fraction.slice(decimals)
  if (/[^0]/.test(excess)) {
    throw new MoneyError(`"${amount}" has more decimals than ${currency} allows (${decimals})`)
  }
  if (WHOLE_UNITS_IN_TWO_DECIMALS.has(currency) && /[^0]/.test(fraction)) {
    throw new MoneyError(
      `"${amount}" is a fraction of ${currency}, which Stripe counts in whole units`,
    )
  }
  const minor = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MoneyError(`"${amount}" is too large an amount of ${currency}`)
  }
  return Number(minor)
}

/** Writes minor units as a decimal string with exactly the currency's decimals: "-0.50", "1500". */
export function formatMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) {
    throw new MoneyError(`${minor} is not a whole number of minor units`)
  }
  const decimals = currencyDecimals(currency)
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0')
  const sign = minor < 0 ? '-' : ''
  if (decimals === 0) return sign + digits
  const point = digits.length - decimals
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** An exchange rate as Stripe writes it ("1.085", or 1e-7 as a double prints): digits over 10^scale. */
function exactRate(rate: string): { digits: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(rate)
  if (!match) throw new MoneyError(`"${rate}" is not an exchange rate`)
  const fraction = match[2] ?? ''
  const digits = BigInt((match[1] ?? '') + fraction)
  const scale = fraction.length - Number(match[3] ?? 0)
  if (digits === 0n) throw new MoneyError(`An exchange rate of ${rate} converts nothing`)
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 }
}

/**
 * `minor` units of `from` in `to` at Stripe's exchange rate (an amount in `from` times the rate is
 * the amount in `to`), exactly, rounded half up to what Stripe takes in `to`. A rate of "1" with
 * the same currency is the amount itself.
 */
export function convertMinorUnits(minor: number, from: string, to: string, rate: string): number {
  if (!Number.isSafeInteger(minor) || minor < 0) {
    throw new MoneyError(`${minor} is not a non-negative whole number of minor units`)
  }
  const { digits, scale } = exactRate(rate)
  const step = BigInt(stripeAmountStep(to))
  // minor ÷ 10^decimals(from) × rate × 10^decimals(to), counted in steps of `to`.
  const numerator = BigInt(minor) * digits * 10n ** BigInt(currencyDecimals(to))
  const denominator = 10n ** BigInt(currencyDecimals(from) + scale) * step
  const converted = ((2n * numerator + denominator) / (2n * denominator)) * step
  if (converted > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MoneyError(`${minor} minor units of ${from} is too large an amount in ${to}`)
  }
  return Number(converted)
}

// Rates are stored as whole hundredths of a percent (12.5 % is 1250). Callers pass rates with at
// most two decimals (the contract or checkRate refused the others), so rounding only removes the
// binary noise of the double (12.34 × 100 is 1234.0000000000002), and dividing back is exact.
export const toHundredths = (ratePercent: number): number => Math.round(ratePercent * 100)
export const fromHundredths = (hundredths: number): number => hundredths / 100

// Rates come from JSON as doubles (12.34 is 1234.0000000000002 hundredths); anything further from
// a whole hundredth than this carries a third decimal.
const hundredthTolerance = 1e-6

/** A percentage rate as whole hundredths (12.5 → 1250), or null when it has more than two decimals. */
export function rateInHundredths(ratePercent: number): number | null {
  if (!Number.isFinite(ratePercent)) return null
  const hundredths = toHundredths(ratePercent)
  return Math.abs(ratePercent * 100 - hundredths) <= hundredthTolerance ? hundredths : null
}

/**
 * roundHalfUp(base × rate / 100) exactly. BigInt keeps large bases from losing precision: the
 * product base × hundredths can pass 2^53 long before the result does.
 */
export function percentOfMinor(baseMinor: number, ratePercent: number): number {
  if (!Number.isSafeInteger(baseMinor) || baseMinor < 0) {
    throw new RangeError(`Commission base must be a non-negative whole number of minor units`)
  }
  const hundredths = rateInHundredths(ratePercent)
  if (hundredths === null || hundredths < 0) {
    throw new RangeError(
      `Rate ${ratePercent} must be a non-negative percentage with at most two decimals`,
    )
  }
  // Both factors are non-negative, so BigInt's truncating division is a floor: adding half the
  // divisor first rounds …5 up.
  const result = (BigInt(baseMinor) * BigInt(hundredths) + 5_000n) / 10_000n
  if (result > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${ratePercent} % of ${baseMinor} minor units is too large`)
  }
  return Number(result)
}
