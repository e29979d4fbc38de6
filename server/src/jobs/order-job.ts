import type { JobExecutor, JobQueue } from './job-queue'

// The jobs whose payload names one creator order and nothing else (a creator's commission, the
// order's refunds): what the Jobs page shows them about, and how they are sent.

export interface OrderJob {
  creatorOrderId: string
}

/**
 * How jobs of `name` are sent, within the caller's transaction. Without a singleton key: a job
 * sent while another of the order's runs (or lies orphaned by a dead process) runs once the
 * other's lease has run out, rather than being dropped; the work's own lease keeps two runs from
 * acting at once.
 */
export const orderJobSender =
  (name: string) => (deps: { jobs: JobQueue }, within: JobExecutor, creatorOrderId: string) =>
    deps.jobs.send(name, { creatorOrderId } satisfies OrderJob, { within })
