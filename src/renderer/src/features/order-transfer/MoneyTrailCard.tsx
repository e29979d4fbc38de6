import { Table, Text } from '@mantine/core'
import type { MoneyMovement } from '@shared/contract'
import { EMPTY, formatDateTime } from '@renderer/lib/format'
import { IdText } from '@renderer/features/orders/IdText'
import { movementAmount, movementText } from './money-trail-text'
import { SummaryCard, SummaryTable } from './SummaryCard'

/**
 * Every movement of the order's money since its transfer began (issue 33), oldest first: each
 * party's transfer, what refunds took back and what a party still owes, with Stripe's ids.
 */
export function MoneyTrailCard({ trail }: { trail: MoneyMovement[] }) {
  return (
    <SummaryCard title="Money trail">
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
