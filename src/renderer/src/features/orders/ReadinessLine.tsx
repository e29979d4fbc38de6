import { Anchor, Group, List, Stack, Text } from '@mantine/core'
import { Link } from 'react-router'
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconHandStop,
  IconLoader2,
  IconMinus,
  IconPlayerPause,
  IconRefresh,
  type Icon,
} from '@tabler/icons-react'
import type { AttentionReasonView, OrderReadiness } from '@shared/contract'
import { storeName } from '@shared/contract/names'
import { formatDateTime } from '@renderer/lib/format'

// What will happen to an order and what stops it (issue 32), under its row of the orders inbox:
// the server says where the order stands (server/src/queries/order-readiness.ts), this says it in
// an administrator's words.

interface Wording {
  /** What happens next, first and coloured: the line a person scans the inbox for. */
  headline: string
  /** Why, or until when, after the headline. */
  detail?: string
  color: string
  icon: Icon
}

/** Each state's words; a brand's reasons to need attention are listed below them. */
function readinessWording(readiness: OrderReadiness): Wording {
  switch (readiness.state) {
    case 'MANUAL':
      return { headline: 'Waits for an administrator', color: 'dimmed', icon: IconHandStop }
    case 'WAITING':
      return {
        headline: `Transfers automatically at ${formatDateTime(readiness.until)}`,
        color: 'blue',
        icon: IconClockHour4,
      }
    case 'HELD':
      return {
        headline: 'Held',
        detail: `${readiness.reason} (${readiness.by ?? 'an administrator'}, since ${formatDateTime(readiness.since)})`,
        color: 'orange',
        icon: IconPlayerPause,
      }
    case 'RETRYING':
      return {
        headline: `Retrying from ${formatDateTime(readiness.until)}`,
        detail: readiness.message,
        color: 'orange',
        icon: IconRefresh,
      }
    case 'NEEDS_ATTENTION':
      return { headline: 'Needs attention', color: 'red', icon: IconAlertTriangle }
    case 'NOTHING_TO_TRANSFER':
      return {
        headline: 'Nothing to transfer',
        detail: readiness.message,
        color: 'dimmed',
        icon: IconMinus,
      }
    case 'PROCESSING':
      return { headline: 'Processing', color: 'blue', icon: IconLoader2 }
    case 'COMPLETED':
      return { headline: 'Completed', color: 'green', icon: IconCircleCheck }
    case 'PARTIAL':
      return {
        headline: 'Partial',
        detail: readiness.failedStep,
        color: 'orange',
        icon: IconAlertTriangle,
      }
  }
}

/** The line's height, and each reason's, as first guessed before the row is measured (px). */
const LINE_HEIGHT = 26
const REASON_HEIGHT = 22

/** How tall an order's readiness is before measuring: reasons wrap, each on its own line. */
export const readinessHeight = (readiness: OrderReadiness): number =>
  LINE_HEIGHT +
  (readiness.state === 'NEEDS_ATTENTION' ? readiness.reasons.length : 0) * REASON_HEIGHT

/**
 * The order's readiness in words, wrapping rather than cut short: a reason names the brand and its
 * fix, and is no use half read.
 */
export function ReadinessLine({ readiness }: { readiness: OrderReadiness }) {
  const { headline, detail, color, icon: StateIcon } = readinessWording(readiness)
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Text component="span" c={color} lh={0} mt={2} aria-hidden>
          <StateIcon size={16} stroke={1.75} />
        </Text>
        <Text size="sm">
          <Text span inherit fw={500} c={color}>
            {headline}
          </Text>
          {detail && `: ${detail}`}
        </Text>
      </Group>
      {readiness.state === 'NEEDS_ATTENTION' && (
        <List size="sm" pl={22} spacing={2}>
          {readiness.reasons.map((reason) => (
            <List.Item key={reason.sentence}>
              <AttentionReason reason={reason} />
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  )
}

/** Who acts on a reason, in an administrator's words: "maya makes, the creator". */
export const partyWords = ({ role, shop }: NonNullable<AttentionReasonView['remedy']>['party']) =>
  role === 'ADMINISTRATOR'
    ? 'an administrator'
    : `${storeName(shop ?? '')}, the ${role === 'BRAND' ? 'brand' : 'creator'}`

/** A reason's sentence, then who fixes it and a link to the page where it is fixed or shown. */
export function AttentionReason({ reason }: { reason: AttentionReasonView }) {
  const { remedy } = reason
  return (
    <>
      {reason.sentence}
      {remedy && (
        <Text span inherit c="dimmed">
          {' '}
          (fixed by {partyWords(remedy.party)}:{' '}
          <Anchor component={Link} to={remedy.link.to} inherit underline="always">
            {remedy.link.label}
          </Anchor>
          )
        </Text>
      )}
    </>
  )
}
