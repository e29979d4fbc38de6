import { NumberInput } from '@mantine/core'
import type { RateInputValue } from './rates'

interface RateInputProps {
  label: string
  value: RateInputValue
  onChange: (value: RateInputValue) => void
  error: string | null
}

/**
 * A percentage from 0 to 100. Out-of-bounds values stay as typed, neither clamped nor cut to two
 * decimals, so that the person reads why Save is disabled instead of saving a rate they did not
 * type. The "%" sits beside the number rather than in it, so the input's value is the rate alone.
 */
export function RateInput({ label, value, onChange, error }: RateInputProps) {
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      rightSection="%"
      rightSectionPointerEvents="none"
      min={0}
      max={100}
      clampBehavior="none"
      allowNegative={false}
    />
  )
}
