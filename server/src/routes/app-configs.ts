import type { RouteDeps } from '../deps'
import type { CallRoutes } from '../http/route'
import { appConfigs, appUrls, createAppConfig, removeAppConfig } from '../services/app-configs'

export const appConfigRoutes = (deps: RouteDeps) =>
  ({
    getAllAppConfig: async () => ({ appConfigs: await appConfigs(deps) }),
    createAppConfig: async ({ body, actor }) => ({
      appConfig: await createAppConfig(deps, actor, body),
    }),
    deleteAppConfig: async ({ params, actor }) => ({
      appConfig: await removeAppConfig(deps, actor, params.shop),
    }),
    getAppUrls: async () => appUrls(deps),
  }) satisfies Partial<CallRoutes>
