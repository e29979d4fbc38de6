import { act, renderHook } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { showToast } from '@renderer/lib/toast'
import { useWrite, type WriteToasts } from '@renderer/lib/useWrite'
import { deferred, serverRefusal } from './support/fake-bridge'

// The toasts are checked as what the hook asks for; how a toast looks is the toast's own affair
// (and every converted screen's tests still see them as a person does).
vi.mock('@renderer/lib/toast', () => ({ showToast: vi.fn() }))
const toasts = vi.mocked(showToast)
beforeEach(() => toasts.mockClear())

const TOASTS: WriteToasts = {
  success: { title: 'Success', message: 'Saved successfully.' },
  failure: { title: 'Failed', message: 'Failed to save.' },
}

const renderWrite = (texts: WriteToasts = TOASTS) => renderHook(() => useWrite(texts))

describe('useWrite', () => {
  it('is busy while the write runs, then answers its result with the success toast', async () => {
    const { result } = renderWrite()
    const answer = deferred<{ id: number }>()
    expect(result.current.busy).toBe(false)

    let outcome: Promise<{ id: number } | undefined> | undefined
    act(() => {
      outcome = result.current.run(() => answer.promise)
    })
    expect(result.current.busy).toBe(true)
    expect(result.current.isBusy()).toBe(true)
    expect(toasts).not.toHaveBeenCalled()

    await act(async () => answer.resolve({ id: 7 }))

    await expect(outcome).resolves.toEqual({ id: 7 })
    expect(result.current.busy).toBe(false)
    expect(result.current.refusal).toBeNull()
    expect(toasts.mock.calls).toEqual([[{ title: 'Success', message: 'Saved successfully.' }]])
  })

  it('answers undefined on a failure, with the destructive toast and the reason kept', async () => {
    const { result } = renderWrite()

    let outcome: unknown = 'not yet'
    await act(async () => {
      outcome = await result.current.run(() =>
        Promise.reject(serverRefusal('save', 'Rates together must not exceed 100')),
      )
    })

    expect(outcome).toBeUndefined()
    expect(result.current.busy).toBe(false)
    expect(result.current.refusal).toBe('Rates together must not exceed 100')
    expect(toasts.mock.calls).toEqual([
      [{ tone: 'error', title: 'Failed', message: 'Failed to save.' }],
    ])
  })

  it('puts the reason in the failure toast when its words are made from it', async () => {
    const { result } = renderWrite({
      success: { title: 'Success', message: 'Order transfer processed' },
      failure: (reason) => ({ title: 'Failed to process transfer', message: reason }),
    })

    await act(async () => {
      await result.current.run(() => Promise.reject(serverRefusal('process', 'Store not found')))
    })
    // A failure that never reached the server has no separate reason: its whole message.
    await act(async () => {
      await result.current.run(() => Promise.reject(new Error('The request timed out')))
    })

    expect(toasts.mock.calls).toEqual([
      [{ tone: 'error', title: 'Failed to process transfer', message: 'Store not found' }],
      [{ tone: 'error', title: 'Failed to process transfer', message: 'The request timed out' }],
    ])
    expect(result.current.refusal).toBe('The request timed out')
  })

  it('puts what the write answered in the success toast when its words are made from it', async () => {
    const { result } = renderHook(() =>
      useWrite<{ listed: number }>({
        success: ({ listed }) => ({ title: 'Products listed', message: `Listed ${listed}.` }),
        failure: { title: 'Failed', message: 'Failed to list.' },
      }),
    )

    await act(async () => {
      await result.current.run(() => Promise.resolve({ listed: 2 }))
    })

    expect(toasts.mock.calls).toEqual([[{ title: 'Products listed', message: 'Listed 2.' }]])
  })

  it('refuses a second run while the first is busy, without a toast', async () => {
    const { result } = renderWrite()
    const first = deferred<string>()
    const second = vi.fn(() => Promise.resolve('second'))

    let refused: unknown = 'not yet'
    await act(async () => {
      void result.current.run(() => first.promise)
      // In the same tick, as a double click would: the state has not rendered yet.
      refused = await result.current.run(second)
    })

    expect(refused).toBeUndefined()
    expect(second).not.toHaveBeenCalled()
    expect(toasts).not.toHaveBeenCalled()

    await act(async () => first.resolve('first'))
    expect(toasts).toHaveBeenCalledTimes(1)

    // Once it is over, the next run goes ahead.
    await act(async () => {
      await result.current.run(second)
    })
    expect(second).toHaveBeenCalledTimes(1)
  })

  it('runs writes with different keys side by side, and refuses one whose key runs', async () => {
    const { result } = renderWrite()
    const lumen = deferred<string>()
    const northwind = deferred<string>()
    const again = vi.fn(() => Promise.resolve('again'))

    act(() => {
      void result.current.run(() => lumen.promise, 'lumen')
      void result.current.run(() => northwind.promise, 'northwind')
    })
    await act(async () => {
      await result.current.run(again, 'lumen')
    })
    expect(again).not.toHaveBeenCalled()
    expect(result.current.isBusy('lumen')).toBe(true)
    expect(result.current.isBusy('northwind')).toBe(true)
    expect(result.current.isBusy('maya')).toBe(false)

    await act(async () => northwind.resolve('done'))
    expect(result.current.isBusy('northwind')).toBe(false)
    expect(result.current.isBusy('lumen')).toBe(true)
    expect(result.current.busy).toBe(true)

    await act(async () => lumen.resolve('done'))
    expect(result.current.busy).toBe(false)
  })

  it('forgets the last refusal when the next write starts, or when told to', async () => {
    const { result } = renderWrite()
    const fail = () => Promise.reject(serverRefusal('save', 'Stripe does not know acct_1'))

    await act(async () => {
      await result.current.run(fail)
    })
    expect(result.current.refusal).toBe('Stripe does not know acct_1')

    const next = deferred<string>()
    act(() => {
      void result.current.run(() => next.promise)
    })
    expect(result.current.refusal).toBeNull()
    await act(async () => next.resolve('saved'))

    await act(async () => {
      await result.current.run(fail)
    })
    act(() => result.current.clearRefusal())
    expect(result.current.refusal).toBeNull()
  })
})
