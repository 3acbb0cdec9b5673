/** Moved to domain/heartbeat-rules.ts; this re-export keeps the MongoDB adapter compiling until its split merges (then delete). */
export { type PingTouch, pingTouches } from '../domain/heartbeat-rules.js';
