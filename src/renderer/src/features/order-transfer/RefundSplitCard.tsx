import { useState } from 'react'
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core'
import { refundUnitsRule, type LineItem, type RefundSplitPreview } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { NumberField, readNumberField } from '@renderer/app/NumberField'
import { failureReason, useBridge } from '@renderer/lib/bridge'
import { formatMoney, plural, storeName } from '@renderer/lib/format'
import { lineTitle } from './line-title'
import { SummaryCard, SummaryTable } from './SummaryCard'
import type { PreviewAnswer } from './useOrderTransfer'

type SplitState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; split: RefundSplitPreview; units: number }
  | { status: 'failed'; reason: string }

/** The units a line still sells: what a refund may still take. */
const stillSold = (line: LineItem) => line.currentQuantity ?? line.quantity ?? 0

/**
 * A refund's split before it runs (issue 33), on a completed transfer: the administrator chooses
 * units of the brands' lines, and sees what refunding them too would take back from each brand,
 * the creator and Tandem, and what each would keep. Nothing is refunded here.
 */
export function RefundSplitCard({ answer }: { answer: PreviewAnswer }) {
  const bridge = useBridge()
  const { creatorOrder } = answer
  const lines = creatorOrder.lineItems.nodes.filter((line) => line.brandStoreShop !== null)
  // The units typed for each line, as typed; an empty field chooses none.
  const [typed, setTyped] = useState<Record<string, string>>({})
  const [state, setState] = useState<SplitState>({ status: 'idle' })
  const chosen = lines.map((line) => ({
    lineItemId: line.id,
    units: readNumberField(refundUnitsRule(stillSold(line)), typed[line.id] ?? '').value,
  }))
  // A refused field keeps the split from being asked for until it is corrected.
  const refused = chosen.some(
    ({ lineItemId, units }) => units === null && (typed[lineItemId] ?? '').trim() !== '',
  )

  const choose = (lineItemId: string, text: string) => {
    setTyped((before) => ({ ...before, [lineItemId]: text }))
    // A split shown is always that of the units chosen.
    setState({ status: 'idle' })
  }

  const preview = async () => {
    if (refused) return
    const refunded = chosen.flatMap(({ lineItemId, units }) =>
      units ? [{ lineItemId, quantity: units }] : [],
    )
    setState({ status: 'loading' })
    try {
      const split = await bridge.invoke('adminPreviewRefundSplit', {
        creatorOrderId: creatorOrder.id,
        lines: refunded,
      })
      const units = refunded.reduce((sum, line) => sum + line.quantity, 0)
      setState({ status: 'ready', split, units })
    } catch (error) {
      setState({ status: 'failed', reason: failureReason(error) })
    }
  }

  return (
    <SummaryCard title="Refund split">
      <Stack>
        <Text size="sm">
          Choose units to refund to see what would go back from each brand, the creator and{' '}
          {PRODUCT_NAME}, at the rates frozen when the transfer ran, with the refunds already made.
          Nothing is refunded here.
        </Text>
        <SummaryTable
          columns={['Line', 'Still sold', 'Units to refund']}
          numericFrom={1}
          minWidth={420}
        >
          {lines.map((line) => (
            <Table.Tr key={line.id}>
              <Table.Td>
                <Text size="sm">{lineTitle(line)}</Text>
                <Text size="xs" c="dimmed">
                  From {storeName(line.brandStoreShop!)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{stillSold(line)}</Table.Td>
              <Table.Td>
                <NumberField
                  rule={refundUnitsRule(stillSold(line))}
                  aria-label={`Units of ${lineTitle(line)} to refund`}
                  placeholder="0"
                  value={typed[line.id] ?? ''}
                  onChange={(text) => choose(line.id, text)}
                  disabled={stillSold(line) === 0}
                  // The field stays narrow in its column; a refusal under it may take more width.
                  maw={240}
                  ml="auto"
                  styles={{
                    input: { width: 96, marginLeft: 'auto' },
                    error: { textAlign: 'right' },
                  }}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </SummaryTable>
        <Group>
          <Button
            variant="default"
            loading={state.status === 'loading'}
            disabled={refused}
            onClick={() => void preview()}
          >
            Preview refund split
          </Button>
        </Group>
        {state.status === 'failed' && (
          <Alert color="red" variant="light" title="Failed to preview refund split">
            {state.reason}
          </Alert>
        )}
        {state.status === 'ready' && (
          <SplitTable
            split={state.split}
            units={state.units}
            creatorStoreShop={creatorOrder.creatorStoreShop}
            waiting={answer.preview.refundWaiting !== null}
          />
        )}
      </Stack>
    </SummaryCard>
  )
}

/** What goes back from each brand, the creator and Tandem, and what each keeps. */
function SplitTable({
  split,
  units,
  creatorStoreShop,
  waiting,
}: {
  split: RefundSplitPreview
  units: number
  creatorStoreShop: string
  /** A refund made waits on Stripe: what it takes back has not gone back yet. */
  waiting: boolean
}) {
  const money = (amount: string) => formatMoney(amount, split.currency)
  const { back, kept } = split.totals
  const rows: [party: string, back: string, kept: string][] = [
    ...split.brands.map((brand): [string, string, string] => [
      `${storeName(brand.brandStoreShop)}, the brand (${plural(brand.refundedUnits, 'unit', 'units')} refunded)`,
      brand.back.brandAmount,
      brand.kept.brandAmount,
    ]),
    [
      `${storeName(creatorStoreShop)}, the creator`,
      back.creatorCommissionAmount,
      kept.creatorCommissionAmount,
    ],
    [`${PRODUCT_NAME}, the platform`, back.tandemCommissionAmount, kept.tandemCommissionAmount],
  ]
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {units > 0
          ? `Refunding ${plural(units, 'more unit', 'more units')} would take back, with the refunds already made:`
          : waiting
            ? 'The refunds already made will take back, once their refund goes through (the money trail says why it waits):'
            : 'The refunds already made take back:'}
      </Text>
      <SummaryTable columns={['Party', 'Goes back', 'Keeps']} numericFrom={1} minWidth={420}>
        {rows.map(([party, goesBack, keeps]) => (
          <Table.Tr key={party}>
            <Table.Td>{party}</Table.Td>
            <Table.Td ta="right">{money(goesBack)}</Table.Td>
            <Table.Td ta="right">{money(keeps)}</Table.Td>
          </Table.Tr>
        ))}
      </SummaryTable>
    </Stack>
  )
}
