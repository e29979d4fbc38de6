import { useState, type FormEvent } from 'react'
import { Button, Group, Modal, Text, Textarea } from '@mantine/core'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

/** The server's bounds of a reason (the contract's), said before it is sent. */
const REASON_MIN = 10
const REASON_MAX = 500

/**
 * Accepts, for one creator order, its lines priced below their brands' prices, with the reason
 * the audit log keeps. Open while `orderId` is set; `onAccepted` runs once the server recorded it.
 */
export function PriceExceptionDialog({
  orderId,
  onClose,
  onAccepted,
}: {
  orderId: string | null
  onClose: () => void
  onAccepted: (orderId: string) => void
}) {
  const bridge = useBridge()
  const [reason, setReason] = useState('')
  const write = useWrite({
    success: { title: 'Success', message: 'Price exception accepted' },
    failure: (message) => ({ title: 'Failed to accept price exception', message }),
  })
  const length = reason.trim().length
  const tooShort = length < REASON_MIN

  const close = () => {
    setReason('')
    write.clearRefusal()
    onClose()
  }

  const accept = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (orderId === null || tooShort) return
    const accepted = await write.run(() =>
      bridge.invoke('adminAcceptPriceException', { creatorOrderId: orderId, reason }),
    )
    if (!accepted) return
    setReason('')
    onAccepted(orderId)
  }

  return (
    <Modal opened={orderId !== null} onClose={close} title="Accept price exception">
      <form onSubmit={accept} aria-label="Price exception">
        <Text size="sm" mb="sm">
          The brands will be ordered and paid for creator order {orderId} at the prices it was sold
          at, below their current prices. The exception covers these prices only, and the activity
          log keeps your reason.
        </Text>
        <Textarea
          label="Reason"
          description={`Why the brand accepts this price (${REASON_MIN} to ${REASON_MAX} characters)`}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          maxLength={REASON_MAX}
          rows={3}
          required
          data-autofocus
        />
        <RefusalAlert refusal={write.refusal} mb={0} />
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={tooShort} loading={write.busy}>
            Accept exception
          </Button>
        </Group>
      </form>
    </Modal>
  )
}
