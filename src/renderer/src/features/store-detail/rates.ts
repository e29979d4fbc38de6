import { DefaultCommissionInput, RATE_RULE } from '@shared/contract'
import { readNumberField } from '@renderer/app/NumberField'
import { asSentence } from '@renderer/lib/format'

// The form checks rates with the contract's own rules, so that the console and the server apply
// the same bounds (docs/product-rules.md "Money and commission rules") in the same words.

/** A rate field's text read by the rate rule: its rate, or null while empty or refused. */
export const readRate = (text: string): number | null => readNumberField(RATE_RULE, text).value

/**
 * The rule on the two default rates together, once each is one (each field says its own refusal):
 * the sentence of DefaultCommissionInput's sum rule, or null.
 */
export function defaultRatesSumError(
  brandStoreShop: string,
  tandemCommissionRate: number | null,
  creatorCommissionRate: number | null,
): string | null {
  if (tandemCommissionRate === null || creatorCommissionRate === null) return null
  const result = DefaultCommissionInput.safeParse({
    brandStoreShop,
    tandemCommissionRate,
    creatorCommissionRate,
  })
  // The shop is the page's own; only the sum rule can be left to report here.
  const sum = result.error?.issues.find((issue) => issue.path[0] === 'creatorCommissionRate')
  return sum ? asSentence(sum.message) : null
}

/** How a rate reads in a list: "12.5%". */
export const percent = (rate: number) => `${rate}%`
