import { createContext, useContext, useState, type ReactNode } from 'react'
import { Button } from '@mantine/core'
import type { CreatorOrderSummary, OrderReadiness } from '@shared/contract'
import { ReasonDialog } from '@renderer/app/ReasonDialog'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'

// Holding and releasing one order from the inbox (docs/product-rules.md "Automatic transfers",
// "Holds"): automatic processing leaves a held order until it is released. The server audits both.

interface OrderHolds {
  hold: (order: CreatorOrderSummary) => void
  release: (order: CreatorOrderSummary) => void
  /** Whether a release of this order is in flight. */
  releasing: (orderId: string) => boolean
}

const HoldsContext = createContext<OrderHolds | null>(null)

/** The states automatic processing may still act on, and so that a hold can stop. */
const HOLDABLE: ReadonlySet<OrderReadiness['state']> = new Set([
  'MANUAL',
  'WAITING',
  'RETRYING',
  'NEEDS_ATTENTION',
  'PARTIAL',
])

/**
 * Beside an order's readiness: Release for a held order, Hold for one automatic processing may
 * still act on. A brand's pause also reads HELD; its Release is refused by the server, which says
 * the order is not held, above the table.
 */
export function HoldButton({ order }: { order: CreatorOrderSummary }) {
  const holds = useContext(HoldsContext)
  if (!holds) return null
  if (order.readiness.state === 'HELD') {
    return (
      <Button
        size="compact-xs"
        variant="default"
        aria-label={`Release ${order.name}`}
        loading={holds.releasing(order.id)}
        onClick={() => holds.release(order)}
      >
        Release
      </Button>
    )
  }
  if (!HOLDABLE.has(order.readiness.state)) return null
  return (
    <Button
      size="compact-xs"
      variant="default"
      aria-label={`Hold ${order.name}`}
      onClick={() => holds.hold(order)}
    >
      Hold
    </Button>
  )
}

/**
 * Gives the inbox's rows Hold and Release: the reason dialog, a release's refusal above the
 * table, and `onChanged` (the list read again) once the server recorded either.
 */
export function OrderHoldsProvider({
  onChanged,
  children,
}: {
  onChanged: () => void
  children: ReactNode
}) {
  const bridge = useBridge()
  const [holding, setHolding] = useState<CreatorOrderSummary | null>(null)
  // The dialog fades out after its order is gone: it keeps naming it until it has.
  const [lastHeld, setLastHeld] = useState(holding)
  if (holding !== null && holding !== lastHeld) setLastHeld(holding)
  const holdWrite = useWrite({
    success: { title: 'Success', message: 'Order held.' },
    failure: (message) => ({ title: 'Failed to hold order', message }),
  })
  const releaseWrite = useWrite({
    success: { title: 'Success', message: 'Order released.' },
    failure: (message) => ({ title: 'Failed to release order', message }),
  })
  const hold = async (order: CreatorOrderSummary, reason: string) => {
    const held = await holdWrite.run(() =>
      bridge.invoke('adminHoldOrder', { creatorOrderId: order.id, reason }),
    )
    if (!held) return
    setHolding(null)
    onChanged()
  }

  const release = async (order: CreatorOrderSummary) => {
    const released = await releaseWrite.run(
      () => bridge.invoke('adminReleaseOrder', { creatorOrderId: order.id }),
      order.id,
    )
    if (released) onChanged()
  }

  // Built each render: a row's button shows whether its own release is in flight.
  const holds: OrderHolds = {
    hold: (order) => {
      holdWrite.clearRefusal()
      setHolding(order)
    },
    release: (order) => void release(order),
    releasing: releaseWrite.isBusy,
  }

  const order = holding ?? lastHeld
  return (
    <HoldsContext.Provider value={holds}>
      <RefusalAlert refusal={releaseWrite.refusal} mb="md" />
      {children}
      <ReasonDialog
        opened={holding !== null}
        title="Hold order"
        submitLabel="Hold"
        busy={holdWrite.busy}
        refusal={holdWrite.refusal}
        onCancel={() => {
          holdWrite.clearRefusal()
          setHolding(null)
        }}
        onSubmit={(reason) => holding && void hold(holding, reason)}
      >
        Automatic transfers will leave order {order?.name} until you release it; an administrator
        can still process it. The activity log keeps your reason.
      </ReasonDialog>
    </HoldsContext.Provider>
  )
}
