import { Card, Center, Code, List, Stack, Text, Title } from '@mantine/core'
import { BROWSER_HOST } from '@shared/browser-host'
import { CONSOLE_NAME } from '@shared/product'

/**
 * Browser mode, opened without this launch's key (none in the address, or an earlier launch's):
 * the host refuses every call, so a sign-in form could only fail. This says what to open instead.
 */
export function HostKeyPage() {
  return (
    <Center component="main" mih="100vh" p="md">
      <Card withBorder shadow="sm" padding="xl" w="100%" maw={560}>
        <Stack>
          <Title order={1} size="h3">
            {`Open ${CONSOLE_NAME} with its key`}
          </Title>
          <Text>
            This address has no key, or the key of an earlier launch, so the console cannot reach
            the stack that serves it and signing in would fail.
          </Text>
          <List type="ordered" spacing="xs">
            <List.Item>
              Find the terminal where <Code>./npmw run start:web</Code> is running.
            </List.Item>
            <List.Item>
              Open the address it printed after <Code>{BROWSER_HOST.announcement}</Code>, with its
              key: it ends in <Code>{`?${BROWSER_HOST.keyParam}=…#/signin`}</Code>.
            </List.Item>
          </List>
          <Text size="sm" c="dimmed">
            Each launch makes a new key: after restarting the stack, open the address it prints
            anew.
          </Text>
        </Stack>
      </Card>
    </Center>
  )
}
