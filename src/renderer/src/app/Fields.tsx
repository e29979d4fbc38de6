import { SimpleGrid, Text, type SimpleGridProps } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * Label and value pairs as a description list, each value under its label; two columns from
 * small widths unless told otherwise. Long values (ids, emails, addresses) wrap rather than spill.
 */
export function Fields({
  fields,
  cols = { base: 1, xs: 2 },
}: {
  fields: [label: string, value: ReactNode][]
  cols?: SimpleGridProps['cols']
}) {
  return (
    <SimpleGrid component="dl" cols={cols} spacing="sm" verticalSpacing="sm" m={0}>
      {fields.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  )
}
