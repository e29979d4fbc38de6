import { RATE_RULE } from '@shared/contract'
import { NumberField } from '@renderer/app/NumberField'

interface RateInputProps {
  label: string
  value: string
  onChange: (value: string) => void
  /** A refusal beyond the rate's own bounds (the default rates' sum). */
  error?: string | null
}

/**
 * A percentage from 0 to 100 with at most two decimals, kept as typed and refused in the rule's
 * words otherwise. The "%" sits beside the number rather than in it, so the input's value is the
 * rate alone.
 */
export function RateInput({ label, value, onChange, error }: RateInputProps) {
  return (
    <NumberField
      rule={RATE_RULE}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      rightSection="%"
      rightSectionPointerEvents="none"
    />
  )
}
