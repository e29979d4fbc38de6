import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { notifications } from '@mantine/notifications'
import { afterEach, vi } from 'vitest'

// Screens load as lazy chunks; on a busy machine that can take longer than the default second.
configure({ asyncUtilTimeout: 5000 })

// What Mantine needs from a browser and jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    addListener: vi.fn(),
    removeListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
})

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub

Element.prototype.scrollIntoView = () => {}

// React says what it finds wrong (a duplicate key, an update outside act(), a bad prop) on
// console.error or console.warn, and renders on: a duplicate key once multiplied a line on every
// render while every test passed. Whatever a screen says there fails the test that rendered it.
const said: string[] = []
for (const level of ['error', 'warn'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    said.push(`console.${level}: ${args.map(String).join(' ')}`)
    original(...args)
  }
}

afterEach(() => {
  cleanup()
  // Toasts live in a module-level store that outlives each rendered tree.
  notifications.clean()
  if (said.length > 0) {
    throw new Error(`The screen said on the console:\n${said.splice(0).join('\n')}`)
  }
})
