import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// Served by platform-api at /console; `npm run dev` proxies the API to a local Polystack.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'target/classes/META-INF/resources/console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    css: false,
  },
})
