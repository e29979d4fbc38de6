import { LoadFailure } from '@renderer/app/LoadFailure'
import { useState } from 'react'
import { Button, Group, Stack, Tabs, Text } from '@mantine/core'
import type { AppUrls, ShopType } from '@shared/contract'
import type { AppConfigView } from '@shared/ipc'
import { PageHeading } from '@renderer/app/PageHeading'
import { AddConfigForm } from './AddConfigForm'
import { ConfigsTable } from './ConfigsTable'
import { emptyConfigForm, type ConfigFormValues } from './config-form'
import { UrlConfiguration } from './UrlConfiguration'
import { useAppConfigs, type AppConfigs } from './useAppConfigs'

const TABS: { type: ShopType; label: string; empty: string }[] = [
  { type: 'BRAND', label: 'Brands', empty: 'No brand app configs yet.' },
  { type: 'CREATOR', label: 'Creators', empty: 'No creator app configs yet.' },
]

/** /main/configs: the Shopify app config of each shop, by shop type, and the apps' URLs. */
export default function ConfigsPage() {
  const appConfigs = useAppConfigs()
  const { data } = appConfigs

  return (
    <>
      <PageHeading>Configs</PageHeading>
      {data.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {data.status === 'failed' && (
        <LoadFailure message={data.message} onRetry={appConfigs.retry} />
      )}
      {data.status === 'ready' && (
        <LoadedConfigs
          appConfigs={appConfigs}
          configs={data.value.configs}
          appUrls={data.value.appUrls}
        />
      )}
    </>
  )
}

interface LoadedConfigsProps {
  appConfigs: AppConfigs
  configs: AppConfigView[]
  appUrls: AppUrls
}

/** The screen toggles between the list of a tab and the add form (docs/product-rules.md). */
function LoadedConfigs({ appConfigs, configs, appUrls }: LoadedConfigsProps) {
  const [tab, setTab] = useState<ShopType>('BRAND')
  // The form's values live here while it is open, for the URL card to follow its shop type.
  const [form, setForm] = useState<ConfigFormValues | null>(null)

  const created = (config: AppConfigView) => {
    appConfigs.added(config)
    setForm(null)
    // The new row is on its own type's tab.
    setTab(config.shopType)
  }

  return (
    <Stack>
      <Tabs
        value={tab}
        onChange={(value) => setTab(value === 'CREATOR' ? 'CREATOR' : 'BRAND')}
        keepMounted={false}
      >
        <Group justify="space-between" align="flex-end" mb="md">
          <Tabs.List>
            {TABS.map(({ type, label }) => (
              <Tabs.Tab key={type} value={type} disabled={form !== null}>
                {label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Button disabled={form !== null} onClick={() => setForm(emptyConfigForm(tab))}>
            Add Config
          </Button>
        </Group>
        {TABS.map(({ type, empty }) => (
          <Tabs.Panel key={type} value={type}>
            {form !== null ? (
              <AddConfigForm
                values={form}
                onChange={setForm}
                onCancel={() => setForm(null)}
                onCreated={created}
              />
            ) : (
              <ConfigsTable
                configs={configs.filter((config) => config.shopType === type)}
                empty={empty}
                onDeleted={appConfigs.removed}
              />
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
      <UrlConfiguration shopType={form?.shopType ?? tab} appUrls={appUrls} />
    </Stack>
  )
}
