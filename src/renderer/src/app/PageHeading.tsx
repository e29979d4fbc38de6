import type { ReactNode } from 'react'
import { Title } from '@mantine/core'

/** The one heading of a console page: the name of its section. */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  )
}
