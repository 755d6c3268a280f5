export { ApiError } from './api-error.js';
export { QueryParams, type RangeOptions, type SortOrder } from './query-params.js';
export { RateLimiter, type RateLimiterOptions } from './rate-limiter.js';
export { faultProfileSchema, loadFaultProfile, parseFaultProfile, type FaultProfile } from './faults.js';
export type { FaultKind } from './fault-plan.js';
export { createDevnetServer, type DevnetServer, type DevnetServerOptions, type RequestInfo } from './server.js';
export type { ApiVersion, DevnetRequest, Handler, Network, RouteTable } from './types.js';
