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
  return (
    <Modal opened={question !== null} onClose={onCancel} title={title}>
      <Text>{question}</Text>
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
