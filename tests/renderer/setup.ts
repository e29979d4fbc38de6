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

afterEach(() => {
  cleanup()
  // Toasts live in a module-level store that outlives each rendered tree.
  notifications.clean()
})
