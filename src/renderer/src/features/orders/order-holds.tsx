import { createContext, useContext, useState, type ReactNode } from 'react'
import { Button, Group } from '@mantine/core'
import type { CreatorOrderSummary, OrderHold, OrderReadiness } from '@shared/contract'
import { ReasonDialog } from '@renderer/app/ReasonDialog'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'
import { readCreatorOrder } from './read-order'
import { ReadinessLine } from './ReadinessLine'

// Holding and releasing one order, from the inbox or the transfer screen (docs/product-rules.md
// "Automatic transfers", "Holds"): automatic processing leaves a held order until it is released;
// an administrator can still process it. The server audits both.

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
        // Beside a readiness that wraps, whole rather than squeezed: "Releas".
        flex="none"
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
      flex="none"
      aria-label={`Hold ${order.name}`}
      onClick={() => holds.hold(order)}
    >
      Hold
    </Button>
  )
}

/** An order's readiness in words, with Hold or Release beside it. */
export function ReadinessWithHold({ order }: { order: CreatorOrderSummary }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
      <ReadinessLine readiness={order.readiness} />
      <HoldButton order={order} />
    </Group>
  )
}

/**
 * What a hold or release changed, once the server recorded it: the order as the inbox now lists
 * it, read again, or null when that read failed (the caller reads what it shows again). A hold's
 * own answer says enough should its read fail.
 */
export type OrderChanged = (orderId: string, now: CreatorOrderSummary | null) => void

/** The order, held as the server's answer says. */
const heldAs = (order: CreatorOrderSummary, hold: OrderHold): CreatorOrderSummary => ({
  ...order,
  readiness: { state: 'HELD', reason: hold.reason, by: hold.heldBy, since: hold.heldAt },
})

/**
 * Gives the HoldButtons within Hold and Release: the reason dialog, a release's refusal above
 * them, and `onChanged` with the order as it now stands once the server recorded either.
 */
export function OrderHoldsProvider({
  onChanged,
  children,
}: {
  onChanged: OrderChanged
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
  /** The order as the server now says it stands, or null if that cannot be read. */
  const readAgain = (order: CreatorOrderSummary) =>
    readCreatorOrder(bridge, order.id).catch(() => null)

  // Each write lasts until the order is read again, so that its dialog or button stays busy until
  // the order shows the change: a second click never acts on what it was before.
  const hold = async (order: CreatorOrderSummary, reason: string) => {
    const now = await holdWrite.run(async () => {
      const held = await bridge.invoke('adminHoldOrder', { creatorOrderId: order.id, reason })
      return (await readAgain(order)) ?? heldAs(order, held)
    })
    if (!now) return
    setHolding(null)
    onChanged(order.id, now)
  }

  const release = async (order: CreatorOrderSummary) => {
    const released = await releaseWrite.run(async () => {
      await bridge.invoke('adminReleaseOrder', { creatorOrderId: order.id })
      return { now: await readAgain(order) }
    }, order.id)
    if (released) onChanged(order.id, released.now)
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
