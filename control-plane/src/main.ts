// The control plane process (`node control-plane/dist/main.js`, the path operators' units and images name): process/main.ts.
import './process/main.js';
