import { Alert, Anchor, Table, Text } from '@mantine/core'
import { Link } from 'react-router'
import type { MoneyMovement, TransferPreview } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { EMPTY, formatDateTime } from '@renderer/lib/format'
import { IdText } from '@renderer/features/orders/IdText'
import { movementAmount, movementText } from './money-trail-text'
import { SummaryCard, SummaryTable } from './SummaryCard'

/**
 * Every movement of the order's money since its transfer began (issue 33), oldest first: each
 * party's transfer, what refunds took back and what a party still owes, with Stripe's ids; first,
 * a refund that has not gone back yet and why, as its job's last run said.
 */
export function MoneyTrailCard({
  trail,
  waiting,
}: {
  trail: MoneyMovement[]
  waiting: TransferPreview['refundWaiting']
}) {
  return (
    <SummaryCard title="Money trail">
      {waiting && <RefundWaiting waiting={waiting} />}
      {trail.length === 0 ? (
        <Text c="dimmed">No money has moved yet.</Text>
      ) : (
        // Its sentences wrap: it fits a 700 px window whole, amounts and all.
        <SummaryTable
          columns={['When', 'What happened', 'Stripe ID', 'Amount']}
          numericFrom={3}
          minWidth={560}
        >
          {trail.map((movement) => (
            <Table.Tr
              key={`${movement.kind}-${movement.storeShop}-${movement.at}-${movement.stripeId}`}
            >
              <Table.Td>
                {/* On one line: the moments of a trail line up under one another. */}
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(movement.at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{movementText(movement)}</Text>
              </Table.Td>
              <Table.Td>
                {movement.stripeId ? <IdText id={movement.stripeId} size="xs" /> : EMPTY}
              </Table.Td>
              <Table.Td ta="right">{movementAmount(movement)}</Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
      )}
    </SummaryCard>
  )
}

/** A refund that has not gone back yet: why, and when Tandem tries again (or that it stopped). */
function RefundWaiting({ waiting }: { waiting: NonNullable<TransferPreview['refundWaiting']> }) {
  return (
    <Alert color="orange" variant="light" title="A refund has not gone back yet" mb="sm">
      <Text size="sm">{waiting.reason}</Text>
      {waiting.state === 'RETRYING' ? (
        <Text size="sm" mt={4}>
          {PRODUCT_NAME} tries again at {formatDateTime(waiting.at)}.
        </Text>
      ) : (
        <Text size="sm" mt={4}>
          {PRODUCT_NAME} stopped trying at {formatDateTime(waiting.at)}: once the cause is fixed,
          retry it on the{' '}
          <Anchor component={Link} to="/main/jobs" inherit underline="always">
            Jobs page
          </Anchor>
          .
        </Text>
      )}
    </Alert>
  )
}
