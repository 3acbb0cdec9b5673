// The shop of the multi-step tests (test/support/shop-app.ts) in a process of its own, so a bench's
// CPU figures hold only its client side. Prints the port, then serves until killed.
import { tsImport } from 'tsx/esm/api';

const { startShopApp } = await tsImport('../support/shop-app.ts', import.meta.url);
const shop = await startShopApp();
process.stdout.write(`${shop.port}\n`);
