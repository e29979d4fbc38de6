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

/** The number of decimals of an ISO 4217 code: USD and EUR 2, JPY 0, KWD and BHD 3. */
// Building an Intl.NumberFormat costs more than a whole preview's arithmetic: once per currency.
const decimalsByCurrency = new Map<string, number>()

export function currencyDecimals(currency: string): number {
  const known = decimalsByCurrency.get(currency)
  if (known !== undefined) return known
  if (!knownCurrencies.has(currency)) {
    throw new MoneyError(`Unknown currency code "${currency}"; expected an ISO 4217 code like USD`)
  }
  const { maximumFractionDigits } = new Intl.NumberFormat('en', {
    style: 'currency',
    currency,
  }).resolvedOptions()
  // Always set for the currency style; the type leaves room for styles that round by significance.
  if (maximumFractionDigits === undefined) {
    throw new MoneyError(`No number of decimals is known for ${currency}`)
  }
  decimalsByCurrency.set(currency, maximumFractionDigits)
  return maximumFractionDigits
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
