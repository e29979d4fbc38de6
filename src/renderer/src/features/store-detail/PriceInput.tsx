import { TextInput } from '@mantine/core'
import { MoneyAmount } from '@shared/contract'
import { brokenRules } from '@renderer/lib/format'

/**
 * The price typed, as the contract carries it: null for none (the brand's price), the amount, or
 * the contract's rule in a sentence when the text cannot be one.
 */
export function readPrice(text: string): { price: string | null } | { invalid: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { price: null }
  const parsed = MoneyAmount.safeParse(trimmed)
  if (parsed.success) return { price: parsed.data }
  return { invalid: brokenRules(parsed.error) }
}

interface PriceInputProps {
  label: string
  value: string
  onChange: (value: string) => void
  /** The brand's currency, beside the amount, when known. */
  currency: string | null
  error: string | null
}

/**
 * A listing's price above the brand's, which the server checks against the brand's own: left
 * empty, the creator's store sells at the brand's price.
 */
export function PriceInput({ label, value, onChange, currency, error }: PriceInputProps) {
  return (
    <TextInput
      label={label}
      description="Above the brand's price. Leave it empty to sell at the brand's price."
      placeholder="Brand's price"
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={currency}
      rightSectionWidth={currency ? 48 : undefined}
      error={error}
    />
  )
}
