import { ConfirmDialog } from '@renderer/app/ConfirmDialog'
import { useCallback, useMemo, useState } from 'react'
import { Button, Card, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core'
import type { UniqueCommissionRate } from '@shared/contract/entities'
import { useBridge } from '@renderer/lib/bridge'
import { storeName } from '@renderer/lib/format'
import { useWrite } from '@renderer/lib/useWrite'
import { CreateRateForm } from './CreateRateForm'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { percent } from './rates'
import { useRemote } from '@renderer/lib/useRemote'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

/** A creator's page: its unique commission rates, one per brand, to create and delete. */
export function CreatorRates({ shop }: { shop: string }) {
  const bridge = useBridge()
  // No brandShop: the rates of this creator with any brand.
  const load = useCallback(
    () => bridge.invoke('adminGetUniqueCommissionRates', { creatorShop: shop }),
    [bridge, shop],
  )
  const { remote, retry, refresh } = useRemote(load)
  const currentRates = useMemo(
    () =>
      remote.status === 'ready'
        ? new Map(
            remote.value.uniqueCommissionRates.map((rate) => [
              rate.brandStoreShop,
              rate.commissionRate,
            ]),
          )
        : null,
    [remote],
  )

  return (
    <Stack maw={720}>
      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="md">
          Unique commission rates
        </Title>
        {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
        {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
        {remote.status === 'ready' && (
          <RatesTable rates={remote.value.uniqueCommissionRates} onDeleted={refresh} />
        )}
      </Card>
      <CreateRateForm creatorShop={shop} currentRates={currentRates} onSaved={refresh} />
    </Stack>
  )
}

interface RatesTableProps {
  rates: UniqueCommissionRate[]
  onDeleted: () => void
}

function RatesTable({ rates, onDeleted }: RatesTableProps) {
  const bridge = useBridge()
  const [confirming, setConfirming] = useState<UniqueCommissionRate | null>(null)
  // One delete per brand, several at once; its refusal is the server's sentence when a delete
  // failed, and the row stays.
  const deletion = useWrite({
    success: { title: 'Success', message: 'Commission rate deleted successfully.' },
    failure: { title: 'Failed', message: 'Commission rate failed to delete.' },
  })

  const remove = async ({ brandStoreShop, creatorStoreShop }: UniqueCommissionRate) => {
    setConfirming(null)
    const deleted = await deletion.run(
      () =>
        bridge.invoke('adminDeleteUniqueCommissionRate', {
          brandShop: brandStoreShop,
          creatorShop: creatorStoreShop,
        }),
      brandStoreShop,
    )
    if (deleted) onDeleted()
  }

  if (rates.length === 0) return <Text c="dimmed">No unique commission rates yet.</Text>

  return (
    <>
      <RefusalAlert refusal={deletion.refusal} mb="md" />
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Brand</Table.Th>
            <Table.Th>Rate</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rates.map((rate) => (
            <Table.Tr key={rate.brandStoreShop}>
              <Table.Td>
                <Text fw={500}>{storeName(rate.brandStoreShop)}</Text>
                <Text size="sm" c="dimmed">
                  {rate.brandStoreShop}
                </Text>
              </Table.Td>
              <Table.Td>{percent(rate.commissionRate)}</Table.Td>
              <Table.Td ta="right">
                <Button
                  variant="light"
                  color="red"
                  size="xs"
                  aria-label={`Delete ${storeName(rate.brandStoreShop)} rate`}
                  loading={deletion.isBusy(rate.brandStoreShop)}
                  onClick={() => setConfirming(rate)}
                >
                  Delete
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ConfirmDialog
        confirmLabel="Delete"
        title="Delete commission rate"
        question={
          confirming === null
            ? null
            : `Delete the ${percent(confirming.commissionRate)} rate of ${storeName(confirming.brandStoreShop)}? This creator's sales of that brand will then earn the brand's default creator commission.`
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void remove(confirming)}
      />
    </>
  )
}
