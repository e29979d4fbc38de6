import { createContext, useCallback, useContext } from 'react'
import { Badge, Button, Text, VisuallyHidden } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import type { TroubledJob } from '@shared/contract'
import { PageHeading } from '@renderer/app/PageHeading'
import { useBridge } from '@renderer/lib/bridge'
import { PagedTable, type TableSpec } from '@renderer/lib/PagedTable'
import type { CursorPage } from '@renderer/lib/useCursorPages'
import { useListRefresh } from '@renderer/lib/useListRefresh'
import { useWrite } from '@renderer/lib/useWrite'
import { aboutText, JOB_KIND_LABELS, JOB_STATE_LABELS, whenText } from './job-text'

/**
 * /main/jobs: the background jobs that failed (docs/product-rules.md "The console's screens"),
 * those waiting for their next retry and the dead ones, each dead one with Retry. The server
 * answers the list whole: one page.
 */
export default function JobsPage() {
  const bridge = useBridge()
  const fetchPage = useCallback(async (): Promise<CursorPage<TroubledJob>> => {
    const { jobs } = await bridge.invoke('adminTroubledJobs')
    return { items: jobs, nextCursor: null }
  }, [bridge])

  // After a retry the list is read again: the job waits for its run, or runs, or is dead again.
  const { refreshOn, refreshList } = useListRefresh()
  const write = useWrite({
    success: { title: 'Job retried', message: 'It runs once more.' },
    failure: (message) => ({ title: 'Failed to retry job', message }),
  })
  const retry = async (job: TroubledJob) => {
    const retried = await write.run(() => bridge.invoke('adminRetryJob', { id: job.id }), job.id)
    if (retried) refreshList()
  }

  return (
    <>
      <PageHeading>Jobs</PageHeading>
      <Text c="dimmed" size="sm" mb="md">
        Background work that failed. A retrying job runs again by itself; a dead one has used its
        retries and waits for you to retry it.
      </Text>
      <RetryAction.Provider value={{ retry, isBusy: write.isBusy }}>
        <PagedTable table={JOBS_TABLE} fetchPage={fetchPage} refreshOn={refreshOn} />
      </RetryAction.Provider>
    </>
  )
}

/** The page's retry, for the rows' buttons: the table's columns are a module constant. */
const RetryAction = createContext<{
  retry: (job: TroubledJob) => Promise<void>
  isBusy: (id: string) => boolean
}>({ retry: async () => {}, isBusy: () => false })

function RetryButton({ job }: { job: TroubledJob }) {
  const { retry, isBusy } = useContext(RetryAction)
  if (job.state !== 'DEAD') return null
  return (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconRefresh size={14} />}
      loading={isBusy(job.id)}
      aria-label={`Retry ${JOB_KIND_LABELS[job.kind]} job ${job.id}`}
      onClick={() => void retry(job)}
    >
      Retry
    </Button>
  )
}

/** A job's row and its error's first line, as first guessed before they are measured (px). */
const ROW_HEIGHT = 56
const ERROR_LINE_HEIGHT = 30

const JOBS_TABLE: TableSpec<TroubledJob> = {
  label: 'Failed jobs',
  empty: 'Nothing is failing: every background job ran.',
  noun: ['job', 'jobs'],
  rowKey: (job) => job.id,
  // What the administrator came for, whole under its job at any width: never cut short in a cell.
  detail: {
    render: (job) => (
      <Text size="sm" c="red" pb="xs" style={{ overflowWrap: 'anywhere' }}>
        {job.errorMessage}
      </Text>
    ),
    estimateHeight: () => ROW_HEIGHT + ERROR_LINE_HEIGHT,
  },
  heightAbove: '11rem',
  columns: [
    {
      header: 'Job',
      text: (job) => JOB_KIND_LABELS[job.kind],
      title: (job) => `${JOB_KIND_LABELS[job.kind]} ${job.id}`,
      strong: true,
      width: 150,
    },
    { header: 'About', text: aboutText, title: (job) => job.about?.shop, width: 160, fold: true },
    {
      header: 'State',
      width: 96,
      cell: (job) => (
        <Badge variant="light" color={job.state === 'DEAD' ? 'red' : 'orange'}>
          {JOB_STATE_LABELS[job.state]}
        </Badge>
      ),
    },
    { header: 'Runs', text: (job) => String(job.attempts), width: 64, align: 'right' },
    { header: 'When', text: whenText, width: 224, fold: true },
    {
      header: <VisuallyHidden>Retry</VisuallyHidden>,
      width: 104,
      cell: (job) => <RetryButton job={job} />,
    },
  ],
}
