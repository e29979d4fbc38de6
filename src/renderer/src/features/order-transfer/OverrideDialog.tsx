import { useState, type FormEvent } from 'react'
import { Button, Group, Modal, Text, Textarea } from '@mantine/core'
import { FRAUD_RELEASE_HINT, PRICE_EXCEPTION_HINT } from '@shared/contract'
import type { TandemBridge } from '@shared/ipc'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

/** The server's bounds of a reason (the contract's), said before it is sent. */
const REASON_MIN = 10
const REASON_MAX = 500

/**
 * What an administrator may override of a refused order, each offered on a refusal that says so
 * (its hint), with the reason the audit log keeps (docs/product-rules.md "Order transfers").
 */
export const OVERRIDES = {
  priceException: {
    hint: PRICE_EXCEPTION_HINT,
    title: 'Accept price exception',
    explanation: (orderId: string) =>
      `The brands will be ordered and paid for creator order ${orderId} at the prices it was sold at, below their current prices. The exception covers these prices only, and the activity log keeps your reason.`,
    reasonDescription: 'Why the brand accepts this price',
    submit: 'Accept exception',
    success: 'Price exception accepted',
    failure: 'Failed to accept price exception',
    send: (bridge: TandemBridge, creatorOrderId: string, reason: string): Promise<unknown> =>
      bridge.invoke('adminAcceptPriceException', { creatorOrderId, reason }),
  },
  fraudRelease: {
    hint: FRAUD_RELEASE_HINT,
    title: 'Release for transfer',
    explanation: (orderId: string) =>
      `Creator order ${orderId} will be transferred although Shopify found a risk of fraud on it: its brands ordered and paid. The release covers what Shopify found so far only, and the activity log keeps your reason.`,
    reasonDescription: 'How you know the order is genuine',
    submit: 'Release order',
    success: 'Order released for transfer',
    failure: 'Failed to release order',
    send: (bridge: TandemBridge, creatorOrderId: string, reason: string): Promise<unknown> =>
      bridge.invoke('adminReleaseFraudCheck', { creatorOrderId, reason }),
  },
} as const

export type Override = keyof typeof OVERRIDES

/**
 * Overrides one check of one creator order with a reason: open while `open` is set; `onDone` runs
 * once the server recorded it.
 */
export function OverrideDialog({
  open,
  onClose,
  onDone,
}: {
  open: { override: Override; orderId: string } | null
  onClose: () => void
  onDone: (orderId: string) => void
}) {
  const bridge = useBridge()
  const [reason, setReason] = useState('')
  // The words stay while the dialog closes.
  const [shown, setShown] = useState(open)
  if (open !== null && open !== shown) setShown(open)
  const words = OVERRIDES[shown?.override ?? 'priceException']
  const write = useWrite({
    success: { title: 'Success', message: words.success },
    failure: (message) => ({ title: words.failure, message }),
  })
  const tooShort = reason.trim().length < REASON_MIN

  const close = () => {
    setReason('')
    write.clearRefusal()
    onClose()
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (open === null || tooShort) return
    const done = await write.run(() => words.send(bridge, open.orderId, reason))
    if (!done) return
    setReason('')
    onDone(open.orderId)
  }

  return (
    <Modal opened={open !== null} onClose={close} title={words.title}>
      <form onSubmit={submit} aria-label={words.title}>
        <Text size="sm" mb="sm">
          {words.explanation(shown?.orderId ?? '')}
        </Text>
        <Textarea
          label="Reason"
          description={`${words.reasonDescription} (${REASON_MIN} to ${REASON_MAX} characters)`}
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
            {words.submit}
          </Button>
        </Group>
      </form>
    </Modal>
  )
}
