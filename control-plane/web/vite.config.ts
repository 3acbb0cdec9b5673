import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `<file>.br` and `<file>.gz` next to each text asset, once, at build time; the control plane
 * (@koa/send) picks one by Accept-Encoding, so nothing is compressed per request.
 */
const precompress = (): Plugin => ({
  name: 'lookout-precompress',
  apply: 'build',
  closeBundle() {
    const outDir = join(import.meta.dirname, 'dist');
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
    for (const file of walk(outDir)) {
      if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
      const data = readFileSync(file);
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    }
  },
});

export default defineConfig({
  root: import.meta.dirname,
  // Preact's automatic JSX runtime, without a plugin.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    reportCompressedSize: false,
  },
  plugins: [precompress()],
});
