import { DefaultCommissionInput, Rate } from '@shared/contract/entities'
import { asSentence, brokenRules } from '@renderer/lib/format'

// The form checks rates with the contract's own schemas, so that the console and the server apply
// the same bounds (docs/product-rules.md "Money and commission rules") in the same words.

/** What a Mantine NumberInput holds: a string while it is empty or half-typed ("12."). */
export type RateInputValue = number | string

/** A rate input's number, or null while it holds nothing a rate could be read from. */
export function readRate(value: RateInputValue): number | null {
  const rate = typeof value === 'number' ? value : value.trim() === '' ? null : Number(value)
  return rate === null || Number.isNaN(rate) ? null : rate
}

/** Why one rate is out of bounds (0 to 100, at most two decimals), or null. */
export function rateError(rate: number | null): string | null {
  if (rate === null) return null
  const result = Rate.safeParse(rate)
  return result.success ? null : brokenRules(result.error)
}

interface DefaultRateErrors {
  tandemCommissionRate: string | null
  creatorCommissionRate: string | null
}

/** Each default rate's bounds, and once both are valid their sum, as DefaultCommissionInput says. */
export function defaultRateErrors(
  brandStoreShop: string,
  tandemCommissionRate: number | null,
  creatorCommissionRate: number | null,
): DefaultRateErrors {
  const errors = {
    tandemCommissionRate: rateError(tandemCommissionRate),
    creatorCommissionRate: rateError(creatorCommissionRate),
  }
  if (tandemCommissionRate === null || creatorCommissionRate === null) return errors
  if (errors.tandemCommissionRate !== null || errors.creatorCommissionRate !== null) return errors
  const result = DefaultCommissionInput.safeParse({
    brandStoreShop,
    tandemCommissionRate,
    creatorCommissionRate,
  })
  // The shop is the page's own; only the sum rule can be left to report here.
  const sum = result.error?.issues.find((issue) => issue.path[0] === 'creatorCommissionRate')
  return sum ? { ...errors, creatorCommissionRate: asSentence(sum.message) } : errors
}

/** How a rate reads in a list: "12.5%". */
export const percent = (rate: number) => `${rate}%`
