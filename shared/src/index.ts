export * from './address-guard.js';
export * from './assertions.js';
export * from './clock.js';
export * from './errors.js';
export * from './logger.js';
export * from './monitor-types.js';
export * from './secret-box.js';
export * from './secrets.js';
