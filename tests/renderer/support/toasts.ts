import { screen, within } from '@testing-library/react'
import { expect } from 'vitest'
import { declaredStyle } from './styles'

/**
 * Waits for the toast that says `message`, then checks its title and colour (red for a failure).
 * A toast replaced by a newer one stays in the page for its exit transition, and a page's own
 * inline alerts share the role, so it is picked by its words.
 */
export async function expectToast(
  title: string,
  message: string,
  tone: 'success' | 'error' = 'success',
) {
  const shown = await screen.findByText(message, { selector: '.mantine-Notification-description' })
  const toast = shown.closest<HTMLElement>('[role="alert"]')
  if (!toast) throw new Error(`"${message}" is not in a toast`)
  expect(within(toast).getByText(title)).toBeInTheDocument()
  expect(declaredStyle(toast, '--notification-color')).toBe(
    `var(--mantine-color-${tone === 'error' ? 'red' : 'green'}-filled)`,
  )
}
