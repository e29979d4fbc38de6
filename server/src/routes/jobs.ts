import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { listTroubledJobs, retryDeadJob } from '../services/troubled-jobs'

export const jobRoutes = (deps: RouteDeps) =>
  ({
    adminTroubledJobs: () => listTroubledJobs(deps),
    adminRetryJob: ({ body, actor, log }) =>
      retryDeadJob(deps, actor, body.id, (err) =>
        log.error({ err, job: body.id }, 'the audit log could not record a job retry'),
      ),
  }) satisfies Partial<CallRoutes>
