import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files run side by side. Vitest's default is one worker fewer than the cores, which on
    // the 2-core machines we run on means one file at a time.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          pool: 'forks',
          // Migrates and seeds the template database once per run, not once per test file.
          globalSetup: ['server/test/template.global.ts'],
        },
      },
      {
        extends: './vite.config.ts',
        test: {
          name: 'browser',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
