import { percentOfMinor, rateInHundredths, toHundredths } from './money'

/** A brand's default commission, in percent (10 means 10 %). */
export interface DefaultRates {
  tandemCommissionRate: number
  creatorCommissionRate: number
}

/** The rates that apply to one (brand, creator) pair. */
export interface ResolvedRates {
  tandemRate: number
  creatorRate: number
}

interface CommissionSplit {
  creatorCommissionMinor: number
  tandemCommissionMinor: number
  brandAmountMinor: number
}

/**
 * The pair's unique rate wins over the brand's default creator rate; the tandem rate is always the
 * brand's. Null when the brand has no default: the transfer fails with "Commission not found".
 */
export function resolveRates(
  brandDefault: DefaultRates | null,
  uniqueCreatorRate: number | null,
): ResolvedRates | null {
  if (brandDefault === null) return null
  return {
    tandemRate: brandDefault.tandemCommissionRate,
    creatorRate: uniqueCreatorRate ?? brandDefault.creatorCommissionRate,
  }
}

/**
 * Splits a brand's base so that the three figures add up to it exactly. Rounding both commissions
 * half up can overshoot the base by one minor unit when the rates sum to (nearly) 100, e.g. 1 cent
 * at 50 % + 50 %; Tandem's own commission absorbs that unit so the brand is never owed a negative
 * amount.
 */
export function splitBase(baseMinor: number, rates: ResolvedRates): CommissionSplit {
  const creatorCommissionMinor = percentOfMinor(baseMinor, rates.creatorRate)
  const tandemCommissionMinor = Math.min(
    percentOfMinor(baseMinor, rates.tandemRate),
    baseMinor - creatorCommissionMinor,
  )
  return {
    creatorCommissionMinor,
    tandemCommissionMinor,
    brandAmountMinor: baseMinor - creatorCommissionMinor - tandemCommissionMinor,
  }
}

// Sums are taken in whole hundredths so that 33.33 + 66.67 is exactly 100, not a double near it.
// Rates reaching these sums have passed checkRate (or were stored after passing it).
const maxTotalHundredths = 100_00

/**
 * One rate on its own: a percentage from 0 to 100 with at most two decimals. `field` is the name
 * the caller sent it under, so the sentence tells them which value to fix.
 */
export function checkRate(field: string, rate: number): string | null {
  if (!Number.isFinite(rate) || rate < 0 || rate > 100) {
    return `${field} must be a number from 0 to 100`
  }
  if (rateInHundredths(rate) === null) return `${field} must have at most two decimals`
  return null
}

/**
 * A brand's default. The brand's existing unique rates are checked too: raising the tandem rate
 * must not push any of them past 100, or the next transfer would owe the brand a negative amount.
 */
export function checkDefaultRates(
  rates: DefaultRates,
  uniqueRatesOfBrand: readonly number[],
): string | null {
  const invalid =
    checkRate('tandemCommissionRate', rates.tandemCommissionRate) ??
    checkRate('creatorCommissionRate', rates.creatorCommissionRate)
  if (invalid !== null) return invalid
  const tandem = toHundredths(rates.tandemCommissionRate)
  if (tandem + toHundredths(rates.creatorCommissionRate) > maxTotalHundredths) {
    return 'Tandem and creator commission rates together must not exceed 100'
  }
  if (uniqueRatesOfBrand.length === 0) return null
  const highestUnique = Math.max(...uniqueRatesOfBrand)
  if (tandem + toHundredths(highestUnique) > maxTotalHundredths) {
    return `The tandem commission rate plus the brand's highest unique commission rate (${highestUnique}) must not exceed 100`
  }
  return null
}

/**
 * A unique rate for a (brand, creator) pair. A brand without a default has no tandem rate yet, so
 * only the range applies; setting the default later checks the sum (see checkDefaultRates).
 */
export function checkUniqueRate(rate: number, brandDefault: DefaultRates | null): string | null {
  const invalid = checkRate('commissionRate', rate)
  if (invalid !== null || brandDefault === null) return invalid
  if (toHundredths(rate) + toHundredths(brandDefault.tandemCommissionRate) > maxTotalHundredths) {
    return `The unique commission rate plus the brand's tandem commission rate (${brandDefault.tandemCommissionRate}) must not exceed 100`
  }
  return null
}
