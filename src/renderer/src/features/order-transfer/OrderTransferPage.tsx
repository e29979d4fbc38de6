import { useEffect, useEffectEvent, useMemo, useRef, useState, type FormEvent } from 'react'
import { Alert, Button, Group, Stack, Tabs, Text, TextInput } from '@mantine/core'
import { useLocation, useSearchParams } from 'react-router'
import { PageHeading } from '@renderer/app/PageHeading'
import { ConfirmDialog } from '@renderer/app/ConfirmDialog'
import { formatDateTime, formatMoney, plural, storeName } from '@renderer/lib/format'
import { TransferStatusBadge } from '@renderer/features/orders/TransferStatusBadge'
import { OVERRIDES, OverrideDialog, type Override } from './OverrideDialog'
import { ReceiptPanel } from './ReceiptPanel'
import { TransferReadiness } from './TransferReadiness'
import { TransferSummary } from './TransferSummary'
import { useOrderTransfer, type PreviewAnswer, type TransferTab } from './useOrderTransfer'

const CONFIRM_QUESTION = 'This will create the brand orders and finalize the transfer. Continue?'

/**
 * The specification's question, after what it moves (from the preview on screen): "Pays 2 brands
 * $137.70 in all (northwind apparel $102.00, lumen botanicals $35.70)." The amounts are those the
 * Stripe transfers move, in the currency the order's charge settled in; when that is not the
 * order's, the order's amount follows with Stripe's rate: "Pays 1 brand $53.94 in all (northwind
 * apparel $53.94): the order's €46.50 at the charge's rate, 1 EUR = 1.16 USD."
 */
function confirmQuestion({ preview }: PreviewAnswer): string {
  const brands = plural(preview.brands.length, 'brand', 'brands')
  const inOrder = (amount: string) => formatMoney(amount, preview.currency)
  const settled = preview.settledTotals
  const converted = settled && settled.currency !== preview.currency ? settled : null
  const rate = converted && preview.brands.find((brand) => brand.settlement)?.settlement
  if (!converted || !rate) {
    const each = preview.brands
      .map((brand) => `${storeName(brand.brandStoreShop)} ${inOrder(brand.brandAmount)}`)
      .join(', ')
    return `Pays ${brands} ${inOrder(preview.totals.totalBrandAmount)} in all (${each}). ${CONFIRM_QUESTION}`
  }
  const moved = (amount: string) => formatMoney(amount, converted.currency)
  const each = preview.brands
    .map(
      (brand) =>
        `${storeName(brand.brandStoreShop)} ${brand.settlement ? moved(brand.settlement.brandAmount) : inOrder(brand.brandAmount)}`,
    )
    .join(', ')
  return (
    `Pays ${brands} ${moved(converted.totalBrandAmount)} in all (${each}): the order's ` +
    `${inOrder(preview.totals.totalBrandAmount)} at the charge's rate, 1 ${preview.currency} = ` +
    `${rate.exchangeRate} ${converted.currency}. ${CONFIRM_QUESTION}`
  )
}
/** The query parameter other pages open this one with ("Preview transfer" on /main/orders). */
const ORDER_ID_PARAM = 'creatorOrderId'

