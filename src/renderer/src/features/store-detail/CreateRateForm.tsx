import { useCallback, useId, useMemo, useState, type FormEvent } from 'react'
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import type { UniqueCommissionRate } from '@shared/contract/entities'
import { ConfirmDialog } from '@renderer/app/ConfirmDialog'
import { useBridge } from '@renderer/lib/bridge'
import { storeName, storeOption } from '@renderer/lib/format'
import { showToast } from '@renderer/lib/toast'
import { useWrite } from '@renderer/lib/useWrite'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { BrandSelect } from './BrandSelect'
import { RateInput } from './RateInput'
import { percent, readRate } from './rates'
import { useRemote } from '@renderer/lib/useRemote'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

interface CreateRateFormProps {
  creatorShop: string
  /** This creator's rates as the list shows them, by brand shop; null until they are read. */
  currentRates: ReadonlyMap<string, number> | null
  onSaved: () => void
}

/**
 * A unique rate for this creator with a brand. The server replaces the pair's rate if it has one,
 * so the brands that have one say their rate, and replacing one asks first and says "updated".
 */
export function CreateRateForm({ creatorShop, currentRates, onSaved }: CreateRateFormProps) {
  const bridge = useBridge()
  const loadStores = useCallback(() => bridge.invoke('adminAllStores'), [bridge])
  const { remote: stores, retry } = useRemote(loadStores)
  const [brand, setBrand] = useState<string | null>(null)
  const [rateInput, setRateInput] = useState('')
  // The rate to replace an existing one with, while the dialog asks.
  const [confirming, setConfirming] = useState<UniqueCommissionRate | null>(null)
  const headingId = useId()
  // Its refusal is the server's sentence when it refused the rate (e.g. with the brand's tandem
  // rate over 100).
  const creation = useWrite({
    success: { title: 'Success', message: 'Commission rate created successfully.' },
    failure: { title: 'Failed', message: 'Commission rate failed to create.' },
  })
  const update = useWrite({
    success: { title: 'Success', message: 'Commission rate updated successfully.' },
    failure: { title: 'Failed', message: 'Commission rate failed to update.' },
  })

  const brandOptions = useMemo(
    () =>
      stores.status === 'ready'
        ? stores.value.filter((store) => store.shopType === 'BRAND').map(storeOption)
        : [],
    [stores],
  )
  const rate = readRate(rateInput)
  const current = brand === null ? undefined : currentRates?.get(brand)
  const busy = creation.busy || update.busy

  const save = async (chosen: UniqueCommissionRate, replacing: boolean) => {
    setConfirming(null)
    const write = replacing ? update : creation
    const answer = await write.run(() =>
      bridge.invoke('adminCreateUniqueCommissionRate', { uniqueCommissionRate: chosen }),
    )
    if (!answer) return
    // Another administrator set one meanwhile: the toast said "created", so say what was replaced.
    if (!replacing && answer.replacedCommissionRate !== null) {
      showToast({
        title: 'Commission rate replaced',
        message: `${storeName(chosen.brandStoreShop)} already had a ${percent(answer.replacedCommissionRate)} rate with this creator; it is now ${percent(chosen.commissionRate)}.`,
      })
    }
    setBrand(null)
    setRateInput('')
    onSaved()
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (brand === null || rate === null || busy) return
    const chosen = { brandStoreShop: brand, creatorStoreShop: creatorShop, commissionRate: rate }
    if (current === undefined) void save(chosen, false)
    else setConfirming(chosen)
  }

  const edit = () => {
    creation.clearRefusal()
    update.clearRefusal()
  }

  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="md" id={headingId}>
        New unique rate
      </Title>
      <form aria-labelledby={headingId} onSubmit={submit}>
        <Stack>
          <BrandSelect
            data={brandOptions}
            value={brand}
            onChange={(value) => {
              setBrand(value)
              edit()
            }}
            disabled={stores.status !== 'ready'}
            description={
              current === undefined
                ? undefined
                : `This creator has a ${percent(current)} rate with this brand: saving replaces it.`
            }
            renderOption={({ option }) => {
              const existing = currentRates?.get(option.value)
              return (
                <Group justify="space-between" wrap="nowrap" w="100%" gap="sm">
                  <div>
                    <Text size="sm">{option.label}</Text>
                    <Text size="xs" c="dimmed">
                      {option.value}
                    </Text>
                  </div>
                  {existing !== undefined && (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      Current rate {percent(existing)}
                    </Text>
                  )}
                </Group>
              )
            }}
          />
          {stores.status === 'failed' && <LoadFailure message={stores.message} onRetry={retry} />}
          <RateInput
            label="Commission rate"
            value={rateInput}
            onChange={(value) => {
              setRateInput(value)
              edit()
            }}
          />
          <RefusalAlert refusal={creation.refusal ?? update.refusal} />
          <Group justify="flex-end">
            <Button type="submit" disabled={brand === null || rate === null} loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        confirmLabel="Replace"
        title="Replace commission rate"
        question={
          confirming === null || current === undefined
            ? null
            : `Replace the ${percent(current)} rate of ${storeName(confirming.brandStoreShop)} with ${percent(confirming.commissionRate)}? This creator's sales of that brand will then earn ${percent(confirming.commissionRate)}.`
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void save(confirming, true)}
      />
    </Card>
  )
}
