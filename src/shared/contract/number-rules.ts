import { z } from 'zod'

// What a number field takes (a rate, a hold, days, units), as one rule the console's field and the
// server's schema both apply, refusing in the same sentence whatever was wrong: a value is never
// rewritten into one the rule takes (docs/product-rules.md "Numbers typed").

export interface NumberRule {
  min: number
  max: number
  /** Digits allowed after the point: 0 for a whole number. */
  decimals: 0 | 2
  /** What a whole number counts, said after "a whole number of" ("minutes"). */
  counts?: string
  /** Said after the bounds, to explain one: " (7 days)". */
  aside?: string
  /** A value the rule takes, to show how decimals are written ("12.5"). */
  example?: string
}

/** The rule in words, to follow the field's name: "must be a whole number of days from 1 to 60". */
export function ruleSentence(rule: NumberRule): string {
  const kind =
    rule.decimals === 0 ? `a whole number${rule.counts ? ` of ${rule.counts}` : ''}` : 'a number'
  const decimals = rule.decimals === 0 ? '' : ' with at most two decimals'
  const example = rule.example ? `, such as ${rule.example}` : ''
  return `must be ${kind} from ${rule.min} to ${rule.max}${rule.aside ?? ''}${decimals}${example}`
}

/** Whether `value` is one the rule takes. */
export function fitsRule(rule: NumberRule, value: number): boolean {
  if (!Number.isFinite(value) || value < rule.min || value > rule.max) return false
  const scaled = value * 10 ** rule.decimals
  // A tolerance for binary fractions: 0.29 * 100 is 28.999999999999996.
  return Math.abs(scaled - Math.round(scaled)) < 1e-9
}

/** The rule as a schema: any value it does not take, a number or not, is refused in its sentence. */
export const numberSchema = (rule: NumberRule) => {
  const sentence = ruleSentence(rule)
  // A missing value keeps zod's own issue, which describeIssues words "is required".
  return z
    .number({ error: (issue) => (issue.input === undefined ? undefined : sentence) })
    .refine((value) => fitsRule(rule, value), sentence)
}

/** Digits with an optional point, and a minus: what a person types as a number (not "10,5"). */
const TYPED_NUMBER = /^-?(\d+\.?\d*|\.\d+)$/

/**
 * The text of a number field read by its rule: the number when the rule takes it, nothing for an
 * empty field, or the rule's sentence for anything else, which is never read as another number.
 */
export function readTyped(
  rule: NumberRule,
  text: string,
): { value: number; refusal: null } | { value: null; refusal: string | null } {
  const trimmed = text.trim()
  if (trimmed === '') return { value: null, refusal: null }
  const value = TYPED_NUMBER.test(trimmed) ? Number(trimmed) : NaN
  return fitsRule(rule, value)
    ? { value, refusal: null }
    : { value: null, refusal: ruleSentence(rule) }
}

/** A commission rate, a percentage (10 means 10 %). */
export const RATE_RULE: NumberRule = { min: 0, max: 100, decimals: 2, example: '12.5' }

/**
 * The longest hold, a week: the brand orders are created when an order is transferred, so a
 * longer hold keeps the customer's goods from shipping longer than a customer waits; an order
 * that needs longer is a case for MANUAL (docs/product-rules.md "The transfer policy").
 */
export const HOLD_MINUTES_MAX = 7 * 24 * 60
export const HOLD_MINUTES_RULE: NumberRule = {
  min: 0,
  max: HOLD_MINUTES_MAX,
  decimals: 0,
  counts: 'minutes',
  aside: ' (7 days)',
}

/** Days after its transfer by which a brand order is expected to have shipped in full. */
export const LATE_AFTER_DAYS_RULE: NumberRule = { min: 1, max: 60, decimals: 0, counts: 'days' }

/** A brand's units of each variant kept back from creator stores. */
export const STOCK_BUFFER_RULE: NumberRule = { min: 0, max: 100_000, decimals: 0, counts: 'units' }

/** The units of a line a refund may take: those it still sells. */
export const refundUnitsRule = (stillSold: number): NumberRule => ({
  min: 0,
  max: stillSold,
  decimals: 0,
  aside: ', the units still sold',
})
