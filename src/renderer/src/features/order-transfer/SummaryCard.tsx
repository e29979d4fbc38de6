import type { ReactNode } from 'react'
import { Card, Table, Title } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'

// The transfer screen's cards (TransferSummary, RefundSplitCard): a titled section, and its table.

export function SummaryCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  )
}

/**
 * Whether the window is too narrow for a card's table to show its ids in columns of their own
 * (under 992 px, as Configs folds its table): they fold under the name, and every figure stays
 * whole in view.
 */
export const useFoldedIds = (): boolean => useMediaQuery('(max-width: 61.99em)') ?? false

/** A card's table, scrolling sideways in a narrow window; amounts line up on the right. */
export function SummaryTable({
  columns,
  numericFrom,
  minWidth = 640,
  children,
}: {
  columns: string[]
  /** The first column of figures: it and those after it align right. */
  numericFrom: number
  /** Below this width, in pixels, the table scrolls sideways. */
  minWidth?: number
  children: ReactNode
}) {
  return (
    // In a narrow window the table scrolls sideways: a keyboard reaches what is off to the side
    // by focusing the scrolling area, then the arrow keys.
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={column} ta={index >= numericFrom ? 'right' : undefined}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
