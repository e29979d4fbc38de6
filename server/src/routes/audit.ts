import type { FastifyInstance } from 'fastify'
import { listAuditEntries } from '../audit/audit-log'
import type { RouteDeps } from '../deps'
import { pageLimit } from '../domain/page-cursor'
import { defineRoute } from '../http/route'

export function registerAuditRoutes(app: FastifyInstance, deps: RouteDeps): void {
  defineRoute(app, 'adminAuditLog', ({ query }) =>
    listAuditEntries(deps.db, { cursor: query.cursor, limit: pageLimit(query.limit) }),
  )
}
