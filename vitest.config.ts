import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'proto/src/**/*.test.ts',
            'shared/src/**/*.test.ts',
            'control-plane/src/**/*.test.ts',
            'agent/src/**/*.test.ts',
            'test/docs/**/*.test.ts',
            'test/repo/**/*.test.ts',
          ],
        },
      },
      {
        // One suite per store port, against SQLite always and MongoDB when LOOKOUT_MONGODB_URI is set.
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real peer programs (Alertmanager, …), installed outside npm: `npm run test:peers`, not `npm test`.
        test: {
          name: 'peers',
          include: ['test/peers/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web app in Debian's chromium (playwright-core): `npm run test:browser`, not `npm test`.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
