import { Box, Group, Stack, Text } from '@mantine/core'
import type { BrandFulfillment, Shipment, Tracking } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { ExternalLink } from '@renderer/app/ExternalLink'
import { enumWords, formatDateTime, plural, storeName } from '@renderer/lib/format'
import { FulfillmentStatusBadge, MirrorStateBadge } from './shipping-badges'
import classes from './Shipping.module.css'

/** The row's height, and each line beneath it, as first guessed before the row is measured (px). */
const ROW_HEIGHT = 48
const LINE_HEIGHT = 26

/** The creator order as Orders names it (#1001); its id where Tandem never read its name. */
export const orderText = (shipment: Shipment): string =>
  shipment.creatorOrderName ?? shipment.creatorOrderId

/**
 * What an administrator does about units of a brand order Tandem cannot see: the brand's
 * fulfillment services' locations named (its store's, when it has none Tandem knows of).
 */
function unseenText(shipment: Shipment): { sentence: string; units: number } | null {
  if (!shipment.unseen) return null
  const { locations, units } = shipment.unseen
  const owners = locations.length > 0 ? locations : [storeName(shipment.brandStoreShop)]
  const whose = owners.map((owner) => `${owner}'s`).join(' and ')
  return { sentence: `cannot see: grant the app access to ${whose} fulfillments`, units }
}

/** The lines ShipmentDetail draws: each refusal to ship, then each fulfillment and its message. */
export function shipmentHeight(shipment: Shipment): number {
  const messages = shipment.fulfillments.filter((fulfillment) => fulfillment.mirrorMessage).length
  const lines =
    (shipment.cancelReason === null ? 0 : 1) +
    (shipment.unseen === null ? 0 : 1) +
    shipment.holds.length +
    Math.max(1, shipment.fulfillments.length) +
    messages
  return ROW_HEIGHT + lines * LINE_HEIGHT
}

/**
 * Under a brand order's row, across the columns: why it does not ship (the brand or Tandem
 * cancelled it, or the brand holds it), what of it Tandem cannot see, then what it shipped, each fulfillment with its
 * tracking and whether the creator's order shows it. Sentences wrap here rather than be cut short
 * in a cell.
 */
export function ShipmentDetail({ shipment }: { shipment: Shipment }) {
  const { cancelReason, holds, fulfillments } = shipment
  const unseen = unseenText(shipment)
  return (
    <Stack gap={4} pb={6}>
      {cancelReason !== null && (
        <Text size="xs" c="red">
          {shipment.cancelledBy === 'TANDEM'
            ? `Cancelled by ${PRODUCT_NAME} after the creator's refund`
            : `Cancelled by the brand: ${enumWords(cancelReason)}`}
        </Text>
      )}
      {holds.map((hold, index) => (
        <Text key={index} size="xs" c="orange">
          On hold: {enumWords(hold.reason)}
          {hold.notes && ` — ${hold.notes}`}
        </Text>
      ))}
      {unseen && (
        <Text size="xs" c="orange">
          {unseen.sentence} ({plural(unseen.units, 'unit', 'units')})
        </Text>
      )}
      {fulfillments.length > 0 ? (
        <Stack
          component="ul"
          gap={4}
          className={classes.fulfillments}
          aria-label={`Fulfillments of ${orderText(shipment)} by ${storeName(shipment.brandStoreShop)}`}
        >
          {fulfillments.map((fulfillment) => (
            <FulfillmentLine key={fulfillment.id} fulfillment={fulfillment} />
          ))}
        </Stack>
      ) : (
        // A cancelled order ships nothing, and its reason says so already; what Tandem cannot
        // see may have shipped.
        cancelReason === null &&
        !unseen && (
          <Text size="xs" c="dimmed">
            Nothing shipped yet.
          </Text>
        )
      )}
    </Stack>
  )
}

/** One fulfillment: its status, units and moment, its tracking, and the creator order's copy. */
function FulfillmentLine({ fulfillment }: { fulfillment: BrandFulfillment }) {
  const { mirrorMessage, mirrorState } = fulfillment
  return (
    <Box component="li">
      <Group gap="xs" wrap="wrap">
        <FulfillmentStatusBadge status={fulfillment.status} />
        <Text size="xs">
          {plural(fulfillment.quantity, 'unit', 'units')} · {formatDateTime(fulfillment.createdAt)}
        </Text>
        {fulfillment.tracking.length > 0 ? (
          fulfillment.tracking.map((tracking, index) => (
            <TrackingText key={index} tracking={tracking} />
          ))
        ) : (
          <Text size="xs" c="dimmed">
            No tracking
          </Text>
        )}
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed">
            Creator&apos;s order
          </Text>
          <MirrorStateBadge state={mirrorState} />
        </Group>
      </Group>
      {mirrorMessage && (
        // A sentence an administrator acts on: whole.
        <Text size="xs" c={mirrorState === 'FAILED' ? 'red' : 'dimmed'}>
          {mirrorMessage}
        </Text>
      )}
    </Box>
  )
}

/**
 * The carrier, then the tracking number: a link to the carrier's page when the brand gave one,
 * plain text otherwise; a page without a number is linked as "Track shipment".
 */
function TrackingText({ tracking }: { tracking: Tracking }) {
  const { company, number, url } = tracking
  return (
    <Group gap={4} wrap="nowrap">
      {company && (
        <Text size="xs" c="dimmed">
          {company}
        </Text>
      )}
      {url ? (
        <ExternalLink href={url} size="xs">
          {number ?? 'Track shipment'}
        </ExternalLink>
      ) : (
        number && <Text size="xs">{number}</Text>
      )}
    </Group>
  )
}
