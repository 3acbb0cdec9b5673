import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        // In-process and pure: two files at a time even on 2 cores (vitest's default there is one
        // worker), in a group that runs before the projects that start processes (groupOrder 1).
        test: {
          name: 'unit',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
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
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          include: ['test/contract/**/*.test.ts'],
        },
      },
      {
        // Control planes on loopback: two files at a time (their tests mostly wait on sockets and
        // injected clocks, so a second file fills the idle core).
        test: {
          name: 'e2e',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real peer programs (Alertmanager, …), installed outside npm: `npm run test:peers`, not `npm test`.
        test: {
          name: 'peers',
          sequence: { groupOrder: 1 },
          include: ['test/peers/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web app in Debian's chromium (playwright-core): `npm run test:browser`, not `npm test`.
        test: {
          name: 'browser',
          sequence: { groupOrder: 1 },
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
