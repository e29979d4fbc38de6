import { TextInput, type TextInputProps } from '@mantine/core'
import { readTyped, type NumberRule } from '@shared/contract'
import { asSentence } from '@renderer/lib/format'

/**
 * The text of a number field read by its rule: the number when the rule takes it; null while it is
 * empty or refused, with the rule's sentence for a refusal, as the server words it.
 */
export function readNumberField(rule: NumberRule, text: string) {
  const read = readTyped(rule, text)
  return { value: read.value, refusal: read.refusal === null ? null : asSentence(read.refusal) }
}

interface NumberFieldProps extends Omit<TextInputProps, 'value' | 'onChange' | 'error'> {
  rule: NumberRule
  /** Exactly what was typed. */
  value: string
  onChange: (text: string) => void
  /** A refusal beyond the field's own rule (two rates' sum), shown while the value fits it. */
  error?: string | null
}

/**
 * Every number the console takes (rates, holds, days, units): what was typed stays as typed, never
 * clamped, cut or stripped of a sign or a comma, and one the rule does not take is refused under
 * the field in the rule's sentence, which says what it takes. Its form keeps its submit disabled
 * while `readNumberField` gives no value.
 */
export function NumberField({ rule, value, onChange, error, ...props }: NumberFieldProps) {
  return (
    <TextInput
      inputMode={rule.decimals === 0 ? 'numeric' : 'decimal'}
      autoComplete="off"
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={readNumberField(rule, value).refusal ?? error}
    />
  )
}
