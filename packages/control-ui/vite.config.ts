import { defineConfig } from "vite";

// The gateway serves dist/ as it is: index.html plus content-hashed files under assets/. The page
// runs under a strict CSP (script-src 'self'; style-src 'self'), so nothing may be inlined: no
// module preload polyfill (an inline script), CSS always in its own file, no data: URLs for assets.
export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: true,
  },
});
