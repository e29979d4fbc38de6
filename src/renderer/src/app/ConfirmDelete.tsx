import { Button, Group, Modal, Text } from '@mantine/core'

/** Asks before a delete; open while there is a question (a sentence naming what goes). */
export function ConfirmDelete({
  title,
  question,
  onCancel,
  onConfirm,
}: {
  title: string
  question: string | null
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
          Delete
        </Button>
      </Group>
    </Modal>
  )
}
