import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createHashRouter } from 'react-router'
import { connectBridge } from './lib/bridge'
import { TandemApp } from './app/TandemApp'
import { routes } from './app/routes'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element.')

createRoot(root).render(
  <StrictMode>
    <TandemApp bridge={connectBridge()} router={createHashRouter(routes)} />
  </StrictMode>,
)
