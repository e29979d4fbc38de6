import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import type { TroubledJob } from '@shared/contract'
import { formatDateTime } from '@renderer/lib/format'
import { SIGNED_IN, fakeBridge, serverRefusal, type FakeAnswers } from './support/fake-bridge'
import { renderApp } from './support/render-app'
import { cellTexts, rowOf, layOutAsInAWindow } from './support/table'
import { expectToast } from './support/toasts'

// docs/product-rules.md "The console's screens": /main/jobs, the background jobs that failed.

layOutAsInAWindow()

const DEAD_WEBHOOK: TroubledJob = {
  id: 'job-1',
  kind: 'shopify-webhook',
  state: 'DEAD',
  about: { shop: 'maya-makes.myshopify.com', topic: 'app/uninstalled' },
  attempts: 11,
  errorMessage: 'Shopify did not answer AppInstalled for maya-makes.myshopify.com (HTTP 500)',
  at: '2026-11-20T10:00:00.000Z',
}
const RETRYING_RETENTION: TroubledJob = {
  id: 'job-2',
  kind: 'retention',
  state: 'RETRYING',
  about: null,
  attempts: 1,
  errorMessage: 'The database was busy',
  at: '2026-11-20T11:00:00.000Z',
}

function renderJobs(answers: FakeAnswers = {}) {
  const fake = fakeBridge({
    'session/status': () => SIGNED_IN,
    adminTroubledJobs: () => ({ jobs: [DEAD_WEBHOOK, RETRYING_RETENTION] }),
    ...answers,
  })
  renderApp(fake.bridge, '/main/jobs')
  return fake
}

/** Waits for the table's rows. */
const jobRows = async () => {
  await within(await screen.findByRole('table', { name: 'Failed jobs' })).findByText(
    'Shopify webhook',
  )
}

/** The text of the row under a job's: its error, in one cell across the table. */
const errorUnder = (jobRow: HTMLElement) => {
  const cells = cellTexts(jobRow.nextElementSibling as HTMLElement)
  expect(cells).toHaveLength(1)
  return cells[0]
}

const retryButton = () => screen.getByRole('button', { name: 'Retry Shopify webhook job job-1' })

describe('Jobs', () => {
  it('lists each failed job: its kind, what it is about, its state, runs and time, its error whole under it', async () => {
    renderJobs()

    expect(await screen.findByRole('heading', { name: 'Jobs' })).toBeInTheDocument()
    await jobRows()
    const webhook = rowOf('Shopify webhook')
    expect(cellTexts(webhook)).toEqual([
      'Shopify webhook',
      'app/uninstalled · maya makes',
      'Dead',
      '11',
      `Failed ${formatDateTime('2026-11-20T10:00:00.000Z')}`,
      'Retry',
    ])
    // The error, across the columns under its job: never cut short in a cell.
    expect(errorUnder(webhook)).toBe(
      'Shopify did not answer AppInstalled for maya-makes.myshopify.com (HTTP 500)',
    )
    // A retrying job runs again by itself: no Retry.
    const retention = rowOf('Retention')
    expect(cellTexts(retention)).toEqual([
      'Retention',
      '—',
      'Retrying',
      '1',
      `Next run ${formatDateTime('2026-11-20T11:00:00.000Z')}`,
      '',
    ])
    expect(errorUnder(retention)).toBe('The database was busy')
    expect(screen.getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page')
  })

  it('folds what a job is about and when under it in a 700 px window, each value whole', async () => {
    // The table is 700 px wide, and told so as a browser's ResizeObserver would tell it.
    const width = vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(700)
    onTestFinished(() => void width.mockReturnValue(1000))
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly changed: (entries: unknown[], observer: unknown) => void) {}
        observe() {
          this.changed([], this)
        }
        unobserve() {}
        disconnect() {}
      },
    )
    onTestFinished(() => void vi.unstubAllGlobals())
    renderJobs()
    await jobRows()

    const webhook = rowOf('Shopify webhook')
    const failed = `Failed ${formatDateTime('2026-11-20T10:00:00.000Z')}`
    expect(cellTexts(webhook)).toEqual([
      `Shopify webhookapp/uninstalled · maya makes · ${failed}`,
      'Dead',
      '11',
      'Retry',
    ])
    // Each folded value breaks onto the next line whole, never cut short ("Nov 20, …").
    for (const value of ['app/uninstalled · maya makes', failed]) {
      const shown = within(webhook).getByText(value)
      expect(shown.className).toMatch(/folded/)
      expect(shown.closest('[data-truncate]')).toBeNull()
    }
  })

  it("names an automatic transfer's order and store", async () => {
    const transfer: TroubledJob = {
      id: 'job-3',
      kind: 'transfer-order',
      state: 'RETRYING',
      about: { shop: 'maya-makes.myshopify.com', order: '#1042' },
      attempts: 2,
      errorMessage: 'Transfer create failed for northwind-apparel.myshopify.com',
      at: '2026-11-20T12:00:00.000Z',
    }
    renderJobs({ adminTroubledJobs: () => ({ jobs: [transfer] }) })

    await within(await screen.findByRole('table', { name: 'Failed jobs' })).findByText(
      'Automatic transfer',
    )
    expect(cellTexts(rowOf('Automatic transfer')).slice(0, 3)).toEqual([
      'Automatic transfer',
      '#1042 · maya makes',
      'Retrying',
    ])
  })

  it('says that nothing is failing when no job is', async () => {
    renderJobs({ adminTroubledJobs: () => ({ jobs: [] }) })

    expect(
      await screen.findByText('Nothing is failing: every background job ran.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('retries a dead job, says so, and reads the list again', async () => {
    let retried = false
    const fake = renderJobs({
      adminTroubledJobs: () => ({
        jobs: retried ? [{ ...DEAD_WEBHOOK, state: 'RETRYING' }] : [DEAD_WEBHOOK],
      }),
      adminRetryJob: () => {
        retried = true
        return { id: 'job-1', kind: 'shopify-webhook' }
      },
    })
    await jobRows()

    await userEvent.click(retryButton())

    await expectToast('Job retried', 'It runs once more.')
    expect(fake.callsTo('adminRetryJob').map((call) => call.args)).toEqual([{ id: 'job-1' }])
    expect(await within(rowOf('Shopify webhook')).findByText('Retrying')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument()
  })

  it('shows why the server refused a retry', async () => {
    const reason = 'Job job-1 is not dead: it runs again by itself at 2026-11-20T12:00:00.000Z.'
    renderJobs({
      adminRetryJob: () => {
        throw serverRefusal('retry job', reason)
      },
    })
    await jobRows()

    await userEvent.click(retryButton())

    await expectToast('Failed to retry job', reason, 'error')
  })
})
