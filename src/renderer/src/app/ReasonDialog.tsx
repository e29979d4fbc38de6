import { useState, type FormEvent, type ReactNode } from 'react'
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core'
import { HoldReason } from '@shared/contract'
import { brokenRules } from '@renderer/lib/format'
import { RefusalAlert } from './RefusalAlert'
import { useOnOpening } from './useOnOpening'

interface ReasonDialogProps {
  opened: boolean
  title: string
  /** What the change does, above the field. */
  children: ReactNode
  /** The red button that sends it ("Hold", "Pause"). */
  submitLabel: string
  busy: boolean
  /** The server's sentence when it refused the change, shown in the dialog. */
  refusal: string | null
  onCancel: () => void
  /** The reason, trimmed, once it keeps the contract's rule (10 to 500 characters). */
  onSubmit: (reason: string) => void
}

/**
 * Asks why before a hold or a pause, which the activity log keeps (docs/product-rules.md
 * "Automatic transfers"). A reason the contract refuses is worded by its rule, under the field,
 * and nothing is sent.
 */
export function ReasonDialog({
  opened,
  title,
  children,
  submitLabel,
  busy,
  refusal,
  onCancel,
  onSubmit,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)
  // Each opening starts with an empty reason, whether the last ended sent or cancelled.
  useOnOpening(opened, () => {
    setReason('')
    setInvalid(null)
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const parsed = HoldReason.safeParse(reason)
    if (!parsed.success) {
      setInvalid(brokenRules(parsed.error))
      return
    }
    onSubmit(parsed.data)
  }

  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <form onSubmit={submit} aria-label={title} noValidate>
        <Text size="sm" mb="sm">
          {children}
        </Text>
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description="Why, for the activity log (10 to 500 characters)"
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value)
              setInvalid(null)
            }}
            error={invalid}
            rows={3}
            data-autofocus
          />
          <RefusalAlert refusal={refusal} mb={0} />
        </Stack>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={reason.trim() === ''} loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </form>
    </Modal>
  )
}
