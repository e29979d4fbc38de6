import { notifications } from '@mantine/notifications'

export interface Toast {
  title: string
  message: string
  /** Destructive toasts are red; the others green. */
  tone?: 'success' | 'error'
}

/**
 * Shows one toast in place of any other: with at most one visible (docs/product-rules.md "The console's screens"), Mantine would
 * otherwise queue the newest behind the current one for its whole 5 s.
 */
export function showToast({ title, message, tone = 'success' }: Toast): void {
  notifications.clean()
  notifications.show({ title, message, color: tone === 'error' ? 'red' : 'green' })
}
