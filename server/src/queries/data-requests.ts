import type { DataRequestSummary } from '@shared/contract'
import type { Db } from '../db/connect'
import { readPage, type PageRequest } from '../db/keyset'
import { Refusal } from '../domain/errors'
import { findDataRequestReport } from '../repositories/data-requests'

// The customers' data requests Shopify sent (services/privacy.ts records them): listed newest
// first, and each one's JSON for an administrator to download and send on.

export async function listDataRequests(db: Db, page: PageRequest) {
  const order = { sortedBy: 'received_at', id: 'id', order: 'desc' } as const
  const query = db
    .selectFrom('data_requests')
    .select(['id', 'shop', 'request_id', 'customer_id', 'received_at'])
  const { rows, nextCursor } = await readPage(query, order, page)
  const requests = rows.map((row): DataRequestSummary => ({
    id: row.id,
    shop: row.shop,
    requestId: row.request_id,
    customerId: row.customer_id,
    receivedAt: row.received_at,
  }))
  return { requests, nextCursor }
}

/** The request's JSON, as recorded: what Tandem held on the customer for the shop. */
export async function dataRequestJson(db: Db, id: string): Promise<Uint8Array> {
  const report = await findDataRequestReport(db, id)
  if (report === null) {
    throw new Refusal(
      'not_found',
      `No data request ${id}: pick one from the list of data requests (it may have been erased since)`,
    )
  }
  return new TextEncoder().encode(report)
}
