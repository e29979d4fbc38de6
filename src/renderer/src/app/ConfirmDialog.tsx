import { useState } from 'react'
import { Button, Group, Modal, Text } from '@mantine/core'

/**
 * Asks before something that cannot be undone; open while there is a question. The confirming
 * button is red and says what it does ("Delete", "Confirm").
 */
export function ConfirmDialog({
  title,
  question,
  confirmLabel,
  onCancel,
  onConfirm,
}: {
  title: string
  question: string | null
  confirmLabel: string
  onCancel: () => void
  onConfirm: () => void
}) {
  // The dialog fades out after its question is gone: it keeps saying it until it has.
  const [lastQuestion, setLastQuestion] = useState(question)
  if (question !== null && question !== lastQuestion) setLastQuestion(question)

  return (
    <Modal opened={question !== null} onClose={onCancel} title={title}>
      <Text>{question ?? lastQuestion}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  )
}
