import { Text } from '@mantine/core'
import { PageHeading } from '@renderer/app/PageHeading'

/** /main/configs: a stand-in until the app configs screen is built. */
export default function ConfigsPage() {
  return (
    <>
      <PageHeading>Configs</PageHeading>
      <Text c="dimmed">The app configs of each shop will be managed here.</Text>
    </>
  )
}
