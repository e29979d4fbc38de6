import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'release/', '.tandem/', 'node_modules/', 'server/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'tests/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Services reach Electron only through injected ports (docs/architecture.md).
    files: ['src/main/services/**/*.ts', 'src/shared/**/*.ts', 'src/browser-host/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Inject a port instead.', allowTypeImports: true }],
        },
      ],
    },
  },
  ...layerRules(),
)

/**
 * The layers of docs/architecture.md "The layers", as import rules: each entry names the files
 * of one layer and what they may not import, with the reason lint prints.
 */
function layerRules() {
  // What no server module but the HTTP ones (http/, routes/, app.ts) may import: the rest refuse
  // with a Refusal (domain/errors.ts), which http/errors.ts answers.
  const notHttp = {
    '**/http/**': 'Refuse with a Refusal (domain/errors.ts): only routes speak HTTP.',
    '**/routes/**': 'Routes call services, not the other way round.',
  }
  const layers = [
    {
      files: ['src/renderer/**/*.{ts,tsx}'],
      forbidden: {
        '**/main/**': 'The renderer reaches main only through the bridge (lib/bridge.ts).',
        electron: 'The renderer reaches main only through the bridge (lib/bridge.ts).',
        'node:*': 'The renderer runs in a sandboxed page: it has no Node.',
      },
    },
    {
      files: ['server/src/routes/**/*.ts'],
      forbidden: {
        '**/repositories/**':
          'Routes call a service (changes) or a query (reads), never a repository.',
        '**/db/**': 'Routes call a service (changes) or a query (reads), never the database.',
        kysely: 'Routes call a service (changes) or a query (reads), never the database.',
      },
    },
    {
      files: ['server/src/adapters/**/*.ts'],
      forbidden: {
        '**/repositories/**': 'Adapters talk to Shopify and Stripe only: pass in what they need.',
        '**/db/**': 'Adapters talk to Shopify and Stripe only: pass in what they need.',
        kysely: 'Adapters talk to Shopify and Stripe only: pass in what they need.',
        '**/services/**': 'Adapters are called by services, not the other way round.',
        '**/queries/**': 'Adapters talk to Shopify and Stripe only: pass in what they need.',
        ...notHttp,
      },
    },
    {
      files: ['server/src/domain/**/*.ts'],
      forbidden: {
        'node:*': 'The domain is pure rules: no I/O.',
        kysely: 'The domain is pure rules: no I/O.',
        fastify: 'The domain is pure rules: no I/O.',
        '**/db/**': 'The domain is pure rules: no I/O.',
        '**/repositories/**': 'The domain is pure rules: no I/O.',
        '**/adapters/**': 'The domain is pure rules: no I/O.',
        '**/services/**': 'The domain is pure rules: services use it, not the other way round.',
        '**/queries/**': 'The domain is pure rules: no I/O.',
        ...notHttp,
      },
    },
    {
      // The job queue runs handlers that services register: it knows no use case of its own.
      files: ['server/src/jobs/**/*.ts'],
      forbidden: {
        '**/services/**':
          'Services register their job handlers with the queue, not the other way round.',
        '**/queries/**': 'The job queue runs the handlers it is given: it reads no list.',
        '**/repositories/**': 'The job queue keeps its own table: no other repository.',
        '**/adapters/**': 'The job queue runs the handlers it is given: it calls no adapter.',
        ...notHttp,
      },
    },
    {
      files: ['server/src/**/*.ts'],
      ignores: ['server/src/{http,routes,adapters,domain,jobs}/**', 'server/src/app.ts'],
      forbidden: notHttp,
    },
  ]
  return layers.map(({ files, ignores, forbidden }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: Object.entries(forbidden).map(([group, message]) => ({
            group: [group],
            message,
          })),
        },
      ],
    },
  }))
}
