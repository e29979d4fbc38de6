// A troubled job in words a person reads: its kind, what it acts on, its state and its time.
import type { JobKind, JobState, TroubledJob } from '@shared/contract'
import { EMPTY, formatDateTime, storeName } from '@renderer/lib/format'

export const JOB_KIND_LABELS: Record<JobKind, string> = {
  'shopify-webhook': 'Shopify webhook',
  'transfer-order': 'Automatic transfer',
  'creator-payout': "Creator's commission",
  'order-refund': 'Refund',
  'store-debt': 'Money owed back',
  'brand-product': 'Brand product change',
  'listing-sync': 'Listing sync',
  'brand-shipment': 'Brand shipment',
  'attention-recheck': 'Needs-attention recheck',
  'creator-order-catch-up': 'Creator-order catch-up',
  'refund-catch-up': 'Refund catch-up',
  retention: 'Retention',
}

/** Written as such: Mantine's badges would capitalise it. */
export const JOB_STATE_LABELS: Record<JobState, string> = {
  RETRYING: 'Retrying',
  DEAD: 'Dead',
}

/**
 * A webhook's topic or a creator order's name, and its store by name: "app/uninstalled · maya
 * makes", "#1042 · maya makes"; a dash otherwise.
 */
export const aboutText = ({ about }: TroubledJob): string =>
  about ? `${'topic' in about ? about.topic : about.order} · ${storeName(about.shop)}` : EMPTY

/** A dead job's last failure, or a retrying one's next run. */
export const whenText = (job: TroubledJob): string =>
  `${job.state === 'DEAD' ? 'Failed' : 'Next run'} ${formatDateTime(job.at)}`