/** /main/create-order-transfer: preview a creator order's transfer, its receipt, then process it. */
export default function OrderTransferPage() {
  const transfer = useOrderTransfer()
  const { preview, receipt } = transfer
  const requestedId = useRequestedOrderId()
  const [orderIdInput, setOrderIdInput] = useState(requestedId?.orderId ?? '')
  const [confirming, setConfirming] = useState(false)
  const [overriding, setOverriding] = useState<{ override: Override; orderId: string } | null>(null)

  // Opened with ?creatorOrderId=…: the ID is filled in (above, or here when another navigation
  // brings one to the open page) and sent, once per navigation, as if typed and sent by hand.
  const [filledFor, setFilledFor] = useState(requestedId?.navigation ?? null)
  if (requestedId && requestedId.navigation !== filledFor) {
    setFilledFor(requestedId.navigation)
    setOrderIdInput(requestedId.orderId)
  }
  const sentFor = useRef<string | null>(null)
  const sendRequested = useEffectEvent((orderId: string) => void transfer.send(orderId))
  useEffect(() => {
    // A ref, not state: StrictMode's second run of this effect must not send again.
    if (!requestedId || sentFor.current === requestedId.navigation) return
    sentFor.current = requestedId.navigation
    sendRequested(requestedId.orderId)
  }, [requestedId])

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void transfer.send(orderIdInput)
  }

  const clear = () => {
    setOrderIdInput('')
    transfer.clear()
  }

  const confirmProcessing = () => {
    setConfirming(false)
    void transfer.process()
  }

  return (
    <>
      <PageHeading>Create Order Transfer</PageHeading>
      <Stack>
        <form onSubmit={send} aria-label="Creator order">
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Creator order ID"
              placeholder="#1001, 1001 or gid://shopify/Order/1001"
              value={orderIdInput}
              // Until the text it was about is changed.
              error={
                transfer.fieldError?.typed === orderIdInput.trim()
                  ? transfer.fieldError.message
                  : undefined
              }
              onChange={(event) => setOrderIdInput(event.currentTarget.value)}
              w={{ base: '100%', xs: 320 }}
            />
            {/* Not while processing: the preview must stay that of the order being processed. */}
            <Button type="submit" disabled={transfer.sending || transfer.processing}>
              {transfer.sending ? 'Sending...' : 'Send'}
            </Button>
            <Button variant="default" onClick={clear}>
              Clear
            </Button>
          </Group>
        </form>

        {preview.status !== 'empty' && (
          // Another order's standing never shows beside this one's preview, even for a moment.
          <TransferReadiness key={preview.orderId} preview={preview} />
        )}

        <Tabs
          value={transfer.tab}
          onChange={(value) => transfer.chooseTab(value === 'receipt' ? 'receipt' : 'summary')}
          // The viewer measures its width to fit the page: it is drawn when its tab opens.
          keepMounted={false}
        >
          <Group justify="space-between" align="flex-end" mb="md" wrap="wrap-reverse">
            <Tabs.List>
              <Tabs.Tab value={'summary' satisfies TransferTab}>Summary</Tabs.Tab>
              <Tabs.Tab value={'receipt' satisfies TransferTab}>Receipt</Tabs.Tab>
            </Tabs.List>
            {preview.status === 'loaded' && (
              <Group gap="sm">
                <TransferStanding answer={preview.answer} />
                <Button
                  color="red"
                  onClick={() => setConfirming(true)}
                  loading={transfer.processing}
                  // A completed transfer cannot be processed again; a partial one resumes.
                  disabled={transfer.sending || preview.answer.preview.status === 'COMPLETED'}
                >
                  Process transfer
                </Button>
              </Group>
            )}
          </Group>

          <Tabs.Panel value="summary">
            {preview.status === 'empty' && <NothingPreviewed />}
            {preview.status === 'failed' && (
              // Titled with what happened, in an administrator's words; the toast keeps the
              // specification's "Failed to fetch preview".
              <Alert
                color="red"
                variant="light"
                title={`Tandem cannot transfer creator order ${preview.orderId}`}
                maw={640}
              >
                {preview.message}
                <OverridesOffered
                  message={preview.message}
                  onChoose={(override) => setOverriding({ override, orderId: preview.orderId })}
                />
              </Alert>
            )}
            {preview.status === 'loaded' && <TransferSummary answer={preview.answer} />}
          </Tabs.Panel>
          <Tabs.Panel value="receipt">
            {preview.status === 'loaded' ? (
              <ReceiptPanel
                orderName={preview.answer.creatorOrder.name}
                receipt={receipt}
                onRetry={transfer.retryReceipt}
              />
            ) : (
              <NothingPreviewed />
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>

      <OverrideDialog
        open={overriding}
        onClose={() => setOverriding(null)}
        onDone={(orderId) => {
          setOverriding(null)
          void transfer.send(orderId)
        }}
      />
      <ConfirmDialog
        title="Confirm processing transfer"
        question={
          confirming && preview.status === 'loaded' ? confirmQuestion(preview.answer) : null
        }
        confirmLabel="Confirm"
        onCancel={() => setConfirming(false)}
        onConfirm={confirmProcessing}
      />
    </>
  )
}

/** The order ID this navigation asked for, if any, and the navigation (its location key). */
function useRequestedOrderId(): { orderId: string; navigation: string } | null {
  const [searchParams] = useSearchParams()
  const { key } = useLocation()
  const orderId = searchParams.get(ORDER_ID_PARAM)
  // Memoized by value, so that the effect above reruns only for a new navigation.
  return useMemo(() => (orderId === null ? null : { orderId, navigation: key }), [orderId, key])
}

/** A button for each override the refusal says an administrator may make (its hint). */
function OverridesOffered({
  message,
  onChoose,
}: {
  message: string
  onChoose: (override: Override) => void
}) {
  const offered = (Object.keys(OVERRIDES) as Override[]).filter((override) =>
    message.includes(OVERRIDES[override].hint),
  )
  if (offered.length === 0) return null
  return (
    <Group mt="sm">
      {offered.map((override) => (
        <Button key={override} size="xs" variant="default" onClick={() => onChoose(override)}>
          {OVERRIDES[override].title}
        </Button>
      ))}
    </Group>
  )
}

function NothingPreviewed() {
  return <Text c="dimmed">Enter a creator order ID and press Send to preview its transfer.</Text>
}

/**
 * Where the transfer stands, beside the button that moves it on: the status in the words Orders
 * and Transfer history use, and when it was processed.
 */
function TransferStanding({ answer }: { answer: PreviewAnswer }) {
  const { status, processedAt } = answer.preview
  return (
    <Group gap="xs">
      <TransferStatusBadge status={status} />
      {processedAt && (
        <Text size="sm" c="dimmed">
          Processed {formatDateTime(processedAt)}
        </Text>
      )}
    </Group>
  )
}
