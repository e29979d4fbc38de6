import type { z } from 'zod'

// How a refused input is told to a person, the same in the server's 400s and in main's refusals
// of renderer arguments.

/** "shop must look like name.myshopify.com; Unknown field admin" — names the fields, never values. */
export function describeIssues(error: z.ZodError, where = 'input'): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.join('.')
      if (issue.code === 'unrecognized_keys') {
        const prefix = field ? `${field}.` : ''
        return `Unknown field ${issue.keys.map((key) => prefix + key).join(', ')}`
      }
      if (!field && issue.code === 'invalid_type') {
        return issue.expected === 'undefined'
          ? `This request takes no ${where}`
          : `The ${where} must be a JSON object`
      }
      if (!field) return issue.message
      // Parsed with reportInput, so a missing field (no input) reads apart from a wrong one.
      if (issue.code === 'invalid_type' || issue.code === 'invalid_value') {
        if (issue.input === undefined) return `${field} is required`
        // A rule that words every refusal itself (number-rules.ts), in lower case to follow the
        // field's name, says what the field takes rather than only its type.
        if (/^[a-z]/.test(issue.message)) return `${field} ${issue.message}`
        return issue.code === 'invalid_type'
          ? `${field} must be ${article(issue.expected)}`
          : `${field} must be one of ${issue.values.map(String).join(', ')}`
      }
      // Rules worded as whole sentences ("Tandem and creator … must not exceed 100") stand alone.
      return /^[A-Z]/.test(issue.message) ? issue.message : `${field} ${issue.message}`
    })
    .join('; ')
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)
