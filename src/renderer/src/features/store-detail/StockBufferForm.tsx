import { useState, type FormEvent } from 'react'
import { Button, Group, NumberInput, Stack } from '@mantine/core'
import { calls } from '@shared/contract'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { brokenRules } from '@renderer/lib/format'
import { useWrite } from '@renderer/lib/useWrite'

/** The contract's rule for a stock buffer: a whole number of units, 0 to 100,000. */
const Units = calls.adminSetStockBuffer.body.shape.units

interface StockBufferFormProps {
  shop: string
  /** The buffer the server has (0 unless one was set); null would be none at all. */
  current: number | null
  onSaved: (stockBuffer: number) => void
}

/**
 * The units of each variant a brand keeps back from creator stores: they are offered its stock less
 * this many, so that the brand's own store does not sell out under them.
 */
export function StockBufferForm({ shop, current, onSaved }: StockBufferFormProps) {
  const bridge = useBridge()
  // What a NumberInput holds: a string while it is empty or half-typed.
  const [units, setUnits] = useState<number | string>(current ?? '')
  const [invalid, setInvalid] = useState<string | null>(null)
  const write = useWrite({
    success: { title: 'Success', message: 'Stock buffer saved.' },
    failure: (reason) => ({ title: 'Failed to set stock buffer', message: reason }),
  })

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy) return
    const parsed = Units.safeParse(units)
    if (!parsed.success) {
      setInvalid(brokenRules(parsed.error))
      return
    }
    const saved = await write.run(() =>
      bridge.invoke('adminSetStockBuffer', { brandStoreShop: shop, units: parsed.data }),
    )
    if (saved) onSaved(saved.stockBuffer)
  }

  return (
    <form onSubmit={(event) => void save(event)} aria-label="Stock buffer" noValidate>
      <Stack gap="sm" maw={480}>
        <NumberInput
          label="Units kept back from creator stores"
          description="Creator stores are offered each variant's stock less this many units."
          value={units}
          onChange={(value) => {
            setUnits(value)
            setInvalid(null)
            write.clearRefusal()
          }}
          min={0}
          allowNegative={false}
          allowDecimal={false}
          clampBehavior="none"
          error={invalid}
        />
        <RefusalAlert refusal={write.refusal} mb={0} />
        <Group justify="flex-end">
          <Button type="submit" disabled={units === ''} loading={write.busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
